import AttestConformance
import AttestHTTP
import Foundation

/// What the live drivers share: requests to a server's API carrying the step's time in `X-Attest-Harness-Time`
/// (honoured by servers with a test clock), with one deadline, a size cap, and no retries.
struct LiveAPIClient: Sendable {
    let baseURL: URL
    let timeout: TimeInterval
    /// Sent with every request (an Authorization header).
    var headers: [String: String] = [:]

    func send(_ method: String, _ target: String, body: Data?, headers extra: [String: String] = [:], time: Date) async throws -> (Int, Data) {
        guard let url = URL(string: target, relativeTo: baseURL) else { throw VerifierFailure.contract("bad target \(target)") }
        var request = HTTPRequest(method: method, url: url, body: body.map(Array.init) ?? [])
        for (name, value) in headers.merging(extra, uniquingKeysWith: { _, request in request }).sorted(by: { $0.key < $1.key }) {
            request.headers.append((name, value))
        }
        request.headers.append(("X-Attest-Harness-Time", ISO8601DateFormatter().string(from: time)))
        let answer: HTTPResponse
        do {
            answer = try await HTTPClient(timeout: timeout, responseLimit: 1 << 20).send(request)
        } catch {
            throw VerifierFailure.contract("\(error)")
        }
        let (status, response) = (answer.status, Data(answer.body))
        return (status, response)
    }

    /// POST of a JSON object.
    func post(_ path: String, _ object: [String: Any], time: Date) async throws -> (Int, Data) {
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try await send("POST", path, body: body,
                 headers: ["Content-Type": "application/json"], time: time)
    }
}
