internal import CAttestOpenSSL
import Foundation

/// Makes OpenSSL's own key generation and ECDSA signing reproducible.
///
/// OpenSSL 3.0 has no deterministic ECDSA (RFC 6979 arrived in 3.2) and no key derivation from a seed. Every key
/// of this module therefore lives in one private library context whose DRBGs are OpenSSL's `TEST-RAND`, and
/// before each operation that draws randomness we load those DRBGs with a keystream derived from what the
/// operation must depend on: (seed, label) for key derivation, (private key, message) for signing. OpenSSL
/// still does all the arithmetic; only the source of its random bytes is ours. Keys from `generate` are fed
/// from the system generator, so they are as random as usual.
///
/// OpenSSL 3.0's public and private DRBGs are per thread; the lock keeps each load and its use together.
///
/// `@unchecked Sendable`: the context pointer never changes, and every use of its DRBGs holds `lock`.
final class DeterministicRandomness: @unchecked Sendable {
    /// The one context, or why OpenSSL could not make it (an OpenSSL built without the TEST-RAND DRBG).
    private static let made: Result<DeterministicRandomness, AttestCryptoError> = {
        guard let context = OSSL_LIB_CTX_new() else {
            return .failure(.openSSL(operation: "OSSL_LIB_CTX_new", reasons: AttestCryptoError.drainQueue()))
        }
        guard RAND_set_DRBG_type(context, "TEST-RAND", nil, nil, nil) == 1 else {
            let reasons = AttestCryptoError.drainQueue()
            OSSL_LIB_CTX_free(context)
            return .failure(.unsupported("this OpenSSL has no TEST-RAND DRBG, which deterministic forging needs "
                                         + "(\(reasons.joined(separator: "; ")))"))
        }
        return .success(DeterministicRandomness(context))
    }()

    /// The shared context; throws when this OpenSSL cannot provide it.
    static func shared() throws -> DeterministicRandomness { try made.get() }

    let libraryContext: OpaquePointer
    private let lock = NSLock()

    private init(_ context: OpaquePointer) { libraryContext = context }

    /// Runs `body` with the context's DRBGs loaded with `entropy`; `body` fails if it draws more.
    func withEntropy<T>(_ entropy: [UInt8], _ body: (OpaquePointer) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        for drbg in [RAND_get0_public(libraryContext), RAND_get0_private(libraryContext)] {
            let loaded = entropy.withUnsafeBufferPointer { buffer -> Int32 in
                var params = [
                    OSSL_PARAM_construct_octet_string(
                        ParameterName.testEntropy, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                        buffer.count),
                    OSSL_PARAM_construct_end(),
                ]
                return EVP_RAND_CTX_set_params(drbg, &params)
            }
            try check(loaded, "loading TEST-RAND entropy")
        }
        return try body(libraryContext)
    }

    /// The salt of every keystream's HKDF.
    static let streamSalt = Array("attest-harness".utf8)

    /// `count` bytes of AES-256-CTR keystream under HKDF-SHA256(secret, salt: `streamSalt`, info: `label`), from
    /// HKDF's extract step already taken: `pseudorandomKey` is `hkdfSHA256Extract(secret:salt: streamSalt)`, and
    /// RFC 5869 §2 defines HKDF as that extract followed by the expand done here (OpenSSL does both steps, by the
    /// KDF's mode parameter). Callers take the extract once per secret (a derivation seed, a signing key).
    static func stream(pseudorandomKey: [UInt8], label: String, count: Int) throws -> [UInt8] {
        try stream(key: try hkdfSHA256(secret: pseudorandomKey, salt: [], info: Array(label.utf8), count: 32, mode: "EXPAND_ONLY"),
                   count: count)
    }

