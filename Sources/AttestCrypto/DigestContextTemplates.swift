internal import CAttestOpenSSL
import Foundation

/// One key's digest-signing or digest-verifying contexts, each initialised once per (digest, padding) and copied for
/// every signature made or checked (`PrivateKey.sign`, `PublicKey.verify`).
///
/// `EVP_DigestSignInit_ex` and `EVP_DigestVerifyInit_ex` fetch the signature and digest algorithms by name and build
/// the provider's context; `EVP_MD_CTX_copy_ex` of a context that did so gives the same state. A template is keyed by
/// everything its init was given: the key (one set of templates per key object), the operation (one set per
/// `Operation`), the digest and padding (`Setup`), and the library context (`DeterministicRandomness.libraryContext`,
/// the only one either caller uses). It is only ever read, by the copy, after it is stored.
///
/// Only digest signatures have templates: EdDSA signs and verifies the message itself in one call (no digest), so
/// its context is initialised afresh each time, by the same code.
final class DigestContextTemplates: @unchecked Sendable {
    enum Operation {
        case sign, verify
    }

    struct Setup: Hashable {
        let digest: HashAlgorithm
        let padding: RSAPadding
    }

    private let operation: Operation
    private let lock = NSLock()
    private var templates: [Setup: OpaquePointer] = [:]

    init(_ operation: Operation) { self.operation = operation }

    deinit {
        for template in templates.values { EVP_MD_CTX_free(template) }
    }

    /// A new context over `pkey` in `libraryContext` for `digest` and `padding` (an RSA key with `.pss` gets PSS with a
    /// digest-length salt; the padding is ignored for other keys), copied from the template for them; with no digest
    /// (EdDSA), initialised afresh. The caller owns and frees it; it is marked to be used once
    /// (`EVP_MD_CTX_FLAG_FINALISE`), so the final call does not duplicate it first.
    func context(digest: HashAlgorithm?, padding: RSAPadding, pkey: OpaquePointer, algorithm: KeyAlgorithm,
                 libraryContext: OpaquePointer) throws -> OpaquePointer {
        guard let digest else {
            return try initialised(digest: nil, padding: padding, pkey: pkey, algorithm: algorithm, libraryContext: libraryContext)
        }
        let template = try self.template(Setup(digest: digest, padding: padding), pkey: pkey, algorithm: algorithm,
                                         libraryContext: libraryContext)
        guard let md = EVP_MD_CTX_new() else { throw AttestCryptoError.fromQueue("EVP_MD_CTX_new") }
        guard EVP_MD_CTX_copy_ex(md, template) == 1 else {
            EVP_MD_CTX_free(md)
            throw AttestCryptoError.fromQueue("EVP_MD_CTX_copy_ex")
        }
        EVP_MD_CTX_set_flags(md, EVP_MD_CTX_FLAG_FINALISE)
        return md
    }

    private func template(_ setup: Setup, pkey: OpaquePointer, algorithm: KeyAlgorithm, libraryContext: OpaquePointer) throws -> OpaquePointer {
        try lock.withLock {
            if let template = templates[setup] { return template }
            let md = try initialised(digest: setup.digest, padding: setup.padding, pkey: pkey, algorithm: algorithm,
                                     libraryContext: libraryContext)
            templates[setup] = md
            return md
        }
    }

    /// A context `EVP_DigestSignInit_ex` or `EVP_DigestVerifyInit_ex` initialised, with PSS set when asked of an RSA
    /// key; the caller owns it.
    private func initialised(digest: HashAlgorithm?, padding: RSAPadding, pkey: OpaquePointer, algorithm: KeyAlgorithm,
                             libraryContext: OpaquePointer) throws -> OpaquePointer {
        guard let md = EVP_MD_CTX_new() else { throw AttestCryptoError.fromQueue("EVP_MD_CTX_new") }
        var keyContext: OpaquePointer?
        do {
            switch operation {
            case .sign:
                try check(EVP_DigestSignInit_ex(md, &keyContext, digest?.rawValue, libraryContext, nil, pkey, nil),
                          "EVP_DigestSignInit_ex")
            case .verify:
                try check(EVP_DigestVerifyInit_ex(md, &keyContext, digest?.rawValue, libraryContext, nil, pkey, nil),
                          "EVP_DigestVerifyInit_ex")
            }
            if padding == .pss, case .rsa = algorithm {
                try check(RSAPadding.configurePSS(keyContext), "EVP_PKEY_CTX_set_rsa_padding PSS")
            }
        } catch {
            EVP_MD_CTX_free(md)
            throw error
        }
        return md
    }
}
