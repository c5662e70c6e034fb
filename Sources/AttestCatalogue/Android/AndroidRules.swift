import AttestConformance
import AttestEvidence


/// Android Key Attestation: the checks Google recommends ("Verifying hardware-backed key pairs with key
/// attestation") and that android/keyattestation implements (protocols.md §2.11).
public enum AndroidRules {
    static let guide = "Android, Verifying hardware-backed key pairs with key attestation"

    public static let all: [Rule] = [
        Rule(.androidChainLength, "The chain holds 2 to 8 certificates.", source: "protocols.md §2.8, §2.11", bugClass: .parsing),
        Rule(.androidChainOrder, "The chain is leaf first, each certificate issued by the next, root last.",
             source: "AOSP KeyMint KeyCreationResult.aidl; protocols.md §2.8", bugClass: .trust),
        Rule(.androidKeyDescriptionEncoding,
             "The leaf's KeyDescription is DER: 8 elements, EXPLICIT tags in ascending order, BOOLEAN FF, ENUMERATED where the schema says.",
             source: "\(guide) (attestation extension schema); protocols.md §2.2-2.5", bugClass: .parsing,
             references: ["android/keyattestation testdata invalid/", "fido2-net-lib PR #671 (fails open on malformed input)"]),
        Rule(.androidKeyDescriptionPosition, "Only the leaf carries a KeyDescription, once; no CA certificate has one.",
             source: "android/keyattestation Verifier (CHAIN_EXTENDED_WITH_FAKE_ATTESTATION_EXTENSION); protocols.md §2.11",
             bugClass: .trust, references: ["a-sit-plus/warden-supreme PR #76", "google/android-key-attestation PR #25, #33"]),
        Rule(.androidChallenge, "attestationChallenge equals the challenge the server issued.", source: "\(guide), step 3",
             bugClass: .binding),
        Rule(.androidSecurityLevel,
             "attestationSecurityLevel and keyMintSecurityLevel are equal and TrustedEnvironment or StrongBox.",
             source: "\(guide); android/keyattestation NOT_SOFTWARE constraint", bugClass: .policy,
             references: ["w3c/webauthn #1022 (teeEnforced vs softwareEnforced)"]),
        Rule(.androidOrigin, "hardwareEnforced.origin is GENERATED.", source: "\(guide); android/keyattestation constraints",
             bugClass: .policy, references: ["web-auth/webauthn-framework #928", "go-webauthn PRs #727, #729"]),
        Rule(.androidRootOfTrust, "hardwareEnforced carries a RootOfTrust.", source: "\(guide); android/keyattestation constraints",
             bugClass: .policy),
        Rule(.androidDeviceLocked, "RootOfTrust.deviceLocked is TRUE (the bootloader is locked).", source: "\(guide)",
             bugClass: .policy, references: ["pagopa/io-wallet #37"]),
        Rule(.androidVerifiedBootState, "RootOfTrust.verifiedBootState is Verified.", source: "\(guide)", bugClass: .policy),
        Rule(.androidAllApplications, "allApplications is absent (the key is bound to one application).",
             source: "\(guide) (AuthorizationList allApplications)", bugClass: .policy),
        Rule(.androidPurpose, "hardwareEnforced.purpose includes SIGN.", source: "WebAuthn L3 §8.4 (android-key); protocols.md §2.4",
             bugClass: .policy, references: ["web-auth/webauthn-framework #928"]),
        Rule(.androidPackage, "attestationApplicationId names an allow-listed package.", source: "\(guide); protocols.md §2.6",
             bugClass: .binding),
        Rule(.androidSigningDigest, "attestationApplicationId carries an allow-listed signing-certificate digest.",
             source: "\(guide); protocols.md §2.6", bugClass: .binding),
        Rule(.androidPublicKey, "The leaf certificate's key is the key the client submitted.", source: "\(guide), step 1",
             bugClass: .binding, references: ["SandeepVashishtha/Eventra #17865"]),
    ]

    static let importPolicy = "seeds/000 (device-bound passkey import, key policy)"

    /// The key policy of a device-bound passkey: an EC P-256 key released by the biometric for every use.
    public static let keyPolicy: [Rule] = [
        Rule(.androidAlgorithm, "hardwareEnforced.algorithm is EC.", source: importPolicy, bugClass: .policy),
        Rule(.androidCurve, "An EC key's hardwareEnforced.ecCurve is P-256.", source: importPolicy, bugClass: .policy),
        Rule(.androidNoAuthRequired, "noAuthRequired is absent: the key needs user authentication.", source: importPolicy,
             bugClass: .policy, references: ["LanternOps/breeze PR #4969"]),
        Rule(.androidUserAuthType,
             "userAuthType, where present, is FINGERPRINT (biometric) only: PASSWORD or ANY lets the PIN release the key.",
             source: importPolicy, bugClass: .policy, references: ["hwsecurity.dev, PIN Bypass in Passwordless WebAuthn (2020)"]),
        Rule(.androidAuthTimeout, "authTimeout is absent: authentication per use, not for a time window.", source: importPolicy,
             bugClass: .policy),
    ]
}