    private static func stream(key: [UInt8], count: Int) throws -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { throw AttestCryptoError.fromQueue("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        let iv = [UInt8](repeating: 0, count: 16)
        try check(EVP_EncryptInit_ex2(context, try Fetched.aes256CTR.get(), key, iv, nil), "EVP_EncryptInit_ex2")
        let zeros = [UInt8](repeating: 0, count: count)
        var out = [UInt8](repeating: 0, count: count + 16)
        var written: Int32 = 0
        try check(EVP_EncryptUpdate(context, &out, &written, zeros, Int32(count)), "EVP_EncryptUpdate")
        out.removeLast(16)
        return out
    }
}

/// Algorithms fetched once and kept for the life of the process: from the default library context, except the AES
/// ciphers, fetched in the private one their keys live in (`DeterministicRandomness.libraryContext`).
///
/// Sound to share: a fetched algorithm is an immutable, reference-counted description of an implementation (which
/// provider, which functions), the same object every fetch of the same name in the same context would return; using
/// it from many threads at once is what OpenSSL's fetch cache does itself. Fetching it per call (or passing the legacy
/// `EVP_aes_256_ctr()`, which OpenSSL 3 turns into a fetch on every init) only repeated a locked name-map look-up.
enum Fetched {
    /// HKDF, for `hkdfSHA256`.
    nonisolated(unsafe) static let hkdf: Result<OpaquePointer, AttestCryptoError> = {
        guard let kdf = EVP_KDF_fetch(nil, "HKDF", nil) else { return .failure(.fromQueue("EVP_KDF_fetch HKDF")) }
        return .success(kdf)
    }()

    /// The digests of `HashAlgorithm`, for `EVP_Digest` (the legacy `EVP_sha256()` is fetched again on every call).
    nonisolated(unsafe) static let digests: [HashAlgorithm: OpaquePointer] = {
        var digests: [HashAlgorithm: OpaquePointer] = [:]
        for algorithm in HashAlgorithm.allCases {
            digests[algorithm] = EVP_MD_fetch(nil, algorithm.rawValue, nil)
        }
        // A failed fetch leaves its reason queued; the legacy handle stands in (`HashAlgorithm.evp`).
        if digests.count < HashAlgorithm.allCases.count { AttestCryptoError.drainQueue() }
        return digests
    }()

    /// The AES ciphers of `AESCipher`, fetched in the library context its keys live in.
    nonisolated(unsafe) static let aesCiphers: Result<[String: OpaquePointer], AttestCryptoError> = {
        Result {
            let context = try DeterministicRandomness.shared().libraryContext
            var ciphers: [String: OpaquePointer] = [:]
            for name in ["AES-256-WRAP", "AES-256-GCM"] {
                guard let cipher = EVP_CIPHER_fetch(context, name, nil) else { throw AttestCryptoError.fromQueue("EVP_CIPHER_fetch \(name)") }
                ciphers[name] = cipher
            }
            return ciphers
        }.mapError { $0 as? AttestCryptoError ?? .fromQueue("EVP_CIPHER_fetch") }
    }()

    /// Per NIST curve, a parameters-only EC key in the library context keys are generated in
    /// (`DeterministicRandomness.libraryContext`): generating from it copies its group, where generating from the
    /// curve's name builds the group anew for every key (about half of a P-256 key generation's time). The same
    /// group and the same random bytes make the same key. Immutable once made, like a fetched algorithm.
    nonisolated(unsafe) static let ecParameters: Result<[ECCurve: OpaquePointer], AttestCryptoError> = {
        Result {
            let context = try DeterministicRandomness.shared().libraryContext
            var parameters: [ECCurve: OpaquePointer] = [:]
            for curve in ECCurve.allCases {
                let ctx = try check(EVP_PKEY_CTX_new_from_name(context, "EC", nil), "EVP_PKEY_CTX_new_from_name")
                defer { EVP_PKEY_CTX_free(ctx) }
                try check(EVP_PKEY_paramgen_init(ctx), "EVP_PKEY_paramgen_init")
                try check(EVP_PKEY_CTX_set_group_name(ctx, curve.rawValue), "EVP_PKEY_CTX_set_group_name")
                var key: OpaquePointer?
                try check(EVP_PKEY_paramgen(ctx, &key), "EVP_PKEY_paramgen")
                parameters[curve] = try check(key, "EVP_PKEY_paramgen")
            }
            return parameters
        }.mapError { $0 as? AttestCryptoError ?? .fromQueue("EVP_PKEY_paramgen") }
    }()

