import AttestConformance
import AttestEvidence


/// Rules on certificate chains, shared by every family that carries one.
public enum ChainRules {
    public static let all: [Rule] = [
        Rule(.chainTrustAnchor,
             "The chain links by name and signature to one of the configured trust anchors, not to a look-alike.",
             source: "RFC 5280 §6.1 (basic path validation)", bugClass: .trust,
             references: ["GHSA-6hxq-p678-4hr2 (SimpleWebAuthn)", "fido2-net-lib PR #671",
                          "py_webauthn PR #240 (android-key root not pinned)"]),
        Rule(.chainValidity, "Every certificate in the chain is within its validity period at verification time.",
             source: "RFC 5280 §6.1.3 (a)(2)", bugClass: .trust,
             references: ["py_webauthn #106, #244 (expired fixtures, mocked clock)"]),
        Rule(.chainBasicConstraints, "Every issuing certificate is a CA (basicConstraints cA TRUE, keyCertSign).",
             source: "RFC 5280 §6.1.4 (k), §4.2.1.9", bugClass: .trust,
             references: ["LanternOps/breeze PR #4969", "go-webauthn PR #725"]),
    ]

    /// Revocation, for families whose issuer publishes a status list (Android).
    public static let revocation: [Rule] = [
        Rule(.chainRevoked, "No certificate of the chain, root included, is REVOKED in the attestation status list.",
             source: "Android, Verifying hardware-backed key pairs with key attestation (certificate revocation status list); protocols.md §2.10",
             bugClass: .trust, references: ["LanternOps/breeze issue #4972", "SimpleWebAuthn #647"]),
        Rule(.chainSuspended, "No certificate of the chain is SUSPENDED in the attestation status list.",
             source: "protocols.md §2.10 (android/keyattestation ignores SUSPENDED entries)", bugClass: .trust),
    ]
}
