import AttestConformance
import AttestCrypto
import AttestEvidence

/// The families, rules and profiles attest-harness ships.
public enum BuiltinCatalogue {
    public static var families: [any CatalogueFamily.Type] { [AppAttestFamily.self, AndroidFamily.self, WebAuthnFamily.self, PasskeyImportFamily.self, PerRequestFamily.self, StepUpFamily.self] }

    /// Every rule, once, in catalogue order.
    public static var rules: [Rule] {
        var seen = Set<RuleID>()
        return families.flatMap { $0.rules }.filter { seen.insert($0.id).inserted }
    }

    /// The built-in profiles, in catalogue order (also `Profile.appleAppAttest`, ...).
    public static let profiles: [Profile] = [
        .appleAppAttest, .androidKeyAttestation, .androidKeyAttestationGoogle, .deviceBoundPasskeyImport, .webAuthnL3, .webAuthnL2, .perRequestDeviceAttestation, .stepUpSigning,
    ]

    /// The relying party's web origin and its Android app's origin (the app of `androidParameters`).
    static let webAuthnParameters = [
        "rpId": "login.attest-harness.example",
        "origins": "https://login.attest-harness.example," + WebAuthnFormat.androidOriginPrefix
            // The constant below holds a 64-digit hex digest.
            + Base64URL.encode(bytes(fromHex: androidParameters["signatureDigest"]!)!),
        "topOrigins": "", "allowCrossOrigin": "false", "algorithms": "-7,-35,-36,-8,-257,-258,-259,-37,-38,-39", "userVerification": "required",
        "attestation": "direct",
    ]
    /// The Civiq-style server's lifetimes, account token and statuses
    /// (docs/protocols/per-request-device-attestation.md §1.2).
    static let perRequestParameters = [
        "accountToken": "harness-account-token", "challengeLifetime": "300", "tokenLifetime": "86400", "tokenFreshness": "300",
        "deviceFailureStatus": "403", "accountFailureStatus": "401",
    ]
    /// The relying party the import API returns (`relyingPartyId`) and what its assertions are held to.
    static let importParameters = [
        "rpId": "app.attest-harness.example", "origins": "https://app.attest-harness.example", "algorithms": "-7",
        "userVerification": "required", "attestation": "none",
    ]
    static let appAttestParameters = ["teamId": "A1B2C3D4E5", "bundleId": "dev.attest-harness.example", "environment": "production"]
    static let androidParameters = ["packageName": "dev.attest_harness.example",
                                    "signatureDigest": "5f1c4f8cbb2a1d7cf0ab8e8e2b2f7c3a4e9d4c6a0b3f2e1d9c8b7a6f5e4d3c2b"]

    public static func profile(named name: String) -> Profile? { profiles.first { $0.name == name } }

    /// The cases of every family `profile` covers, forged for its parameters from `seed`.
    public static func cases(for profile: Profile, seed: UInt64) throws -> [Case] {
        try families.filter { profile.families.contains($0.name) }.flatMap { try $0.cases(parameters: profile.parameters, seed: seed) }
    }

    /// Every family's cases, each forged for the first built-in profile that covers it.
    public static func allCases(seed: UInt64) throws -> [Case] {
        try families.flatMap { family -> [Case] in
            guard let profile = profiles.first(where: { $0.families.contains(family.name) }) else { return [] }
            return try family.cases(parameters: profile.parameters, seed: seed)
        }
    }

    /// Each family's vector suite under `seed`, with its file name (`app-attest.json`).
    public static func vectorSuites(seed: UInt64) throws -> [(file: String, suite: VectorSuite)] {
        try families.map { family in
            let covering = profiles.filter { $0.families.contains(family.name) }
            let suite = VectorSuite(family: family.name, seed: seed, stepKinds: family.stepKinds, rules: family.rules,
                                    profiles: covering,
                                    cases: try family.cases(parameters: covering.first?.parameters ?? [:], seed: seed))
            return ("\(family.name).json", suite)
        }
    }
}

/// The built-in profiles by name, so a consumer writes `profile: .appleAppAttest`.
extension Profile {
    public static let appleAppAttest = Profile(
        name: "apple-app-attest",
        description: "Apple App Attest as Apple documents it: attestation steps 1-9 and assertion steps 1-6, strict encodings.",
        families: [AppAttestFamily.name],
        rules: Set(AppAttestFamily.rules.map(\.id)),
        parameters: BuiltinCatalogue.appAttestParameters)

    public static let androidKeyAttestation = Profile(
        name: "android-key-attestation",
        description: "Android Key Attestation as Google's page documents verifying it: chain to a Google root, revocation of every certificate, challenge, hardware security level, generated key, locked and verified boot, allow-listed app, the schema's shape; canonical DER and the tags a parser models are left to profiles that opt in.",
        families: [AndroidFamily.name],
        rules: Set(AndroidFamily.rules.map(\.id)).subtracting(AndroidRules.keyPolicy.map(\.id))
            .subtracting(AndroidRules.googleVerifierOnly).subtracting(AndroidRules.optIn),
        parameters: BuiltinCatalogue.androidParameters)