    /// AES-256-CTR, for the keystreams of `DeterministicRandomness.stream`.
    nonisolated(unsafe) static let aes256CTR: Result<OpaquePointer, AttestCryptoError> = {
        guard let cipher = EVP_CIPHER_fetch(nil, "AES-256-CTR", nil) else {
            return .failure(.fromQueue("EVP_CIPHER_fetch AES-256-CTR"))
        }
        return .success(cipher)
    }()
}

/// HKDF (RFC 5869) with SHA-256, from OpenSSL's KDF provider.
public func hkdfSHA256(secret: [UInt8], salt: [UInt8], info: [UInt8], count: Int) throws -> [UInt8] {
    try hkdfSHA256(secret: secret, salt: salt, info: info, count: count, mode: nil)
}

/// HKDF-Expand (RFC 5869 §2.3) with SHA-256 from a pseudorandom key `hkdfSHA256Extract` made: with it,
/// `hkdfSHA256(secret:salt:info:count:)` in two steps, for a caller that expands many labels under one secret and
/// salt (the same bytes, without extracting again for every label).
public func hkdfSHA256Expand(pseudorandomKey: [UInt8], info: [UInt8], count: Int) throws -> [UInt8] {
    try hkdfSHA256(secret: pseudorandomKey, salt: [], info: info, count: count, mode: "EXPAND_ONLY")
}

/// HKDF-Extract (RFC 5869 §2.2) with SHA-256: the 32-byte pseudorandom key that HKDF expands.
public func hkdfSHA256Extract(secret: [UInt8], salt: [UInt8]) throws -> [UInt8] {
    try hkdfSHA256(secret: secret, salt: salt, info: [], count: 32, mode: "EXTRACT_ONLY")
}

/// OpenSSL's HKDF in `mode` (nil: extract then expand; "EXTRACT_ONLY"; "EXPAND_ONLY", whose `secret` is the
/// pseudorandom key and which takes no salt).
func hkdfSHA256(secret: [UInt8], salt: [UInt8], info: [UInt8], count: Int, mode: String?) throws -> [UInt8] {
    // A fresh context per call: OpenSSL 3.0's HKDF cannot be copied (EVP_KDF_CTX_dup fails), so the digest is set by
    // name each time; only the fetch of HKDF itself is kept (`Fetched.hkdf`).
    guard let context = EVP_KDF_CTX_new(try Fetched.hkdf.get()) else { throw AttestCryptoError.fromQueue("EVP_KDF_CTX_new") }
    defer { EVP_KDF_CTX_free(context) }
    var out = [UInt8](repeating: 0, count: count)
    var digest = Array("SHA256".utf8CString)
    var modeName = Array((mode ?? "EXTRACT_AND_EXPAND").utf8CString)
    var (secretCopy, saltCopy, infoCopy) = (secret, salt, info)
    let result = digest.withUnsafeMutableBufferPointer { digestName in
        modeName.withUnsafeMutableBufferPointer { modeText in
            secretCopy.withUnsafeMutableBytes { secretBytes in
                saltCopy.withUnsafeMutableBytes { saltBytes in
                    infoCopy.withUnsafeMutableBytes { infoBytes in
                        var params = [
                            OSSL_PARAM_construct_utf8_string(ParameterName.kdfDigest, digestName.baseAddress, 0),
                            OSSL_PARAM_construct_utf8_string(ParameterName.kdfMode, modeText.baseAddress, 0),
                            OSSL_PARAM_construct_octet_string(ParameterName.kdfKey, secretBytes.baseAddress, secret.count),
                        ] + (mode == "EXPAND_ONLY" ? [] : [
                            OSSL_PARAM_construct_octet_string(ParameterName.kdfSalt, saltBytes.baseAddress, salt.count),
                        ]) + [
                            OSSL_PARAM_construct_octet_string(ParameterName.kdfInfo, infoBytes.baseAddress, info.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        return EVP_KDF_derive(context, &out, count, &params)
                    }
                }
            }
        }
    }
    try check(result, "EVP_KDF_derive HKDF")
    return out
}
