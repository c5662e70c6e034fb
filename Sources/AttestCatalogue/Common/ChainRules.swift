import AttestConformance
import AttestEvidence


/// Rules on certificate chains, shared by every family that carries one.
public enum ChainRules {
    /// android/keyattestation, the verifier Google's page recommends, in its default configuration.
    static let google = AndroidRules.google

    public static let all: [Rule] = [
        Rule(.chainTrustAnchor,
             "The chain links by name and signature to one of the configured trust anchors, not to a look-alike.",
             level: .must, quote: "Apple: 'Verify the validity of the certificates using Apple's App Attest root certificate.' / Google: 'Verify that the root public certificate is trustworthy and that each certificate signs the next certificate in the chain.' / WebAuthn: …",
             source: "RFC 5280 §6.1; Apple attestation step 1; Google key attestation steps 3; WebAuthn L3 §7.1 step 24 (#reg-ceremony-assess-trust)",
             ownerVerifier: "\(google) picks the anchor whose subject is the top intermediate's issuer and verifies with the anchor's key; software roots are no anchors",
             bugClass: .trust,
             references: ["GHSA-6hxq-p678-4hr2 (SimpleWebAuthn)", "fido2-net-lib PR #671",
                          "py_webauthn PR #240 (android-key root not pinned)"]),
        Rule(.chainValidity, "Every certificate in the chain is within its validity period at verification time.",
             level: .must, quote: "The certificate validity period includes the current time. / Apple: 'Verify the validity of the certificates using Apple's App Attest root certificate.'",
             source: "RFC 5280 §6.1.3 (a)(2); Apple attestation step 1 (Google's page has no validity clause: RFC 5280 path validation is the authority, and it exempts no certificate). In an Android chain the leaf's dates answer to android.chain.leafValidity, and the expiry of a factory-provisioned chain's certificates above the leaf to android.chain.factoryExpiry: android/keyattestation waives both",
             ownerVerifier: "\(google) checks the not-yet-valid of every certificate between the leaf and the root, and the expiry of a remotely provisioned chain's (KeyAttestationCertPathValidator.kt); the catalogue's case expires an RKP intermediate, which it refuses too",
             bugClass: .trust,
             references: ["py_webauthn #106, #244 (expired fixtures, mocked clock)"]),
        Rule(.chainBasicConstraints, "Every issuing certificate is a CA (basicConstraints cA TRUE, keyCertSign); in an Android chain, every one but the device's attestation key certificate.",
             level: .must, quote: "If certificate i is a version 3 certificate, verify that the basicConstraints extension is present and that cA is set to TRUE. ... If a key usage extension is present, verify that the keyCertSign bit is set.",
             source: "RFC 5280 §6.1.4 (k) and (n). In an Android chain (android-key attestation statements too) the device's attestation key certificate, the first certificate above the leaf (and above an app attestation key's certificate) without a KeyDescription, answers to android.chain.attestationKeyIsCA instead: real factory keyboxes issue it cA FALSE. A KeyDescription certificate that issues another (chain extension) stays under this rule",
             ownerVerifier: "\(google) checks neither (KeyAttestationCertPathValidator.kt: 'Older Android devices produce Key Attestation certificate chains that do not fully conform to RFC 5280'); it refuses the catalogue's chain-extension case by position instead ('Unexpected attestation extension after the target certificate')",
             bugClass: .trust,
             references: ["LanternOps/breeze PR #4969", "go-webauthn PR #725"]),
    ]

    /// Revocation, for families whose issuer publishes a status list (Android).
    public static let revocation: [Rule] = [
        Rule(.chainRevoked, "No certificate of the chain below the root is REVOKED in the attestation status list.",
             level: .must, quote: "Check each certificate's revocation status to ensure that none of the certificates have been revoked. / it's critical that the status of each certificate in an attestation chain be checked against the official certificate revocation status …",
             source: "Google, Verify hardware-backed key pairs with key attestation, step 4 and 'Certificate revocation status list'",
             ownerVerifier: "\(google) refuses a REVOKED serial on every certificate below the root (RevocationChecker.kt)",
             bugClass: .trust, references: ["LanternOps/breeze issue #4972", "SimpleWebAuthn #647"]),
        Rule(.chainRootRevoked, "The root's serial is not REVOKED in the attestation status list.",
             level: .must, quote: "Check each certificate's revocation status to ensure that none of the certificates have been revoked.",
             source: "Google, Verify hardware-backed key pairs with key attestation, step 4 ('each certificate': the root is one)",
             ownerVerifier: "\(google) never looks the root up: it drops the root before validation (KeyAttestationCertPath.kt) and trusts or distrusts a root through its anchor list",
             bugClass: .trust),
        Rule(.chainSuspended, "No certificate of the chain is SUSPENDED in the attestation status list.",
             level: .policy, quote: "(none requires refusal - the status list's enum is REVOKED | SUSPENDED and the page says 'Unless all are valid and the root is the Google root key, don't fully trust the attestation', but SUSPENDED is a temporary status and no step says to refuse it)",
             source: "Google, Certificate revocation status list (status enum REVOKED | SUSPENDED)",
             ownerVerifier: "\(google) keeps only the REVOKED entries of the list (GoogleRevocationList.kt), so a SUSPENDED certificate is accepted",
             bugClass: .trust),
    ]
}