    /// What android/keyattestation does in its default configuration, set up as its README shows (with a
    /// ChallengeMatcher, so the challenge is checked): beside `androidKeyAttestation`, a team sees in one run where
    /// "what Google's verifier does" and "what the documentation says" part (docs/coverage.md lists the cases).
    public static let androidKeyAttestationGoogle = Profile(
        name: "android-key-attestation-google",
        description: "Android Key Attestation as android/keyattestation verifies it by default: chain of at least 3 to a Google root ending in a self-issued root (the leaf's dates unchecked, and expiry waived in a factory-provisioned chain), revocation below the root (REVOKED only), challenge, security level not Software, origin GENERATED, a RootOfTrust present, the schema's shape, and only the tags its parser models; boot state, lock state, app identity and purposes are left to the caller, and repeated tags read last-wins. It keeps RFC 5280 basic constraints, which android/keyattestation does not check, because the catalogue's chain-extension case (which it refuses by position) breaks that rule.",
        families: [AndroidFamily.name],
        rules: Set(AndroidFamily.rules.map(\.id)).subtracting(AndroidRules.keyPolicy.map(\.id)).subtracting(AndroidRules.optIn)
            .subtracting([.chainRootRevoked, .chainSuspended, .androidChainFactoryExpiry, .androidChainLeafValidity,
                          .androidDeviceLocked, .androidVerifiedBootState, .androidPackage,
                          .androidSigningDigest, .androidPublicKey, .androidPurpose, .androidKeyDescriptionUniqueTags]),
        parameters: BuiltinCatalogue.androidParameters)

    public static let deviceBoundPasskeyImport = Profile(
        name: "device-bound-passkey-import",
        description: "The native-app passkey import (docs/protocols/passkey-import.md): start, then complete with App Attest on iOS or, on Android, an EC P-256 key generated in the TEE or StrongBox, biometric only per use, no authTimeout, locked bootloader with verified boot, allow-listed app, a chain of 2 to 8 to a Google root that is not revoked; a signed proof of exactly six members; a single-use 10-minute challenge; five passkeys per user; then WebAuthn assertions by the imported key with optional per-approval App Attest assertions.",
        families: [AppAttestFamily.name, AndroidFamily.name, PasskeyImportFamily.name],
        rules: Set(AppAttestFamily.rules.map(\.id) + AndroidFamily.rules.map(\.id) + PasskeyImportFamily.rules.map(\.id))
            .subtracting(AndroidRules.googleVerifierOnly).subtracting(AndroidRules.optIn),
        parameters: BuiltinCatalogue.appAttestParameters.merging(BuiltinCatalogue.androidParameters) { first, _ in first }.merging(BuiltinCatalogue.importParameters) { first, _ in first })

    public static let webAuthnL3 = Profile(
        name: "webauthn-l3",
        description: "WebAuthn Level 3 registration (§7.1) and authentication (§7.2) step by step, with the packed, tpm, android-key, android-safetynet, apple, fido-u2f and none formats (§8), a required attestation chain, user verification required, and, as this profile's policy (§7.2 step 22 leaves it to the relying party), counters that must increase once non-zero.",
        families: [WebAuthnFamily.name],
        rules: Set(WebAuthnFamily.rules.map(\.id)),
        parameters: BuiltinCatalogue.webAuthnParameters.merging(BuiltinCatalogue.androidParameters) { first, _ in first })

    /// WebAuthn Level 2, for libraries that document it: Level 3's profile with what Level 3 added left to the relying
    /// party (either verdict conforms: a Level 2 relying party may check it or not), and the credential id uniqueness
    /// that Level 2 lets it relax.
    public static let webAuthnL2 = Profile(
        name: "webauthn-l2",
        description: "WebAuthn Level 2 (https://www.w3.org/TR/webauthn-2/): the webauthn-l3 profile judged by Level 2. What Level 3 added to the relying party's steps (crossOrigin and topOrigin, the BE and BS flags, the 1023-byte credential id limit, the credential's JSON and the client's id in the credential record) is left to the relying party, and so is a credential id already registered to another user (Level 2 §7.1 step 22: it MAY accept it, deleting the older registration). Rules cite Level 3's step numbers; docs/webauthn-levels.md gives Level 2's.",
        families: [WebAuthnFamily.name],
        rules: Set(WebAuthnFamily.rules.map(\.id)),
        parameters: webAuthnL3.parameters,
        leftToRelyingParty: WebAuthnRules.addedInLevelThree.union(WebAuthnRules.relaxedInLevelTwo))

    public static let perRequestDeviceAttestation = Profile(
        name: "per-request-device-attestation",
        description: "Every API request proves a genuine app on genuine hardware (docs/protocols/per-request-device-attestation.md): on iOS an App Attest assertion per request over challenge, method, path and query, and body hash, after a one-time attestation; on Android a Play Integrity token (JWE A256KW/A256GCM around an ES256 JWS) exchanged for a 24-hour session token. Device failures answer 403, account-token failures 401.",
        families: [PerRequestFamily.name],
        rules: Set(PerRequestFamily.rules.map(\.id)),
        parameters: BuiltinCatalogue.appAttestParameters.merging(BuiltinCatalogue.androidParameters) { first, _ in first }.merging(BuiltinCatalogue.perRequestParameters) { first, _ in first })

    public static let stepUpSigning = Profile(
        name: "step-up-signing",
        description: "Biometric step-up (docs/protocols/step-up-signing.md): a registered device key signs a one-time challenge that is random, lives 120 seconds, is used once, and is bound to the account, the key and the action.",
        families: [StepUpFamily.name],
        rules: Set(StepUpFamily.rules.map(\.id)),
        parameters: ["challengeLifetime": "120", "stepUpMessage": "challenge"])
}
