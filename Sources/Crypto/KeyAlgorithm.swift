/// The key types the evidence formats use.
public enum KeyAlgorithm: Hashable, Sendable, CustomStringConvertible {
    case ec(ECCurve)
    case rsa(bits: Int)

    public var description: String {
        switch self {
        case .ec(let curve): return curve.rawValue
        case .rsa(let bits): return "RSA-\(bits)"
        }
    }
}

/// NIST prime curves (FIPS 186-4 §D.1.2).
public enum ECCurve: String, Hashable, Sendable, CaseIterable {
    case p256 = "P-256"
    case p384 = "P-384"

    /// Bytes of one coordinate or scalar.
    public var coordinateSize: Int { self == .p256 ? 32 : 48 }

    /// The group order n, big-endian (FIPS 186-4 §D.1.2.3, §D.1.2.4).
    public var order: [UInt8] {
        switch self {
        case .p256: return hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        case .p384:
            return hex("ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973")
        }
    }

    /// COSE `crv` (RFC 9053 §7.1): P-256 is 1, P-384 is 2.
    public var coseCurve: Int64 { self == .p256 ? 1 : 2 }

    /// COSE `alg` of ECDSA with this curve's usual hash (RFC 9053 §2.1): ES256 is -7, ES384 is -35.
    public var coseAlgorithm: Int64 { self == .p256 ? -7 : -35 }

    /// The hash ECDSA normally pairs with this curve.
    public var digest: DigestAlgorithm { self == .p256 ? .sha256 : .sha384 }
}

/// Lowercase hex of `bytes`.
public func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]] }
    return String(decoding: out, as: UTF8.self)
}

/// The bytes of a hex string (either case); traps on malformed input, so use it for constants only.
public func hex(_ text: String) -> [UInt8] {
    guard let bytes = bytes(fromHex: text) else { preconditionFailure("malformed hex constant") }
    return bytes
}

/// The bytes of a hex string (either case), or nil when malformed.
public func bytes(fromHex text: String) -> [UInt8]? {
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
