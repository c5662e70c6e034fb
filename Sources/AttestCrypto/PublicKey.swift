internal import CAttestOpenSSL
import AttestCBOR
import AttestDER

/// A public key held by OpenSSL: EC P-256/P-384/P-521, RSA, Ed25519 or Ed448.
public final class PublicKey: @unchecked Sendable, Hashable {
    let pkey: OpaquePointer
    public let algorithm: KeyAlgorithm
    /// DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    public let spki: [UInt8]
    /// Verifying contexts initialised once per (digest, padding) and copied for each check (see `verify`).
    private let verifyingTemplates = DigestContextTemplates(.verify)

    /// Reads a DER SubjectPublicKeyInfo.
    public init(spki: [UInt8]) throws {
        // The fixed form OpenSSL writes for EC and EdDSA keys imports without its decoder (`RawPublicKey`).
        if let (algorithm, raw) = RawPublicKey.parse(spki),
           let key = try? RawPublicKey.load(raw, algorithm: algorithm, what: "SubjectPublicKeyInfo") {
            pkey = key
            self.algorithm = algorithm
            self.spki = spki
            return
        }
        var cursor: UnsafePointer<UInt8>? = nil
        let context = try DeterministicRandomness.shared().libraryContext
        let key = spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            cursor = buffer.baseAddress
            let parsed = d2i_PUBKEY_ex(nil, &cursor, buffer.count, context, nil)
            if parsed != nil && cursor != buffer.baseAddress.map({ $0 + buffer.count }) {
                EVP_PKEY_free(parsed)
                return nil
            }
            return parsed
        }
        let parsed = try check(key, "d2i_PUBKEY")
        do {
            algorithm = try PublicKey.algorithm(of: parsed)
        } catch {
            EVP_PKEY_free(parsed)  // a key OpenSSL reads but the harness does not use (DSA, X25519, another curve)
            throw error
        }
        pkey = parsed
        self.spki = spki
    }

    /// A key OpenSSL already holds, with the SPKI it encodes to.
    private init(pkey: OpaquePointer, algorithm: KeyAlgorithm, spki: [UInt8]) {
        self.pkey = pkey
        self.algorithm = algorithm
        self.spki = spki
    }

    /// The public half of the private key `pkey`. With `generatedPublicKey` (the raw public key of a key this
    /// process generated), an EC or EdDSA key's SPKI is the fixed form of that key (`RawPublicKey`), over the same
    /// EVP_PKEY, shared: OpenSSL's keys are safe to use from several threads while nobody changes them, nothing does after
    /// generation, and verifying with a key that also holds the private half reads only the public half.
    /// Otherwise `i2d_PUBKEY` writes it, as it was read (a PEM key may have a compressed point or explicit
    /// parameters), and `d2i_PUBKEY` reads it back.
    static func publicHalf(of pkey: OpaquePointer, algorithm: KeyAlgorithm, generatedPublicKey: [UInt8]?) throws -> PublicKey {
        if let generatedPublicKey, let spki = RawPublicKey.spki(generatedPublicKey, algorithm: algorithm),
           EVP_PKEY_up_ref(pkey) == 1 {
            return PublicKey(pkey: pkey, algorithm: algorithm, spki: spki)
        }
        return try PublicKey(spki: spki(of: pkey))
    }

    /// An EC key from its uncompressed X9.63 point `04 || X || Y` (SEC 1 §2.3.3).
    public convenience init(x963 point: [UInt8], curve: ECCurve) throws {
        guard point.count == 1 + 2 * curve.coordinateSize, point.first == 0x04,
              let spki = RawPublicKey.spki(point, algorithm: .ec(curve)) else {
            throw AttestCryptoError.malformed(what: "X9.63 point", reason: "expected 04 || X || Y for \(curve.rawValue)")
        }
        // OpenSSL checks that the point lies on the curve.
        self.init(pkey: try RawPublicKey.load(point, algorithm: .ec(curve), what: "X9.63 point"), algorithm: .ec(curve), spki: spki)
    }

    /// An EC key from a compressed point (SEC 1 §2.3.3: 02 or 03, then X), as a COSE_Key with a boolean y gives it
    /// (RFC 9053 §7.1.1). OpenSSL decompresses it, refusing an X with no point on the curve; the key is then the
    /// uncompressed point's, so it equals the same key read any other way.
    public convenience init(compressedPoint point: [UInt8], curve: ECCurve) throws {
        guard point.count == 1 + curve.coordinateSize, point.first == 0x02 || point.first == 0x03 else {
            throw AttestCryptoError.malformed(what: "compressed point", reason: "expected 02 or 03 || X for \(curve.rawValue)")
        }
        let compressed = try RawPublicKey.load(point, algorithm: .ec(curve), what: "compressed point")
        defer { EVP_PKEY_free(compressed) }
        func coordinate(_ name: String) throws -> [UInt8] {
            var value: OpaquePointer?
            guard EVP_PKEY_get_bn_param(compressed, name, &value) == 1, let value else {
                throw AttestCryptoError.malformed(what: "compressed point", reason: AttestCryptoError.drainQueue().joined(separator: "; "))
            }
            defer { BN_free(value) }
            var bytes = [UInt8](repeating: 0, count: curve.coordinateSize)
            guard BN_bn2binpad(value, &bytes, Int32(bytes.count)) == Int32(bytes.count) else {
                throw AttestCryptoError.malformed(what: "compressed point", reason: "a coordinate longer than the curve's")
            }
            return bytes
        }
        try self.init(x963: [0x04] + coordinate(OSSL_PKEY_PARAM_EC_PUB_X) + coordinate(OSSL_PKEY_PARAM_EC_PUB_Y), curve: curve)
    }

    /// A `-----BEGIN PUBLIC KEY-----` PEM.
    public convenience init(pem: String) throws {
        guard let document = try PEMBlock.parseAll(pem).first, document.label == "PUBLIC KEY" else {
            throw AttestCryptoError.malformed(what: "public key PEM", reason: "no PUBLIC KEY block")
        }
        try self.init(spki: document.der)
    }

    /// An RSA key from its modulus and public exponent, unsigned big-endian (RFC 8017 §A.1.1, in an RFC 3279
    /// §2.3.1 SubjectPublicKeyInfo).
    public convenience init(rsaModulus modulus: [UInt8], exponent: [UInt8]) throws {
        let spki = DERElement.sequence([
            .sequence([.oid("1.2.840.113549.1.1.1"), .null]),
            .bitString(DERElement.sequence([.integer(unsignedBigEndian: modulus), .integer(unsignedBigEndian: exponent)]).serialized),
        ])
        try self.init(spki: spki.serialized)
    }

    deinit { EVP_PKEY_free(pkey) }

    static func spki(of pkey: OpaquePointer) throws -> [UInt8] {
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pkey, &der)
        guard length > 0, let der else { throw AttestCryptoError.fromQueue("i2d_PUBKEY") }
        defer { copenssl_free(der) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }

    static func algorithm(of pkey: OpaquePointer) throws -> KeyAlgorithm {
        if EVP_PKEY_is_a(pkey, "RSA") == 1 { return .rsa(bits: Int(EVP_PKEY_get_bits(pkey))) }
        if EVP_PKEY_is_a(pkey, "ED25519") == 1 { return .ed25519 }
        if EVP_PKEY_is_a(pkey, "ED448") == 1 { return .ed448 }
        guard EVP_PKEY_is_a(pkey, "EC") == 1 else { throw AttestCryptoError.unsupported("key type other than EC and RSA") }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        try check(EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, &name, name.count, &length),
                  "EVP_PKEY_get_utf8_string_param group")
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch group {
        case "prime256v1", "P-256": return .ec(.p256)
        case "secp384r1", "P-384": return .ec(.p384)
        case "secp521r1", "P-521": return .ec(.p521)
        default: throw AttestCryptoError.unsupported("EC group \(group)")
        }
    }

    /// The uncompressed X9.63 point `04 || X || Y` of an EC key (the BIT STRING content of its SPKI).
    public var x963Point: [UInt8] {
        get throws {
            guard case .ec(let curve) = algorithm else { throw AttestCryptoError.unsupported("X9.63 point of \(algorithm)") }
            var out = [UInt8](repeating: 0, count: 1 + 2 * curve.coordinateSize)
            var length = 0
            try check(EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, &out, out.count, &length),
                      "EVP_PKEY_get_octet_string_param pub")
            guard length == out.count, out[0] == 0x04 else {
                throw AttestCryptoError.malformed(what: "EC public key", reason: "not an uncompressed point")
            }
            return out
        }
    }

    /// The COSE_Key of an EC key (RFC 9053 §7.1.1): `{1: 2, 3: alg, -1: crv, -2: x, -3: y}`.
    public var coseKey: CBORValue {
        get throws {
            guard case .ec(let curve) = algorithm else { throw AttestCryptoError.unsupported("COSE key of \(algorithm)") }
            let point = try x963Point
            let size = curve.coordinateSize
            return .map([
                CBORMapEntry(.int(1), .int(2)),
                CBORMapEntry(.int(3), .int(curve.coseAlgorithm)),
                CBORMapEntry(.int(-1), .int(curve.coseCurve)),
                CBORMapEntry(.int(-2), .bytes(Array(point[1...size]))),
                CBORMapEntry(.int(-3), .bytes(Array(point[(size + 1)...]))),
            ])
        }
    }

    /// PEM `-----BEGIN PUBLIC KEY-----`.
    public var pem: String {
        // BIO_new fails only when memory is exhausted, where the harness cannot go on anyway.
        guard let bio = try? MemoryBIO() else { preconditionFailure("BIO_new: out of memory") }
        precondition(PEM_write_bio_PUBKEY(bio.pointer, pkey) == 1, "PEM_write_bio_PUBKEY")
        return String(decoding: bio.contents, as: UTF8.self)
    }

    /// Verifies an ECDSA (DER), RSASSA-PKCS1-v1_5 or (with no digest) EdDSA signature over `message`; false for
    /// any failure.
    public func verify(_ signature: [UInt8], for message: [UInt8], digest: HashAlgorithm?, padding: RSAPadding = .pkcs1v15) -> Bool {
        // A digest with an EdDSA key, none with another, or PSS with a non-RSA key is not the signature scheme of this
        // key: false, not OpenSSL's default digest or the padding ignored.
        guard algorithm.signs(digest: digest, padding: padding) else { return false }
        CryptoOperations.record("verify", algorithm)
        defer { AttestCryptoError.drainQueue() }
        guard let randomness = try? DeterministicRandomness.shared() else { return false }
        // A copy of a context initialised once for this key, digest and padding; EdDSA's initialised afresh.
        guard let md = try? verifyingTemplates.context(digest: digest, padding: padding, pkey: pkey, algorithm: algorithm,
                                                       libraryContext: randomness.libraryContext) else { return false }
        defer { EVP_MD_CTX_free(md) }
        return EVP_DigestVerify(md, signature, signature.count, message, message.count) == 1
    }

    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.spki == rhs.spki }
    public func hash(into hasher: inout Hasher) { hasher.combine(ExactBytes(spki)) }
}
