import AttestConformance
import AttestEvidence


/// Android Key Attestation: the checks Google recommends ("Verifying hardware-backed key pairs with key
/// attestation") and that android/keyattestation implements (https://github.com/android/keyattestation).
public enum AndroidRules {
    static let guide = "Android, Verifying hardware-backed key pairs with key attestation"

    /// android/keyattestation, the verifier Google's page recommends, in its default configuration.
    static let google = "android/keyattestation (default configuration)"

    public static let all: [Rule] = [
        Rule(.androidChainLength, "The chain holds 2 to 8 certificates.", level: .policy, quote: "(none - Google's page and AOSP set no length; AOSP ATTEST_KEY case: 'the returned certificate chain must contain only an attestation certificate signed with the specified key')",
             source: "docs/protocols/passkey-import.md §3.3 (profile policy: 2 to 8 certificates); Android, Verifying hardware-backed key pairs with key attestation (https://developer.android.com/privacy-and-security/security-key-attestation) sets no length",
             ownerVerifier: "\(google) refuses fewer than 3 certificates ('At least 3 certificates are required', KeyAttestationCertPath.kt) and in effect wants the exact factory (4) or RKP (5) shape; the catalogue's length cases (1 and 9 certificates) are refused by both",
             bugClass: .parsing),
        Rule(.androidChainOrder, "The chain is leaf first, each certificate issued by the next, root last.",
             level: .must, quote: "Verify ... that each certificate signs the next certificate in the chain. / AOSP: 'ordered such that each certificate is signed by the subsequent one, up to the root which must be self-signed'",
             source: "Google step 3; AOSP KeyCreationResult.aidl",
             ownerVerifier: "\(google) never reorders: the first certificate is the leaf, and any other order fails ('Root certificate not found' or a broken signature chain)",
             bugClass: .trust),
        Rule(.androidChainIncludesRoot, "The chain ends in its self-issued root certificate.", level: .policy,
             quote: "(none binds the verifier - AOSP describes the chain the device returns as going 'up to the root which must be self-signed', but path validation takes the trust anchor as an input (RFC 5280 §6.1.1 (d)), so a verifier that pins the root by subject and key needs no copy of it in the chain)",
             source: "AOSP KeyCreationResult.aidl (the shape devices return); RFC 5280 §6.1.1 (d)",
             ownerVerifier: "\(google) refuses a chain whose last certificate is not self-issued ('Root certificate not found', KeyAttestationCertPath.kt), though it never verifies that certificate: the anchor is chosen by the top intermediate's issuer name and verified with the anchor's own key",
             bugClass: .parsing),
        Rule(.androidKeyDescriptionEncoding,
             "The leaf's KeyDescription has the AOSP schema's shape: 8 elements, ENUMERATED security levels, EXPLICIT-tagged authorization fields.",
             level: .must, quote: "KeyDescription ::= SEQUENCE { attestationVersion INTEGER, attestationSecurityLevel SecurityLevel, ... softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList } ; SecurityLevel ::= ENUMERATED ; purpose [1] EXPLICIT SET OF INTEGER OPTIONAL ...",
             source: "AOSP KeyCreationResult.aidl / source.android.com attestation schema (https://source.android.com/docs/security/features/keystore/attestation#schema)",
             ownerVerifier: "\(google) refuses each of these shapes (Extension.kt: 'require(seq.size() == 8)', 'Must be an ASN1Enumerated', an IMPLICIT tag fails getExplicitBaseObject)",
             bugClass: .parsing,
             references: ["android/keyattestation testdata invalid/", "fido2-net-lib PR #671 (fails open on malformed input)"]),
        Rule(.androidKeyDescriptionStrictDER,
             "The KeyDescription is canonical DER where the schema leaves room: BOOLEAN TRUE is FF, AuthorizationList tags ascend.",
             level: .policy, quote: "(none binds the verifier - X.690 §11.1 (a DER BOOLEAN TRUE is FF) and §8.9.2 (SEQUENCE components in the order of the definition) bind the encoder, the device, and RFC 5280 §4.1 asks the issuer for DER; genuine Google-signed chains carry deviceLocked as BOOLEAN 01, so no built-in profile enforces this and a strict profile opts in)",
             source: "ITU-T X.690 §11.1 and §8.9.2; RFC 5280 §4.1 (issuer side); android/keyattestation testdata invalid/malformed_rot_device_locked.pem (a real device's BOOLEAN 01)",
             ownerVerifier: "\(google) accepts both: BouncyCastle reads any non-zero BOOLEAN as TRUE (ExtensionTest: parseFrom_malformedRotDeviceLocked_successfullyParsed) and tag order is only logged unless TagOrderConstraint.STRICT is configured",
             bugClass: .parsing, references: ["android/keyattestation testdata invalid/malformed_rot_device_locked.pem"]),
        Rule(.androidKeyDescriptionUniqueTags, "No AuthorizationList tag appears twice.", level: .must,
             quote: "AuthorizationList ::= SEQUENCE { purpose [1] EXPLICIT SET OF INTEGER OPTIONAL, ... } / X.690 §8.9.2: 'The encoding of a sequence value shall consist of ... the complete encoding of one data value from each of the types listed in the ASN.1 definition of the sequence type'",
             source: "AOSP KeyCreationResult.aidl schema; ITU-T X.690 §8.9.2 (a repeated component is not a value of the schema, and readers disagree on what it says: first-wins readers see one value, last-wins readers another)",
             ownerVerifier: "\(google) reads the last occurrence without error (Kotlin associate in Extension.kt); even TagOrderConstraint.STRICT does not notice",
             bugClass: .parsing),
        Rule(.androidKeyDescriptionKnownTags,
             "Every AuthorizationList tag is one android/keyattestation's parser models (its KeyMintTag list); allApplications (600) is android.allApplications's to judge.",
             level: .policy, quote: "(none - the AOSP schema grows with KeyMint versions (attestationVersion 100 to 400 each added tags) and says nothing of unknown tags, so refusing a tag a newer device writes refuses real devices; an owner's verifier may still refuse what its parser does not model)",
             source: "AOSP KeyMint Tag.aidl; android/keyattestation Extension.kt (KeyMintTag)",
             ownerVerifier: "\(google) refuses any tag outside its KeyMintTag list (UNKNOWN_TAG_NUMBER), schema tags it leaves out on purpose included (7, 8, 303 rollbackResistance, 305, 502, 720 deviceUniqueAttestation) and the legacy 600 allApplications",
             bugClass: .parsing),
        Rule(.androidKeyDescriptionPosition, "Only the leaf carries a KeyDescription, once; no CA certificate has one.",
             level: .policy, quote: "Find the nearest certificate to the root that contains the key attestation certificate extension. ... Don't assume that the key attestation certificate extension is in the leaf certificate of the chain. Only the first occurrence of the … / AOSP: 'the first certificate's keyCertSign bit [is set] iff the attested key has KeyPurpose::ATTEST_KEY'",
             source: "Google step 6 and AOSP KeyCreationResult.aidl case 2 (a caller-provided ATTEST_KEY puts a KeyDescription on a CA: the rule is a profile choice); RFC 5280 §4.2 ('A certificate MUST NOT include more than one instance of a particular extension', binding the issuer) for the duplicate case",
             ownerVerifier: "\(google) refuses a KeyDescription anywhere but the leaf ('Only the target certificate should contain an attestation extension', beside a TODO to support ATTEST_KEY chains); the JDK's certificate parser refuses a duplicated extension",
             bugClass: .trust, references: ["a-sit-plus/warden-supreme PR #76", "google/android-key-attestation PR #25, #33"]),
        Rule(.androidChallenge, "attestationChallenge equals the challenge the server issued.", level: .must, quote: "Check the extension data that you've retrieved in the previous steps for consistency and compare with the set of values that you expect the hardware-backed key to contain. / AOSP: 'attestationChallenge contains Tag::ATTESTATION_CHALLENGE …",
             source: "Google step 7; AOSP schema comment",
             ownerVerifier: "\(google) compares the bytes exactly when given a ChallengeChecker (ChallengeMatcher, as its README sets it up); with none it skips the check",
             bugClass: .binding),
        Rule(.androidSecurityLevel,
             "attestationSecurityLevel and keyMintSecurityLevel are equal and TrustedEnvironment or StrongBox.",
             level: .must, quote: "check that ... the attestationSecurityLevel element within the key description data structure is set to the TrustedEnvironment security level or to the StrongBox security level. / AOSP: 'attestationSecurityLevel ... Must match …",
             source: "Google, 'Before you begin'; AOSP KeyCreationResult.aidl",
             ownerVerifier: "\(google) by default: SecurityLevelConstraint.NOT_SOFTWARE (both levels equal and not Software)",
             bugClass: .policy, references: ["w3c/webauthn #1022 (teeEnforced vs softwareEnforced)"]),
        Rule(.androidOrigin, "hardwareEnforced.origin is GENERATED.", level: .must, quote: "use only the teeEnforced authorization list if the RP wants to accept only keys from a trusted execution environment, otherwise use the union of teeEnforced and softwareEnforced. - The value in the AuthorizationList.origin field is equal …",
             source: "WebAuthn L3 §8.4 android-key verification procedure (5th item)",
             ownerVerifier: "\(google) by default: hardwareEnforced.origin must be GENERATED (ConstraintConfig.kt)",
             bugClass: .policy, references: ["web-auth/webauthn-framework #928", "go-webauthn PRs #727, #729"]),
        Rule(.androidRootOfTrust, "hardwareEnforced carries a RootOfTrust.", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             ownerVerifier: "\(google) by default refuses a hardwareEnforced list without RootOfTrust (ConstraintConfig.kt NOT_NULL)",
             bugClass: .policy),
        Rule(.androidDeviceLocked, "RootOfTrust.deviceLocked is TRUE (the bootloader is locked).", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             ownerVerifier: "\(google) does not check it; it reports deviceLocked in its result",
             bugClass: .policy, references: ["pagopa/io-wallet #37"]),
        Rule(.androidVerifiedBootState, "RootOfTrust.verifiedBootState is Verified.", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             ownerVerifier: "\(google) does not check it; it reports verifiedBootState in its result",
             bugClass: .policy),
        Rule(.androidAllApplications, "allApplications is absent (the key is bound to one application).",
             level: .must, quote: "The AuthorizationList.allApplications field is not present on either authorization list (softwareEnforced nor teeEnforced), since PublicKeyCredential MUST be scoped to the RP ID.",
             source: "WebAuthn L3 §8.4 android-key verification procedure (5th item)",
             ownerVerifier: "\(google) refuses the whole KeyDescription: tag 600 is not in its tag list (UNKNOWN_TAG_NUMBER)",
             bugClass: .policy),
        Rule(.androidPurpose, "hardwareEnforced.purpose contains SIGN (WebAuthn §8.4 says the purpose is KM_PURPOSE_SIGN; real keys carry SIGN and VERIFY, so a list with SIGN is read as meeting it).", level: .must, quote: "The value in the AuthorizationList.purpose field is equal to KM_PURPOSE_SIGN.",
             source: "WebAuthn L3 §8.4 android-key verification procedure (5th item)",
             ownerVerifier: "\(google) does not check purposes",
             bugClass: .policy, references: ["web-auth/webauthn-framework #928"]),
        Rule(.androidPackage, "attestationApplicationId names an allow-listed package.", level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             ownerVerifier: "\(google) does not check it and leaves it to the caller",
             bugClass: .binding),
        Rule(.androidSigningDigest, "attestationApplicationId carries an allow-listed signing-certificate digest.",
             level: .policy, quote: "compare with the set of values that you expect the hardware-backed key to contain",
             source: "Google step 7 (expected values are the RP's choice)",
             ownerVerifier: "\(google) does not check it and leaves it to the caller",
             bugClass: .binding),
        Rule(.androidPublicKey, "The leaf certificate's key is the key the client submitted.", level: .policy, quote: "AOSP: 'The first certificate in the chain signs the public key info of the newly-generated or newly-imported key pair.'",
             source: "\(guide), step 1",
             ownerVerifier: "\(google) returns the leaf's key for the caller to compare",
             bugClass: .binding, references: ["SandeepVashishtha/Eventra #17865"]),
    ]

    /// Rules only a profile that follows android/keyattestation enforces (documentation does not ask for them).
    public static let googleVerifierOnly: [RuleID] = [.androidChainIncludesRoot, .androidKeyDescriptionKnownTags]
    /// Rules no built-in profile enforces: a user's own profile opts in.
    public static let optIn: [RuleID] = [.androidKeyDescriptionStrictDER]

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
