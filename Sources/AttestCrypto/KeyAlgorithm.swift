/// The key types the evidence formats use.
public enum KeyAlgorithm: Hashable, Sendable, CustomStringConvertible {
    case ec(ECCurve)
    case rsa(bits: Int)
    /// Edwards-curve keys (RFC 8032), signed as EdDSA without a separate digest.
    case ed25519
    case ed448

    public var description: String {
        switch self {
        case .ec(let curve): return curve.rawValue
        case .rsa(let bits): return "RSA-\(bits)"
        case .ed25519: return "Ed25519"
        case .ed448: return "Ed448"
        }
    }

    /// True when this key signs with `digest` and `padding`: EdDSA keys sign the message itself (no digest), every
    /// other key a digest of it; PSS is for RSA keys only.
    func signs(digest: HashAlgorithm?, padding: RSAPadding) -> Bool {
        let edDSA = self == .ed25519 || self == .ed448
        guard (digest == nil) == edDSA else { return false }
        if padding == .pss, case .rsa = self { return true }
        return padding != .pss
    }

    /// The curve of an EC key.
    public var curve: ECCurve? {
        if case .ec(let curve) = self { return curve }
        return nil
    }

    /// OpenSSL's key type name.
    var openSSLName: String {
        switch self {
        case .ec: return "EC"
        case .rsa: return "RSA"
        case .ed25519: return "ED25519"
        case .ed448: return "ED448"
        }
    }
}

/// NIST prime curves (FIPS 186-4 §D.1.2).
public enum ECCurve: String, Hashable, Sendable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"
    case p521 = "P-521"

    /// The curve's OBJECT IDENTIFIER as a named curve in an SPKI (RFC 5480 §2.1.1.1).
    public var namedCurve: String {
        switch self {
        case .p256: return "1.2.840.10045.3.1.7"
        case .p384: return "1.3.132.0.34"
        case .p521: return "1.3.132.0.35"
        }
    }

    /// Bytes of one coordinate or scalar.
    public var coordinateSize: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }

    /// The group order n, big-endian (FIPS 186-4 §D.1.2.3, §D.1.2.4).
    public var order: [UInt8] {
        switch self {
        case .p256: return hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        case .p384:
            return hex("ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973")
        case .p521:
            return hex("01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409")
        }
    }

    /// COSE `crv` (RFC 9053 §7.1): P-256 is 1, P-384 is 2, P-521 is 3.
    public var coseCurve: Int64 {
        switch self {
        case .p256: return 1
        case .p384: return 2
        case .p521: return 3
        }
    }

    /// COSE `alg` of ECDSA with this curve's usual hash (RFC 9053 §2.1): ES256 -7, ES384 -35, ES512 -36.
    public var coseAlgorithm: Int64 {
        switch self {
        case .p256: return -7
        case .p384: return -35
        case .p521: return -36
        }
    }

    /// The hash ECDSA normally pairs with this curve.
    public var digest: HashAlgorithm {
        switch self {
        case .p256: return .sha256
        case .p384: return .sha384
        case .p521: return .sha512
        }
    }
}

/// Lowercase hex of `bytes`.
package func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// The bytes of a hex string (either case); traps on malformed input, so use it for constants only.
package func hex(_ text: String) -> [UInt8] {
    guard let bytes = bytes(fromHex: text) else { preconditionFailure("malformed hex constant") }
    return bytes
}

/// The bytes of a hex string (either case), or nil when malformed.
package func bytes(fromHex text: String) -> [UInt8]? {
    let chars = Array(text.utf8)
    guard chars.count % 2 == 0 else { return nil }
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }
    var out: [UInt8] = []
    out.reserveCapacity(chars.count / 2)
    var index = 0
    while index < chars.count {
        guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
        out.append(high << 4 | low)
        index += 2
    }
    return out
}
