internal import CAttestOpenSSL

/// A failure in a cryptographic or X.509 operation.
public enum AttestCryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// OpenSSL refused `operation`; `reasons` is its error queue, oldest first.
    case openSSL(operation: String, reasons: [String])
    /// Bytes that should hold a key, signature or certificate are not well formed.
    case malformed(what: String, reason: String)
    /// The key cannot do what was asked (an RSA key asked for an EC point, an unsupported curve...).
    case unsupported(String)

    public var description: String {
        switch self {
        case .openSSL(let operation, let reasons):
            return "OpenSSL \(operation) failed" + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: "; "))
        case .malformed(let what, let reason): return "malformed \(what): \(reason)"
        case .unsupported(let what): return "unsupported: \(what)"
        }
    }

    /// Empties this thread's OpenSSL error queue into an error for `operation`.
    static func fromQueue(_ operation: String) -> AttestCryptoError {
        .openSSL(operation: operation, reasons: drainQueue())
    }

    @discardableResult
    static func drainQueue() -> [String] {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons
    }
}

/// Throws the drained OpenSSL error queue unless `result` is 1 (OpenSSL's success value).
@inline(__always)
func check(_ result: Int32, _ operation: String) throws {
    if result != 1 { throw AttestCryptoError.fromQueue(operation) }
}

/// Throws the drained OpenSSL error queue when `pointer` is nil.
@inline(__always)
func check<T>(_ pointer: T?, _ operation: String) throws -> T {
    guard let pointer else { throw AttestCryptoError.fromQueue(operation) }
    return pointer
}
