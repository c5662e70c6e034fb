import Foundation

/// The HTTP/1.1 client of every live verifier (our verdict protocol, API drivers, the association pre-flight).
///
/// Hostile servers cannot stall or flood the harness: one deadline covers resolving, connecting, TLS, sending and
/// reading (a slow drip included); the body is read into a buffer that never grows past `responseLimit`, and the
/// transfer is aborted the moment a server declares or sends more (memory stays at the cap however fast or long a
/// server streams); headers are capped too; redirects are returned as they are, never followed. Nothing is retried,
/// except that with `reusesConnections` (the verdict protocol: stateless requests) a request whose pooled
/// connection ends before the first response byte is sent once more on a fresh connection.
/// IPv6 literals (`http://[::1]:8080`) and `https` (system roots, or a private CA file) are supported.
///
/// Each request runs on a thread of its own and is awaited, so many can be in flight without holding the
/// cooperative pool.
package struct HTTPClient: Sendable {
    package var timeout: TimeInterval
    package var responseLimit: Int
    /// A PEM file of CA certificates to trust for https instead of the system's roots.
    package var trustedCertificates: String?
    /// Keep plain-http connections open for later requests to the same server (`ConnectionPool`). Only for requests
    /// that may be sent twice: the verdict protocol's; never an API map's steps against a stateful server.
    package var reusesConnections = false

    /// Headers larger than this end the request.
    static let headerLimit = 64 << 10

    package init(timeout: TimeInterval, responseLimit: Int, trustedCertificates: String? = nil) {
        self.timeout = timeout
        self.responseLimit = responseLimit
        self.trustedCertificates = trustedCertificates
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, HTTPClientError>, Never>) in
            let client = self
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: .success(try client.exchange(request)))
                } catch let error as HTTPClientError {
                    continuation.resume(returning: .failure(error))
                } catch {
                    continuation.resume(returning: .failure(.malformed("\(error)")))
                }
            }
        }
        return try outcome.get()
    }

    /// The whole exchange, blocking this thread until the response or the deadline.
    func exchange(_ request: HTTPRequest) throws -> HTTPResponse {
        let deadline = Date().addingTimeInterval(timeout)
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let rawHost = request.url.host, !rawHost.isEmpty else {
            throw HTTPClientError.badURL(request.url.absoluteString)
        }
        // Foundation keeps the brackets of an IPv6 literal on some platforms.
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let port = request.url.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { throw HTTPClientError.badURL(request.url.absoluteString) }
        let reuse = reusesConnections && scheme == "http"
        let key = "\(host) \(port)"
        let bytes = Self.serialize(request, host: host, port: port, scheme: scheme, keepAlive: reuse)
        if reuse, let pooled = ConnectionPool.shared.take(key) {
            pooled.deadline = deadline
            pooled.timeout = timeout
            var reader = ResponseReader(connection: pooled, limit: responseLimit, headerLimit: Self.headerLimit)
            do {
                try pooled.write(bytes)
                let response = try reader.read(bodyExpected: request.method != "HEAD")
                if reader.reusable(response) { ConnectionPool.shared.give(pooled, key) }
                return response
            } catch let error as HTTPClientError {
                // The server closed the idle connection before answering: say it again on a fresh one. Anything
                // else (a partial or malformed answer, a timeout) is this request's result.
                guard !reader.receivedAny, case .closed = error else { throw error }
            }
        }
        let connection = try Connection(host: host, port: port, deadline: deadline, timeout: timeout)
        if scheme == "https" { try connection.startTLS(host: host, trustedCertificates: trustedCertificates) }
        try connection.write(bytes)
        var reader = ResponseReader(connection: connection, limit: responseLimit, headerLimit: Self.headerLimit)
        let response = try reader.read(bodyExpected: request.method != "HEAD")
        if reuse, reader.reusable(response) { ConnectionPool.shared.give(connection, key) }
        return response
    }

    /// `value` as a field value may be sent (RFC 9110 §5.5: no CTLs but horizontal tab): a line break, NUL, VT,
    /// FF, DEL, and the C1 controls NEL among them, captured from a server or written in a map, each become a space,
    /// so no value can end its header, start another or reach a server as bytes it would split or refuse on.
    package static func fieldValue(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            let control = (scalar.value < 0x20 && scalar.value != 0x09) || (0x7f...0x9f).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
            out.append(control ? " " : scalar)
        }
        return String(out)
    }

    package static func serialize(_ request: HTTPRequest, host: String, port: Int, scheme: String, keepAlive: Bool = false) -> [UInt8] {
        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true) {
            target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            if let query = components.percentEncodedQuery { target += "?" + query }
        }
        let defaultPort = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        let authority = (host.contains(":") ? "[\(host)]" : host) + (defaultPort ? "" : ":\(port)")
        var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n"
        let reserved: Set<String> = ["host", "connection", "content-length", "transfer-encoding"]
        for (name, value) in request.headers where !reserved.contains(name.lowercased()) {
            head += "\(name): \(Self.fieldValue(value))\r\n"
        }
        if !request.body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + request.body
    }
}

