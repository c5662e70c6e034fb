internal import CAttestOpenSSL
import AttestCBOR
import AttestDER
import Foundation

/// A private key held by OpenSSL (EVP_PKEY): EC, RSA, Ed25519 or Ed448.
///
/// Signatures are deterministic: the same key and message always give the same bytes (see
/// `DeterministicRandomness`), which keeps forged evidence and vectors reproducible from a seed.
public final class PrivateKey: @unchecked Sendable {
    let pkey: OpaquePointer
    public let algorithm: KeyAlgorithm
    /// HKDF's extract step over the secret the per-signature randomness is derived from (a hash of the private key),
    /// taken once: every signature expands it with its own label (`DeterministicRandomness.stream(pseudorandomKey:
    /// label:count:)`, the same bytes as a whole HKDF from the secret).
    private let signingPseudorandomKey: [UInt8]
    /// Guards `cachedPublicKey`, which this otherwise immutable object fills in on first use.
    private let cacheLock = NSLock()
    /// The public half, made on first use of `publicKey`. Sound to keep: `pkey` never changes after init, so its
    /// public key never does either.
    private var cachedPublicKey: PublicKey?
    /// The raw public key (`RawPublicKey.raw`) of an EC or EdDSA key this process generated (`generate`, `derive`),
    /// read once: a named curve, the public key included, an uncompressed point, so its encodings are written from
    /// its parameters (`typeSpecificDER`, `publicKey`). Nil for RSA keys and keys loaded from PEM, which may have been
    /// written otherwise (no public key, explicit parameters, another version) and are encoded by OpenSSL, which
    /// writes back what it read.
    private let generatedPublicKey: [UInt8]?
    /// Signing contexts initialised once per (digest, padding) and copied for each signature (see `sign`).
    private let signingTemplates = DigestContextTemplates(.sign)

    /// Takes ownership of `pkey`: it is freed with the key, or here when this throws (before every property is set,
    /// so no deinit runs).
    private init(pkey: OpaquePointer, algorithm: KeyAlgorithm, generatedHere: Bool) throws {
        self.pkey = pkey
        self.algorithm = algorithm
        let generatedPublicKey = generatedHere ? RawPublicKey.raw(of: pkey, algorithm: algorithm) : nil
        self.generatedPublicKey = generatedPublicKey
        do {
            let signingSecret = sha256(try PrivateKey.typeSpecificDER(of: pkey, algorithm: algorithm, generatedPublicKey: generatedPublicKey))
            signingPseudorandomKey = try hkdfSHA256Extract(secret: signingSecret, salt: DeterministicRandomness.streamSalt)
        } catch {
            EVP_PKEY_free(pkey)
            throw error
        }
    }

    /// The DER `i2d_PrivateKey` writes for this key: an RFC 5915 ECPrivateKey (with the named curve and the public
    /// key) for EC keys, an RFC 8410 PKCS#8 OneAsymmetricKey for EdDSA keys, an RFC 8017 RSAPrivateKey for RSA keys.
    /// The signing randomness is derived from its hash, so these bytes fix every signature the key makes.
    public var typeSpecificDER: [UInt8] {
        get throws { try PrivateKey.typeSpecificDER(of: pkey, algorithm: algorithm, generatedPublicKey: generatedPublicKey) }
    }

