import Foundation

/// One HTTP/1.1 request of a live verifier: what the harness sends, nothing it needs to reuse.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: URL
    /// Names as written; `Host`, `Content-Length` and `Connection` are set by the client.
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A response read within its deadline and size cap.
package struct HTTPResponse: Sendable {
    package let status: Int
    /// Names lowercased, in the order received (a repeated header appears repeatedly).
    package let headers: [(name: String, value: String)]
    package let body: Data

    /// The first value of header `name` (any case).
    package func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name == wanted }?.value
    }
}

/// Why no response could be had. Every case ends within the request's deadline and allocates at most its cap.
package enum HTTPClientError: Error, Hashable, Sendable, CustomStringConvertible {
    case badURL(String)
    case resolve(String)
    case connect(String)
    case tls(String)
    case timeout(seconds: Double)
    case tooLarge(limit: Int)
    case malformed(String)
    case closed(String)

    package var description: String {
        switch self {
        case .badURL(let url): return "bad URL \(url)"
        case .resolve(let reason): return "cannot resolve the host: \(reason)"
        case .connect(let reason): return "cannot connect: \(reason)"
        case .tls(let reason): return "TLS failed: \(reason)"
        case .timeout(let seconds): return "no complete response within \(seconds) s"
        case .tooLarge(let limit): return "the response is larger than the \(limit)-byte limit"
        case .malformed(let reason): return "malformed response: \(reason)"
        case .closed(let reason): return "the connection closed early: \(reason)"
        }
    }
}
