import AttestConformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the live drivers share: requests to a server's API carrying the step's time in `X-Attest-Harness-Time`
/// (honoured by servers with a test clock), with one deadline, a size cap, and no retries.
struct LiveAPIClient: Sendable {
    let baseURL: URL
    let timeout: TimeInterval
    /// Sent with every request (an Authorization header).
    var headers: [String: String] = [:]

    func send(_ method: String, _ target: String, body: Data?, headers extra: [String: String] = [:], time: Date) async throws -> (Int, Data) {
        guard let url = URL(string: target, relativeTo: baseURL) else { throw VerifierFailure.contract("bad target \(target)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = timeout
        for (name, value) in headers.merging(extra, uniquingKeysWith: { _, request in request }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        request.setValue(ISO8601DateFormatter().string(from: time), forHTTPHeaderField: "X-Attest-Harness-Time")
        let (status, _, response) = try await BoundedFetch(limit: 1 << 20, timeout: timeout).perform(request)
        return (status, response)
    }

    /// POST of a JSON object.
    func post(_ path: String, _ object: [String: Any], time: Date) async throws -> (Int, Data) {
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try await send("POST", path, body: body,
                 headers: ["Content-Type": "application/json"], time: time)
    }
}