/// Reads one response from a connection: status line, headers (capped), and a body framed by Content-Length,
/// chunked transfer coding or the end of the connection, never holding more than `limit` body bytes.
struct ResponseReader {
    let connection: Connection
    let limit: Int
    let headerLimit: Int
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)
    /// True once the server sent any byte of a response.
    private(set) var receivedAny = false
    /// True when the last body was framed (Content-Length, chunked, or none by status), not read to the end.
    private var framed = false

    init(connection: Connection, limit: Int, headerLimit: Int) {
        self.connection = connection
        self.limit = limit
        self.headerLimit = headerLimit
    }

    mutating func read(bodyExpected: Bool) throws -> HTTPResponse {
        // Interim responses (100 Continue, 103 Early Hints) precede the final one; at most a few are read past.
        for _ in 0..<8 {
            let response = try readOne(bodyExpected: bodyExpected)
            if !(100..<200).contains(response.status) || response.status == 101 { return response }
        }
        throw HTTPClientError.malformed("too many interim responses")
    }

    private mutating func readOne(bodyExpected: Bool) throws -> HTTPResponse {
        let head = try readHead()
        guard let text = String(validating: head, as: UTF8.self) ?? String(bytes: head, encoding: .isoLatin1) else {
            throw HTTPClientError.malformed("undecodable headers")
        }
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]),
              (100...599).contains(status) else {
            throw HTTPClientError.malformed("status line \"\(String(text.prefix(80)))\"")
        }
        let persistent = statusLine[0] == "HTTP/1.1"
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw HTTPClientError.malformed("header line \"\(line.prefix(80))\"") }
            headers.append((line[..<colon].trimmingCharacters(in: .whitespaces).lowercased(),
                            line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
        let body: Data
        framed = persistent
        if !bodyExpected || status == 204 || status == 304 || (100..<200).contains(status) {
            body = Data()
        } else if header("transfer-encoding")?.lowercased().contains("chunked") == true {
            body = try readChunked()
        } else if let declared = header("content-length") {
            guard let length = Int(declared), length >= 0 else { throw HTTPClientError.malformed("Content-Length \(declared)") }
            guard length <= limit else { throw HTTPClientError.tooLarge(limit: limit) }
            let buffer = try BodyBuffer(limit: length)
            try readExactly(length, into: buffer)
            body = buffer.take()
        } else {
            framed = false
            body = try readToEnd()
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// Whether the connection may carry another request after `response`: HTTP/1.1 keep-alive, the body framed and
    /// read whole, and nothing more sent after it.
    func reusable(_ response: HTTPResponse) -> Bool {
        framed && pending.isEmpty
            && !response.headers.contains { $0.name == "connection" && $0.value.lowercased().contains("close") }
    }

    /// Bytes up to the blank line that ends the headers.
    private mutating func readHead() throws -> [UInt8] {
        let separator: [UInt8] = [13, 10, 13, 10]
        var searchFrom = 0
        while true {
            if pending.count >= 4 {
                for index in max(0, searchFrom - 3)...(pending.count - 4) where pending[index..<index + 4].elementsEqual(separator) {
                    // The cap holds for a head that arrived whole in one read too, not only for one still arriving.
                    guard index <= headerLimit else { throw HTTPClientError.malformed("headers over \(headerLimit) bytes") }
                    let head = Array(pending[..<index])
                    pending.removeFirst(index + 4)
                    return head
                }
                searchFrom = pending.count
            }
            guard pending.count <= headerLimit else { throw HTTPClientError.malformed("headers over \(headerLimit) bytes") }
            guard try fill() else { throw HTTPClientError.closed("before the end of the headers") }
        }
    }

    /// Reads more into `pending`; false at the end of the stream.
    private mutating func fill() throws -> Bool {
        let count = try connection.read(into: &chunk)
        guard count > 0 else { return false }
        receivedAny = true
        pending.append(contentsOf: chunk[0..<count])
        return true
    }

    private mutating func readExactly(_ length: Int, into buffer: BodyBuffer) throws {
        var remaining = length
        while remaining > 0 {
            if pending.isEmpty, try !fill() { throw HTTPClientError.closed("after \(length - remaining) of \(length) body bytes") }
            let take = min(remaining, pending.count)
            try buffer.append(pending[..<take])
            pending.removeFirst(take)
            remaining -= take
        }
    }

    private mutating func readToEnd() throws -> Data {
        let buffer = try BodyBuffer(limit: limit)
        try buffer.append(pending)
        pending = []
        while true {
            let count = try connection.read(into: &chunk)
            if count == 0 { return buffer.take() }
            try buffer.append(chunk[0..<count])
        }
    }

    private mutating func readChunked() throws -> Data {
        let buffer = try BodyBuffer(limit: limit)
        while true {
            let sizeLine = try readLine()
            let digits = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
            guard digits.count <= 16, let size = Int(digits, radix: 16), size >= 0 else {
                throw HTTPClientError.malformed("chunk size \"\(sizeLine.prefix(40))\"")
            }
            if size == 0 {
                // Trailers, up to the blank line, no more of them than the header cap allows.
                var trailerBytes = 0
                while true {
                    let line = try readLine()
                    if line.isEmpty { break }
                    trailerBytes += line.utf8.count + 2
                    guard trailerBytes <= headerLimit else { throw HTTPClientError.malformed("trailers over \(headerLimit) bytes") }
                }
                return buffer.take()
            }
            guard size <= limit - buffer.count else { throw HTTPClientError.tooLarge(limit: limit) }
            try readExactly(size, into: buffer)
            guard try readLine().isEmpty else { throw HTTPClientError.malformed("chunk not followed by CRLF") }
        }
    }

    /// One CRLF-terminated line (at most 8 KiB), without its terminator.
    private mutating func readLine() throws -> String {
        while true {
            if let end = pending.firstIndex(of: 10) {
                var line = Array(pending[..<end])
                pending.removeFirst(end + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard pending.count <= 8192 else { throw HTTPClientError.malformed("a chunk line over 8 KiB") }
            guard try fill() else { throw HTTPClientError.closed("inside the chunked body") }
        }
    }
}
