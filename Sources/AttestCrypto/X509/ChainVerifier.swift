internal import CAttestOpenSSL
import Foundation

/// Why OpenSSL rejected a chain: its `X509_V_ERR_*` code, message and the depth of the certificate at fault
/// (0 is the leaf).
public struct ChainVerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let code: Int32
    public let reason: String
    public let depth: Int32

    public var description: String { "error \(code) at depth \(depth): \(reason)" }

    // OpenSSL's codes for the failures the harness provokes on purpose.
    public static let certificateExpired = Int32(X509_V_ERR_CERT_HAS_EXPIRED)
    public static let certificateNotYetValid = Int32(X509_V_ERR_CERT_NOT_YET_VALID)
    public static let unableToGetIssuerLocally = Int32(X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY)
    public static let signatureFailure = Int32(X509_V_ERR_CERT_SIGNATURE_FAILURE)
    public static let invalidCA = Int32(X509_V_ERR_INVALID_CA)
    public static let keyUsageWithoutCertificateSigning = Int32(X509_V_ERR_KEYUSAGE_NO_CERTSIGN)
    public static let pathLengthExceeded = Int32(X509_V_ERR_PATH_LENGTH_EXCEEDED)
    public static let selfSignedLeaf = Int32(X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT)
}

/// RFC 5280 path validation by OpenSSL's `X509_verify_cert`, at an explicit time and against explicit trust
/// anchors only (never the system store), with OpenSSL's default flags, as `openssl verify -attime` runs it.
public struct ChainVerifier: Sendable {
    public var trustAnchors: [X509Certificate]
    /// Accept a path that ends at any anchor, self-signed or not (`X509_V_FLAG_PARTIAL_CHAIN`), as a relying party
    /// must when FIDO metadata names an intermediate as a model's attestation root. The anchor's own validity
    /// period is still checked.
    public var allowsIntermediateAnchors = false

    public init(trustAnchors: [X509Certificate], allowsIntermediateAnchors: Bool = false) {
        self.trustAnchors = trustAnchors
        self.allowsIntermediateAnchors = allowsIntermediateAnchors
    }

    /// Verifies `leaf` through `intermediates` (in any order, untrusted) to one of the anchors at `time`.
    ///
    /// `tolerating` lets OpenSSL carry on past the error codes it returns true for, as a verifier that skips
    /// those checks would; the first error it does not tolerate is thrown.
    /// - Throws: `ChainVerificationError` with OpenSSL's verdict, or `AttestCryptoError` when OpenSSL cannot start.
    public func verify(leaf: X509Certificate, intermediates: [X509Certificate], at time: Date,
                       tolerating: @escaping (Int32) -> Bool = { _ in false }) throws {
        try verify(leaf: leaf, intermediates: intermediates, at: time, toleratingAt: { code, _ in tolerating(code) })
    }

    /// As `verify(leaf:intermediates:at:tolerating:)`, where `toleratingAt` also learns which certificate OpenSSL
    /// faults: `leaf` or one of `intermediates` (the same object), or nil for a trust anchor or no certificate.
    public func verify(leaf: X509Certificate, intermediates: [X509Certificate], at time: Date,
                       toleratingAt: @escaping (_ code: Int32, _ certificate: X509Certificate?) -> Bool) throws {
        let store = try check(X509_STORE_new(), "X509_STORE_new")
        defer { X509_STORE_free(store) }
        for anchor in trustAnchors { try check(X509_STORE_add_cert(store, anchor.x509), "X509_STORE_add_cert") }
        let untrusted = try check(copenssl_sk_X509_new_null(), "sk_X509_new_null")
        defer { copenssl_sk_X509_free(untrusted) }
        for certificate in intermediates { _ = copenssl_sk_X509_push(untrusted, certificate.x509) }
        let context = try check(X509_STORE_CTX_new(), "X509_STORE_CTX_new")
        defer { X509_STORE_CTX_free(context) }
        try check(X509_STORE_CTX_init(context, store, leaf.x509, untrusted), "X509_STORE_CTX_init")
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(time.timeIntervalSince1970.rounded(.down)))
        if allowsIntermediateAnchors {
            X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(context), UInt(X509_V_FLAG_PARTIAL_CHAIN))
        }
        let submitted = ([leaf] + intermediates).map { (pointer: $0.x509, certificate: $0) }
        let tolerance = Tolerance { code, current in
            toleratingAt(code, submitted.first { $0.pointer == current }?.certificate)
        }
        X509_STORE_CTX_set_ex_data(context, 0, Unmanaged.passUnretained(tolerance).toOpaque())
        X509_STORE_CTX_set_verify_cb(context) { ok, context in
            if ok == 1 { return 1 }
            guard let context, let box = X509_STORE_CTX_get_ex_data(context, 0) else { return 0 }
            let tolerance = Unmanaged<Tolerance>.fromOpaque(box).takeUnretainedValue()
            return tolerance.tolerates(X509_STORE_CTX_get_error(context), X509_STORE_CTX_get_current_cert(context)) ? 1 : 0
        }
        let result = withExtendedLifetime((leaf, intermediates, trustAnchors, tolerance)) { X509_verify_cert(context) }
        AttestCryptoError.drainQueue()
        // For scripts/bench: each certificate of the built path but the anchor was verified with its issuer's key.
        if let chain = X509_STORE_CTX_get0_chain(context) {
            let count = copenssl_sk_X509_num(chain)
            for index in stride(from: 1, to: Int32(max(count, 1)), by: 1) {
                if let issuer = copenssl_sk_X509_value(chain, index), let key = X509_get0_pubkey(issuer),
                   let algorithm = try? PublicKey.algorithm(of: key) {
                    CryptoOperations.record("verify", algorithm)
                }
            }
        }
        if result != 1 {
            let code = X509_STORE_CTX_get_error(context)
            throw ChainVerificationError(
                code: code, reason: String(cString: X509_verify_cert_error_string(Int(code))),
                depth: X509_STORE_CTX_get_error_depth(context))
        }
    }
}

/// The verify callback's view of which OpenSSL errors to carry on past (passed through the context's app data).
private final class Tolerance {
    /// The error code and the certificate at fault (OpenSSL's pointer, nil when it names none).
    let tolerates: (Int32, OpaquePointer?) -> Bool
    init(_ tolerates: @escaping (Int32, OpaquePointer?) -> Bool) { self.tolerates = tolerates }
}
