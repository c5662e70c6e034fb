import AttestAPIMap
import AttestConformance
import AttestHTTP
import Foundation

/// A deployed server: one deadline and size cap per request, no retries, redirects returned as they are (and so
/// read as refusals), `https` with the system's roots or a private CA file (`--cacert`).
public struct HTTPMapTransport: MapTransport {
    public let baseURL: URL
    public let timeout: TimeInterval
    public let responseLimit: Int
    public let trustedCertificates: String?

    public init(baseURL: URL, timeout: TimeInterval = 10, responseLimit: Int = 1 << 20, trustedCertificates: String? = nil) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.responseLimit = responseLimit
        self.trustedCertificates = trustedCertificates
    }

    public var name: String { baseURL.absoluteString }

    public func send(_ request: RenderedRequest) async throws -> MapResponse {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + request.target) else { throw VerifierFailure.contract("bad request target \(request.target)") }
        let outgoing = HTTPRequest(method: request.method, url: url, headers: request.headers, body: request.body)
        do {
            let answer = try await HTTPClient(timeout: timeout, responseLimit: responseLimit, trustedCertificates: trustedCertificates).send(outgoing)
            return MapResponse(status: answer.status, headers: answer.headers, body: Array(answer.body))
        } catch HTTPClientError.timeout {
            throw VerifierFailure.hang(seconds: timeout)
        } catch {
            throw VerifierFailure.contract("\(request.method) \(request.target): \(error)")
        }
    }
}
