import AttestConformance
import AttestEvidence


/// Android Key Attestation: the checks Google recommends ("Verifying hardware-backed key pairs with key
/// attestation") and that android/keyattestation implements (https://github.com/android/keyattestation).
public enum AndroidRules {
    static let guide = "Android, Verifying hardware-backed key pairs with key attestation"

    public static let all: [Rule] = [
        Rule(.androidChainLength, "The chain holds 2 to 8 certificates.", level: .policy, quote: "(none - Google's page and AOSP set no length; AOSP ATTEST_KEY case: 'the returned certificate chain must contain only an attestation certificate signed with the specified key')",
             source: "docs/protocols/passkey-import.md §3.3 (profile policy: 2 to 8 certificates); Android, Verifying hardware-backed key pairs with key attestation (https://developer.android.com/privacy-and-security/security-key-attestation) sets no length", bugClass: .parsing),
        Rule(.androidChainOrder, "The chain is leaf first, each certificate issued by the next, root last.",
             level: .must, quote: "Verify ... that each certificate signs the next certificate in the chain. / AOSP: 'ordered such that each certificate is signed by the subsequent one, up to the root which must be self-signed'",
             source: "Google step 3; AOSP KeyCreationResult.aidl", bugClass: .trust),
        Rule(.androidKeyDescriptionEncoding,
             "The leaf's KeyDescription is DER: 8 elements, EXPLICIT tags in ascending order, BOOLEAN FF, ENUMERATED where the schema says.",
             level: .must, quote: "KeyDescription ::= SEQUENCE { attestationVersion INTEGER, attestationSecurityLevel SecurityLevel, ... softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList } ; purpose [1] EXPLICIT SET OF INTEGER OPTIONAL ...",
             source: "AOSP KeyCreationResult.aidl / source.android.com attestation schema; RFC 5280 §4.1 (extnValue is DER)", bugClass: .parsing,
             references: ["android/keyattestation testdata invalid/", "fido2-net-lib PR #671 (fails open on malformed input)"]),
        Rule(.androidKeyDescriptionPosition, "Only the leaf carries a KeyDescription, once; no CA certificate has one.",
             level: .policy, quote: "Find the nearest certificate to the root that contains the key attestation certificate extension. ... Don't assume that the key attestation certificate extension is in the leaf certificate of the chain. Only the first occurrence of the …",
             source: "Google step 6 (contradicts the rule for ATTEST_KEY chains); RFC 5280 §4.2 for the duplicate case (issuer-side)",
             bugClass: .trust, references: ["a-sit-plus/warden-supreme PR #76", "google/android-key-attestation PR #25, #33"]),
        Rule(.androidChallenge, "attestationChallenge equals the challenge the server issued.", level: .must, quote: "Check the extension data that you've retrieved in the previous steps for consistency and compare with the set of values that you expect the hardware-backed key to contain. / AOSP: 'attestationChallenge contains Tag::ATTESTATION_CHALLENGE …",
             source: "Google step 7; AOSP schema comment",
             bugClass: .binding),
        Rule(.androidSecurityLevel,
             "attestationSecurityLevel and keyMintSecurityLevel are equal and TrustedEnvironment or StrongBox.",
             level: .must, quote: "check that ... the attestationSecurityLevel element within the key description data structure is set to the TrustedEnvironment security level or to the StrongBox security level. / AOSP: 'attestationSecurityLevel ... Must match …",
             source: "Google, 'Before you begin'; AOSP KeyCreationResult.aidl", bugClass: .policy,
             references: ["w3c/webauthn #1022 (teeEnforced vs softwareEnforced)"]),
        Rule(.androidOrigin, "hardwareEnforced.origin is GENERATED.", level: .must, quote: "use only the teeEnforced authorization list if the RP wants to accept only keys from a trusted execution environment, otherwise use the union of teeEnforced and softwareEnforced. - The value in the AuthorizationList.origin field is equal …",
             source: "WebAuthn L3 §8.4 android-key verification procedure (5th item)",
             bugClass: .policy, references: ["web-auth/webauthn-framework #928", "go-webauthn PRs #727, #729"]),
        Rule(.androidRootOfTrust, "hardwareEnforced carries a RootOfTrust.", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             bugClass: .policy),
        Rule(.androidDeviceLocked, "RootOfTrust.deviceLocked is TRUE (the bootloader is locked).", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             bugClass: .policy, references: ["pagopa/io-wallet #37"]),
        Rule(.androidVerifiedBootState, "RootOfTrust.verifiedBootState is Verified.", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)", bugClass: .policy),
        Rule(.androidAllApplications, "allApplications is absent (the key is bound to one application).",
             level: .must, quote: "The AuthorizationList.allApplications field is not present on either authorization list (softwareEnforced nor teeEnforced), since PublicKeyCredential MUST be scoped to the RP ID.",
             source: "WebAuthn L3 §8.4 android-key verification procedure (5th item)", bugClass: .policy),
        Rule(.androidPurpose, "hardwareEnforced.purpose contains SIGN (WebAuthn §8.4 says the purpose is KM_PURPOSE_SIGN; real keys carry SIGN and VERIFY, so a list with SIGN is read as meeting it).", level: .must, quote: "The value in the AuthorizationList.purpose field is equal to KM_PURPOSE_SIGN.",
             source: "WebAuthn L3 §8.4 android-key verification procedure (5th item)",
             bugClass: .policy, references: ["web-auth/webauthn-framework #928"]),
        Rule(.androidPackage, "attestationApplicationId names an allow-listed package.", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             bugClass: .binding),
        Rule(.androidSigningDigest, "attestationApplicationId carries an allow-listed signing-certificate digest.",
             level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)", bugClass: .binding),
        Rule(.androidPublicKey, "The leaf certificate's key is the key the client submitted.", level: .policy, quote: "AOSP: 'The first certificate in the chain signs the public key info of the newly-generated or newly-imported key pair.'",
             source: "\(guide), step 1",
             bugClass: .binding, references: ["SandeepVashishtha/Eventra #17865"]),
    ]

