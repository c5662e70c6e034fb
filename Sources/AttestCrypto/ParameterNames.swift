internal import CAttestOpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// Names for `OSSL_PARAM`s. An `OSSL_PARAM` keeps a pointer to its name, and a Swift `String` passed to a C
/// function lives only for that call, so each name is copied once into memory that is never freed. The copies
/// are never written after initialization, which is why sharing them across threads is safe.
enum ParameterName {
    nonisolated(unsafe) static let kdfDigest = persistent(OSSL_KDF_PARAM_DIGEST)
    nonisolated(unsafe) static let kdfKey = persistent(OSSL_KDF_PARAM_KEY)
    nonisolated(unsafe) static let kdfSalt = persistent(OSSL_KDF_PARAM_SALT)
    nonisolated(unsafe) static let kdfInfo = persistent(OSSL_KDF_PARAM_INFO)
    nonisolated(unsafe) static let kdfMode = persistent(OSSL_KDF_PARAM_MODE)
    nonisolated(unsafe) static let groupName = persistent(OSSL_PKEY_PARAM_GROUP_NAME)
    nonisolated(unsafe) static let publicKey = persistent(OSSL_PKEY_PARAM_PUB_KEY)
    nonisolated(unsafe) static let testEntropy = persistent(OSSL_RAND_PARAM_TEST_ENTROPY)

    /// strdup fails only when memory is exhausted (at start-up, for a handful of constant names).
    private static func persistent(_ name: String) -> UnsafePointer<CChar> { UnsafePointer(strdup(name)!) }
}
