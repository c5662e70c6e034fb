import AttestConformance
import AttestEvidence


/// Rules on certificate chains, shared by every family that carries one.
public enum ChainRules {
    public static let all: [Rule] = [
        Rule(.chainTrustAnchor,
             "The chain links by name and signature to one of the configured trust anchors, not to a look-alike.",
             level: .must, quote: "Apple: 'Verify the validity of the certificates using Apple's App Attest root certificate.' / Google: 'Verify that the root public certificate is trustworthy and that each certificate signs the next certificate in the chain.' / WebAuthn: …",
             source: "RFC 5280 §6.1; Apple attestation step 1; Google key attestation steps 3; WebAuthn L3 §7.1 step 24 (#reg-ceremony-assess-trust)", bugClass: .trust,
             references: ["GHSA-6hxq-p678-4hr2 (SimpleWebAuthn)", "fido2-net-lib PR #671",
                          "py_webauthn PR #240 (android-key root not pinned)"]),
        Rule(.chainValidity, "Every certificate in the chain is within its validity period at verification time.",
             level: .must, quote: "The certificate validity period includes the current time. / Apple: 'Verify the validity of the certificates using Apple's App Attest root certificate.'",
             source: "RFC 5280 §6.1.3 (a)(2); Apple attestation step 1", bugClass: .trust,
             references: ["py_webauthn #106, #244 (expired fixtures, mocked clock)"]),
        Rule(.chainBasicConstraints, "Every issuing certificate is a CA (basicConstraints cA TRUE, keyCertSign).",
             level: .must, quote: "If certificate i is a version 3 certificate, verify that the basicConstraints extension is present and that cA is set to TRUE. ... If a key usage extension is present, verify that the keyCertSign bit is set.",
             source: "RFC 5280 §6.1.4 (k) and (n)", bugClass: .trust,
             references: ["LanternOps/breeze PR #4969", "go-webauthn PR #725"]),
    ]

    /// Revocation, for families whose issuer publishes a status list (Android).
    public static let revocation: [Rule] = [
        Rule(.chainRevoked, "No certificate of the chain, root included, is REVOKED in the attestation status list.",
             level: .must, quote: "Check each certificate's revocation status to ensure that none of the certificates have been revoked. / it's critical that the status of each certificate in an attestation chain be checked against the official certificate revocation status …",
             source: "Google, Verify hardware-backed key pairs with key attestation, step 4 and 'Certificate revocation status list'",
             bugClass: .trust, references: ["LanternOps/breeze issue #4972", "SimpleWebAuthn #647"]),
        Rule(.chainSuspended, "No certificate of the chain is SUSPENDED in the attestation status list.",
             level: .policy, quote: "This URL returns a JSON file containing the revocation status for any certificates that don't have a normal valid status. ... \"enum\": [\"REVOKED\", \"SUSPENDED\"] / 'Unless all are valid and the root is the Google root key, don't fully trust …",
             source: "Google, Certificate revocation status list (status enum REVOKED | SUSPENDED)", bugClass: .trust),
    ]
}
