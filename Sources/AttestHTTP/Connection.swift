internal import CAttestOpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected stream with one deadline for everything done on it: a TCP socket, optionally wrapped in TLS.
/// Every read and write waits at most until the deadline (a one-byte-per-second drip included).
final class Connection {
    private let descriptor: Int32
    /// The deadline of the request in progress: a pooled connection gets the next request's deadline.
    var deadline: Date
    var timeout: TimeInterval
    private var tls: OpaquePointer?
    private var context: OpaquePointer?

    /// Connects to `host:port` (a name, an IPv4 address or an IPv6 literal without brackets), trying each address in
    /// turn until the deadline.
    init(host: String, port: Int, deadline: Date, timeout: TimeInterval) throws {
        self.deadline = deadline
        self.timeout = timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw HTTPClientError.resolve(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let socket = Glibc_socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard socket >= 0 else { lastError = String(cString: strerror(errno)); continue }
            if Connection.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen, deadline: deadline, error: &lastError) {
                descriptor = socket
                var one: Int32 = 1
                setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                #if canImport(Darwin)
                setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
                #endif
                return
            }
            close(socket)
            if Date() >= deadline { throw HTTPClientError.timeout(seconds: timeout) }
        }
        throw HTTPClientError.connect(lastError)
    }

    deinit {
        if let tls { SSL_free(tls) }
        if let context { SSL_CTX_free(context) }
        close(descriptor)
    }

    /// A non-blocking connect, waited for with poll until the deadline. The socket stays non-blocking: every read
    /// and write polls first, so none can outlast the deadline.
    private static func connect(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t,
                                deadline: Date, error: inout String) -> Bool {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        if Glibc_connect(socket, address, length) == 0 { return true }
        guard errno == EINPROGRESS else { error = String(cString: strerror(errno)); return false }
        guard wait(socket, for: Int16(POLLOUT), until: deadline) else { error = "timed out"; return false }
        var result: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &result, &size)
        guard result == 0 else { error = String(cString: strerror(result)); return false }
        return true
    }

    /// Waits until `socket` is ready for `events` or the deadline passes.
    private static func wait(_ socket: Int32, for events: Int16, until deadline: Date) -> Bool {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var poller = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    /// Wraps the connection in TLS, verifying the server's certificate chain (against `trustedCertificates`, a PEM
    /// file, or the system's roots) and its name or address.
    func startTLS(host: String, trustedCertificates: String?) throws {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw HTTPClientError.tls(Connection.openSSLErrors()) }
        self.context = context
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let loaded = trustedCertificates.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard loaded == 1 else { throw HTTPClientError.tls("cannot load trusted certificates: \(Connection.openSSLErrors())") }
        guard let tls = SSL_new(context) else { throw HTTPClientError.tls(Connection.openSSLErrors()) }
        self.tls = tls
        SSL_set_fd(tls, descriptor)
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        if isAddress {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(tls), host)
        } else {
            _ = copenssl_SSL_set_tlsext_host_name(tls, host)
            SSL_set1_host(tls, host)
        }
        try retry { SSL_connect(tls) }
    }

    func write(_ bytes: [UInt8]) throws {
        guard Date() < deadline else { throw HTTPClientError.timeout(seconds: timeout) }
        var offset = 0
        while offset < bytes.count {
            let count = try bytes[offset...].withUnsafeBytes { buffer -> Int in
                if let tls {
                    return Int(try retry { SSL_write(tls, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max)))) })
                }
                guard Connection.wait(descriptor, for: Int16(POLLOUT), until: deadline) else { throw HTTPClientError.timeout(seconds: timeout) }
                #if canImport(Glibc)
                let written = send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                let written = send(descriptor, buffer.baseAddress, buffer.count, 0)
                #endif
                if written < 0 && (errno == EINTR || errno == EAGAIN) { return 0 }
                guard written > 0 else { throw HTTPClientError.closed(String(cString: strerror(errno))) }
                return written
            }
            offset += count
        }
    }

    /// Up to `buffer.count` bytes; 0 at the end of the stream.
    func read(into buffer: inout [UInt8]) throws -> Int {
        // A server that keeps sending (endless trailers, one-byte chunks) never makes a read wait: check anyway.
        guard Date() < deadline else { throw HTTPClientError.timeout(seconds: timeout) }
        while true {
            let (count, wanted) = try buffer.withUnsafeMutableBytes { raw -> (Int, Int16?) in
                if let tls {
                    var count = 0
                    let status = SSL_read_ex(tls, raw.baseAddress, raw.count, &count)
                    if status == 1 { return (count, nil) }
                    let error = SSL_get_error(tls, status)
                    if error == SSL_ERROR_ZERO_RETURN { return (0, nil) }
                    if error == SSL_ERROR_WANT_READ { return (-1, Int16(POLLIN)) }
                    if error == SSL_ERROR_WANT_WRITE { return (-1, Int16(POLLOUT)) }
                    // A peer that closes without close_notify ends the stream as plain TCP would.
                    if (error == SSL_ERROR_SYSCALL || error == SSL_ERROR_SSL) && ERR_peek_error() == 0 { return (0, nil) }
                    throw HTTPClientError.tls(Connection.openSSLErrors())
                }
                let count = recv(descriptor, raw.baseAddress, raw.count, 0)
                if count >= 0 { return (count, nil) }
                if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return (-1, Int16(POLLIN)) }
                throw HTTPClientError.closed(String(cString: strerror(errno)))
            }
            guard let wanted else { return count }
            guard Connection.wait(descriptor, for: wanted, until: deadline) else { throw HTTPClientError.timeout(seconds: timeout) }
        }
    }

    /// Runs a TLS operation on the non-blocking-by-poll socket until it completes or the deadline passes.
    @discardableResult
    private func retry(_ operation: () -> Int32) throws -> Int32 {
        guard let tls else { return 0 }
        while true {
            let status = operation()
            if status > 0 { return status }
            let error = SSL_get_error(tls, status)
            guard error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE else {
                let verify = SSL_get_verify_result(tls)
                let reason = verify != X509_V_OK ? String(cString: X509_verify_cert_error_string(verify)) : Connection.openSSLErrors()
                throw HTTPClientError.tls(reason)
            }
            guard Connection.wait(descriptor, for: Int16(error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), until: deadline) else {
                throw HTTPClientError.timeout(seconds: timeout)
            }
        }
    }

    private static func openSSLErrors() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons.isEmpty ? "unknown error" : reasons.joined(separator: "; ")
    }
}

@inline(__always)
private func Glibc_socket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
    #if canImport(Glibc)
    return socket(family, type | Int32(SOCK_CLOEXEC.rawValue), proto)
    #else
    let descriptor = socket(family, type, proto)
    if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
    return descriptor
    #endif
}

@inline(__always)
private func Glibc_connect(_ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    return Glibc.connect(socket, address, length)
    #else
    return Darwin.connect(socket, address, length)
    #endif
}
