internal import CAttestOpenSSL
import AttestDER

/// An ECDSA signature (r, s), convertible between the DER `Ecdsa-Sig-Value` (RFC 3279 §2.2.3; X.509, WebAuthn,
/// App Attest) and raw fixed-width `r || s` (IEEE P1363; COSE, JWS), and between its two valid forms:
/// s and n − s both verify, and verifiers that demand low-S reject the high one.
public struct ECDSASignatureValue: Hashable, Sendable {
    /// Big-endian magnitudes without leading zeros.
    public var r: [UInt8]
    public var s: [UInt8]

    public init(r: [UInt8], s: [UInt8]) {
        self.r = Array(r.drop { $0 == 0 })
        self.s = Array(s.drop { $0 == 0 })
    }

    /// Reads `SEQUENCE { r INTEGER, s INTEGER }` with the strict DER reader.
    public init(der: [UInt8]) throws {
        var fields = try DERReader.parse(der).contents(field: "Ecdsa-Sig-Value")
        let r = try fields.next("r").unsignedIntegerBytes(field: "r")
        let s = try fields.next("s").unsignedIntegerBytes(field: "s")
        try fields.finish()
        self.init(r: r, s: s)
    }

    /// What a lenient verifier recovers from a signature that is not a DER `Ecdsa-Sig-Value`: BER lengths and
    /// integers (X.690 §8), bytes after the SEQUENCE, elements after s inside it (a reader that takes the first two
    /// INTEGERs and stops), or raw `r || s` of `curve`. nil when it is none of these.
    /// WebAuthn §6.5.5 requires DER; this is the reading a verifier without that check applies.
    public init?(lenient bytes: [UInt8], curve: ECCurve) {
        func read(_ bytes: [UInt8], stoppingAfterS: Bool = false) throws -> ECDSASignatureValue {
            var fields = try DERReader.parse(bytes, options: .ber).contents(field: "Ecdsa-Sig-Value")
            let r = try fields.next("r").unsignedIntegerBytes(field: "r")
            let s = try fields.next("s").unsignedIntegerBytes(field: "s")
            if !stoppingAfterS { try fields.finish() }
            return ECDSASignatureValue(r: r, s: s)
        }
        do {
            self = try read(bytes)
        } catch let error as DERError {
            if case .trailingBytes(let count) = error.code, let value = try? read(Array(bytes.dropLast(count))) {
                self = value
            } else if case .unexpectedElement = error.code, let value = try? read(bytes, stoppingAfterS: true) {
                self = value
            } else if let value = try? ECDSASignatureValue(raw: bytes, curve: curve) {
                self = value
            } else {
                return nil
            }
        } catch {
            return nil
        }
    }

    /// Reads raw `r || s`, each `curve.coordinateSize` bytes.
    public init(raw: [UInt8], curve: ECCurve) throws {
        guard raw.count == 2 * curve.coordinateSize else {
            throw AttestCryptoError.malformed(what: "raw ECDSA signature", reason: "expected \(2 * curve.coordinateSize) bytes")
        }
        self.init(r: Array(raw.prefix(curve.coordinateSize)), s: Array(raw.suffix(curve.coordinateSize)))
    }

    public var der: [UInt8] {
        DERElement.sequence([.integer(unsignedBigEndian: r), .integer(unsignedBigEndian: s)]).serialized
    }

    /// `r || s`, each left-padded to the curve's coordinate size.
    public func raw(curve: ECCurve) -> [UInt8] {
        func pad(_ v: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: max(0, curve.coordinateSize - v.count)) + v }
        return pad(r) + pad(s)
    }

    /// True when s ≤ n/2.
    public func isLowS(curve: ECCurve) -> Bool {
        let half = ECDSASignatureValue.bignum(curve.order) { n, context in BN_rshift1(n, n) }
        return ECDSASignatureValue.compare(s, half) <= 0
    }

    /// The same signature with s replaced by n − s when needed so that s ≤ n/2.
    public func lowS(curve: ECCurve) -> ECDSASignatureValue { isLowS(curve: curve) ? self : flipped(curve: curve) }

    /// The same signature with s replaced by n − s when needed so that s > n/2.
    public func highS(curve: ECCurve) -> ECDSASignatureValue { isLowS(curve: curve) ? flipped(curve: curve) : self }

    private func flipped(curve: ECCurve) -> ECDSASignatureValue {
        let flippedS = ECDSASignatureValue.bignum(curve.order) { n, _ in
            let sBN = BN_bin2bn(s, Int32(s.count), nil)
            defer { BN_free(sBN) }
            return BN_sub(n, n, sBN)
        }
        return ECDSASignatureValue(r: r, s: flippedS)
    }

    /// Runs `operation` on a BIGNUM holding `value` and returns the BIGNUM's bytes afterwards.
    private static func bignum(_ value: [UInt8], _ operation: (OpaquePointer, OpaquePointer) -> Int32) -> [UInt8] {
        // BN_bin2bn and BN_CTX_new fail only when memory is exhausted.
        let n = BN_bin2bn(value, Int32(value.count), nil)!
        let context = BN_CTX_new()!
        defer {
            BN_free(n)
            BN_CTX_free(context)
        }
        precondition(operation(n, context) == 1, "BIGNUM arithmetic failed")
        var out = [UInt8](repeating: 0, count: Int((BN_num_bits(n) + 7) / 8))
        BN_bn2bin(n, &out)
        return out
    }

    /// Compares two big-endian magnitudes without leading zeros.
    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }
}
