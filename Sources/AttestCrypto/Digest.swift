internal import CAttestOpenSSL

/// Hash functions used by the evidence formats: SHA-256 (App Attest, WebAuthn, Android), SHA-384, SHA-512, and
/// SHA-1 for the legacy RS1 WebAuthn credentials (COSE -65535) only.
public enum HashAlgorithm: String, Hashable, Sendable, CaseIterable {
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha384 = "SHA384"
    case sha512 = "SHA512"

    public var outputSize: Int {
        switch self {
        case .sha1: return 20
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// The digest fetched once (`Fetched.digests`), or the legacy handle if that fetch failed.
    var evp: OpaquePointer {
        if let fetched = Fetched.digests[self] { return fetched }
        switch self {
        case .sha1: return EVP_sha1()
        case .sha256: return EVP_sha256()
        case .sha384: return EVP_sha384()
        case .sha512: return EVP_sha512()
        }
    }

    /// The digest of `message`.
    public func hash(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: outputSize)
        var length: UInt32 = 0
        let ok = EVP_Digest(message, message.count, &out, &length, evp, nil)
        precondition(ok == 1 && Int(length) == outputSize, "EVP_Digest cannot fail for a built-in digest")
        return out
    }

    /// HMAC (RFC 2104) of `message` under `key`.
    public func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: outputSize)
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            HMAC(evp, keyBytes.baseAddress, Int32(key.count), message, message.count, &out, &length)
        }
        precondition(result != nil && Int(length) == outputSize, "HMAC cannot fail for a built-in digest")
        return out
    }
}

/// SHA-256 of `message`, the hash most of the evidence formats use.
public func sha256(_ message: [UInt8]) -> [UInt8] { HashAlgorithm.sha256.hash(message) }

/// Cryptographically secure random bytes from OpenSSL's default generator.
public func secureRandomBytes(_ count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    precondition(RAND_bytes(&out, Int32(count)) == 1, "RAND_bytes failed")
    return out
}