    static let importPolicy = "docs/protocols/passkey-import.md §3.3 (device-bound passkey import, key policy)"

    /// The key policy of a device-bound passkey: an EC P-256 key released by the biometric for every use.
    public static let keyPolicy: [Rule] = [
        Rule(.androidAlgorithm, "hardwareEnforced.algorithm is EC.", level: .policy, quote: "(none - key policy of the profile; AOSP/Google only describe the fields)",
             source: importPolicy, bugClass: .policy),
        Rule(.androidCurve, "An EC key's hardwareEnforced.ecCurve is P-256.", level: .policy, quote: "(none - key policy of the profile; AOSP/Google only describe the fields)",
             source: importPolicy, bugClass: .policy),
        Rule(.androidNoAuthRequired, "noAuthRequired is absent: the key needs user authentication.", level: .policy, quote: "(none - key policy of the profile; AOSP/Google only describe the fields)",
             source: importPolicy,
             bugClass: .policy, references: ["LanternOps/breeze PR #4969"]),
        Rule(.androidUserAuthType,
             "userAuthType, where present, is FINGERPRINT (biometric) only: PASSWORD or ANY lets the PIN release the key.",
             level: .policy, quote: "(none - key policy of the profile; AOSP/Google only describe the fields)",
             source: importPolicy, bugClass: .policy, references: ["hwsecurity.dev, PIN Bypass in Passwordless WebAuthn (2020)"]),
        Rule(.androidAuthTimeout, "authTimeout is absent: authentication per use, not for a time window.", level: .policy, quote: "(none - key policy of the profile; AOSP/Google only describe the fields)",
             source: importPolicy,
             bugClass: .policy),
    ]
}