    /// The EC and EdDSA keys this process generated are written from their parameters, not with OpenSSL 3's
    /// encoder, whose lookup costs more than generating a P-256 key; `KeyTests` checks the bytes against the
    /// `openssl` command line's. RSA keys, keys loaded from PEM, and any key whose parameters do not read as
    /// expected go through `i2d_PrivateKey`.
    private static func typeSpecificDER(of pkey: OpaquePointer, algorithm: KeyAlgorithm, generatedPublicKey: [UInt8]?) throws -> [UInt8] {
        if let generatedPublicKey, let encoded = writtenFromParameters(pkey, algorithm, publicKey: generatedPublicKey) { return encoded }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_PrivateKey(pkey, &der)
        guard length > 0, let der else { throw AttestCryptoError.fromQueue("i2d_PrivateKey") }
        defer { copenssl_free(der) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }

    private static func writtenFromParameters(_ pkey: OpaquePointer, _ algorithm: KeyAlgorithm, publicKey: [UInt8]) -> [UInt8]? {
        switch algorithm {
        case .ec(let curve):
            // ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING (the scalar, as long as the order),
            //                             [0] parameters (namedCurve), [1] publicKey BIT STRING }
            var scalar: OpaquePointer?
            guard EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) == 1, let scalar else {
                _ = AttestCryptoError.drainQueue()
                return nil
            }
            defer { BN_clear_free(scalar) }
            var privateKey = [UInt8](repeating: 0, count: curve.coordinateSize)
            guard BN_bn2binpad(scalar, &privateKey, Int32(privateKey.count)) == Int32(privateKey.count) else { return nil }
            return DERElement.sequence([
                .integer(1), .octetString(privateKey),
                .explicit(0, .oid(DERObjectIdentifier(stringLiteral: curve.namedCurve))), .explicit(1, .bitString(publicKey)),
            ]).serialized
        case .ed25519, .ed448:
            // OneAsymmetricKey ::= SEQUENCE { version 0, AlgorithmIdentifier, privateKey OCTET STRING { CurvePrivateKey } }
            guard let (identifier, length) = RawPublicKey.form(of: algorithm) else { return nil }
            var privateKey = [UInt8](repeating: 0, count: length)
            var written = 0
            guard EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &privateKey, length, &written) == 1,
                  written == length else {
                _ = AttestCryptoError.drainQueue()
                return nil
            }
            return DERElement.sequence([
                .integer(0), identifier, .octetString(DERElement.octetString(privateKey).serialized),
            ]).serialized
        case .rsa:
            return nil
        }
    }

    deinit {
        EVP_PKEY_free(pkey)
    }

    /// A fresh key from the system's random generator.
    public static func generate(_ algorithm: KeyAlgorithm) throws -> PrivateKey {
        try generate(algorithm, entropy: secureRandomBytes(entropyNeeded(algorithm)))
    }

    /// The key that (`seed`, `label`) always derives: same inputs, same key, on every machine.
    public static func derive(_ algorithm: KeyAlgorithm, seed: [UInt8], label: String) throws -> PrivateKey {
        precondition(!seed.isEmpty, "a derivation seed must not be empty")
        let label = "key \(algorithm) \(label)"
        // HKDF's extract step depends on the seed alone: taken once per seed, then expanded per key (the same bytes as
        // the whole HKDF, `DeterministicRandomness.stream(pseudorandomKey:label:count:)`).
        let pseudorandomKey = try derivationKeys.value(for: ExactBytes(seed)) {
            try hkdfSHA256Extract(secret: seed, salt: DeterministicRandomness.streamSalt)
        }
        // An EC or EdDSA key draws a few dozen bytes. A first try with 256 reads the same leading bytes of the same
        // keystream as the full one would, so it makes the same key; a key that needs more fails that try (TEST-RAND
        // refuses to draw past its entropy) and is made again from the full stream.
        if algorithm.curve != nil || algorithm == .ed25519 || algorithm == .ed448,
           let key = try? generate(algorithm, entropy: DeterministicRandomness.stream(pseudorandomKey: pseudorandomKey, label: label, count: 256)) {
            return key
        }
        _ = AttestCryptoError.drainQueue()
        return try generate(algorithm, entropy: DeterministicRandomness.stream(pseudorandomKey: pseudorandomKey, label: label,
                                                                             count: entropyNeeded(algorithm)))
    }

    /// HKDF's pseudorandom key of each derivation seed `derive` was given (a few per run, 32 bytes each).
    private static let derivationKeys = Memo<ExactBytes, [UInt8]>(capacity: 1024, size: { seed, _ in seed.count + 32 })

    /// Prime searches for RSA draw far more random bytes than an EC scalar does.
    private static func entropyNeeded(_ algorithm: KeyAlgorithm) -> Int {
        if case .rsa(let bits) = algorithm { return bits * 256 }
        return 4096
    }

    private static func generate(_ algorithm: KeyAlgorithm, entropy: [UInt8]) throws -> PrivateKey {
        let pkey = try DeterministicRandomness.shared().withEntropy(entropy) { context -> OpaquePointer in
            // An EC key is generated from its curve's parameters key (`Fetched.ecParameters`), others by name.
            let ctx = try check(algorithm.curve.flatMap { try? Fetched.ecParameters.get()[$0] }
                .map { EVP_PKEY_CTX_new_from_pkey(context, $0, nil) } ?? EVP_PKEY_CTX_new_from_name(context, algorithm.openSSLName, nil),
                "EVP_PKEY_CTX_new")
            defer { EVP_PKEY_CTX_free(ctx) }
            try check(EVP_PKEY_keygen_init(ctx), "EVP_PKEY_keygen_init")
            switch algorithm {
            case .ec:
                break
            case .rsa(let bits):
                try check(EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)), "EVP_PKEY_CTX_set_rsa_keygen_bits")
            case .ed25519, .ed448:
                break
            }
            var key: OpaquePointer?
            // An RSA prime search takes as long as its seed makes it (a deterministic key's time varies tenfold
            // between seeds): scripts/bench prices these keys at the CPU time OpenSSL's search took on this thread,
            // in microseconds (not wall time, which would count whatever else ran on the machine meanwhile). The thread's
            // CPU clock is a system call: read only for RSA.
            let start: Int? = if case .rsa = algorithm { CryptoOperations.threadCPUMicroseconds() } else { nil }
            try check(EVP_PKEY_generate(ctx, &key), "EVP_PKEY_generate")
            if let start {
                CryptoOperations.record("keygen-us", algorithm, amount: CryptoOperations.threadCPUMicroseconds() - start)
            }
            return try check(key, "EVP_PKEY_generate")
        }
        let key = try PrivateKey(pkey: pkey, algorithm: algorithm, generatedHere: true)
        CryptoOperations.record("keygen", algorithm)  // counted once made: a try `derive` retries is not a key
        return key
    }

    /// Loads a PKCS#8 (`PRIVATE KEY`) or traditional (`EC PRIVATE KEY`, `RSA PRIVATE KEY`) PEM.
    public convenience init(pem: String) throws {
        let bio = try MemoryBIO(Array(pem.utf8))
        let key = PEM_read_bio_PrivateKey_ex(bio.pointer, nil, nil, nil, (try DeterministicRandomness.shared()).libraryContext, nil)
        let pkey = try check(key, "PEM_read_bio_PrivateKey")
        let algorithm: KeyAlgorithm
        do {
            algorithm = try PublicKey.algorithm(of: pkey)
        } catch {
            EVP_PKEY_free(pkey)  // a key type the harness does not use (DSA, X25519, another curve)
            throw error
        }
        try self.init(pkey: pkey, algorithm: algorithm, generatedHere: false)
    }

    /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var pem: String {
        // BIO_new fails only when memory is exhausted, where the harness cannot go on anyway.
        guard let bio = try? MemoryBIO() else { preconditionFailure("BIO_new: out of memory") }
        precondition(PEM_write_bio_PrivateKey(bio.pointer, pkey, nil, nil, 0, nil, nil) == 1, "PEM_write_bio_PrivateKey")
        return String(decoding: bio.contents, as: UTF8.self)
    }

    public var publicKey: PublicKey {
        cacheLock.withLock {
            if let cachedPublicKey { return cachedPublicKey }
            let made = derivePublicKey()
            cachedPublicKey = made
            return made
        }
    }

    private func derivePublicKey() -> PublicKey {
        // The public half of a key OpenSSL generated or loaded always reads: a generated EC or EdDSA key shares its
        // EVP_PKEY, any other goes through i2d_PUBKEY and d2i_PUBKEY.
        guard let key = try? PublicKey.publicHalf(of: pkey, algorithm: algorithm, generatedPublicKey: generatedPublicKey) else {
            preconditionFailure("the public half of a key OpenSSL holds does not load")
        }
        return key
    }

    /// Signs `message`: ECDSA with a DER `Ecdsa-Sig-Value` for EC keys (RFC 3279 §2.2.3), RSASSA-PKCS1-v1_5
    /// (RFC 8017 §8.2) or, with `padding: .pss`, RSASSA-PSS (RFC 8017 §8.1) for RSA keys. `digest` hashes the message first, as ES256 and friends require; EdDSA keys
    /// sign the message itself and take no digest (RFC 8032 §5.1.6).
    /// A digest with an EdDSA key, none with another, or PSS with a non-RSA key throws `.unsupported`: each would
    /// otherwise be some other signature than the one asked for (OpenSSL's default digest, padding ignored).
    public func sign(_ message: [UInt8], digest: HashAlgorithm?, padding: RSAPadding = .pkcs1v15) throws -> [UInt8] {
        guard algorithm.signs(digest: digest, padding: padding) else {
            throw AttestCryptoError.unsupported("signing with \(algorithm), digest \(digest?.rawValue ?? "none"), padding \(padding)")
        }
        CryptoOperations.record("sign", algorithm)
        // RSA blinding draws fresh random numbers the size of the modulus; ECDSA one nonce, which OpenSSL 3.0 makes
        // from 64 random bytes a try (BN_generate_dsa_nonce; a second try is needed about once in 2^32 for P-256):
        // 256 bytes, of which it reads the same leading bytes as it did of a longer stream.
        let entropyCount = if case .rsa(let bits) = algorithm { bits * 4 } else { 256 }
        let entropy = try DeterministicRandomness.stream(
            pseudorandomKey: signingPseudorandomKey, label: "sign \(digest?.rawValue ?? "none") " + hex(sha256(message)),
            count: entropyCount)
        return try DeterministicRandomness.shared().withEntropy(entropy) { context in
            // A copy of a context initialised once for this key, digest and padding (EdDSA: initialised afresh), the
            // state EVP_DigestSignInit_ex would build without fetching the algorithms again. Randomness is drawn when
            // it signs, from the DRBGs `withEntropy` has loaded.
            let md = try signingTemplates.context(digest: digest, padding: padding, pkey: pkey, algorithm: algorithm,
                                                  libraryContext: context)
            defer { EVP_MD_CTX_free(md) }
            // The key's largest signature (EVP_PKEY_get_size) is room enough for any it makes: one call signs.
            var length = Int(EVP_PKEY_get_size(pkey))
            guard length > 0 else { throw AttestCryptoError.fromQueue("EVP_PKEY_get_size") }
            var signature = [UInt8](repeating: 0, count: length)
            try check(EVP_DigestSign(md, &signature, &length, message, message.count), "EVP_DigestSign")
            guard length <= signature.count else { throw AttestCryptoError.fromQueue("EVP_DigestSign") }
            signature.removeSubrange(length...)
            return signature
        }
    }
}

/// An OpenSSL memory BIO, freed with its owner.
final class MemoryBIO {
    let pointer: OpaquePointer

    init(_ bytes: [UInt8] = []) throws {
        pointer = try check(BIO_new(BIO_s_mem()), "BIO_new")
        if !bytes.isEmpty { precondition(BIO_write(pointer, bytes, Int32(bytes.count)) == Int32(bytes.count)) }
    }

    deinit { BIO_free(pointer) }

    var contents: [UInt8] {
        var data: UnsafeMutablePointer<CChar>?
        let length = copenssl_BIO_get_mem_data(pointer, &data)
        guard length > 0, let data else { return [] }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }
}
