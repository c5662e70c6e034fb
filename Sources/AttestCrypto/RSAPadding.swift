internal import CAttestOpenSSL

/// How an RSA signature is padded: RSASSA-PKCS1-v1_5 (RFC 8017 §8.2; COSE RS256, RS384, RS512, RS1) or
/// RSASSA-PSS (RFC 8017 §8.1) with MGF1 over the message digest and a salt as long as that digest, as COSE PS256,
/// PS384 and PS512 require (RFC 8230 §2). Ignored for EC and EdDSA keys.
public enum RSAPadding: Hashable, Sendable {
    case pkcs1v15
    case pss

    /// Sets PSS padding with a digest-length salt on a signing or verifying context; 1 on success.
    static func configurePSS(_ context: OpaquePointer?) -> Int32 {
        guard let context, EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING) == 1 else { return 0 }
        return EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST)
    }
}
