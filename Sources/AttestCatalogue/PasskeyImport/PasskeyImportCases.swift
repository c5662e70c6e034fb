import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// The device-bound passkey import family (docs/protocols/passkey-import.md): the ceremony as ordered requests (start,
/// complete, assertions by the imported key), valid on both platforms, and one case per mutation, each breaking exactly
/// one rule. Broken start and complete steps carry the API error the documentation gives.
public enum PasskeyImportFamily: CatalogueFamily {
    public static let name = FamilyName.passkeyImport
    /// Case ids start `import.`.
    static let idPrefix = "import"
    public static var rules: [Rule] { PasskeyImportRules.all + WebAuthnRules.all.filter { assertionRules.contains($0.id) } }

    /// The WebAuthn rules the imported key's assertions are held to (docs/protocols/passkey-import.md §6.1).
    static let assertionRules: [RuleID] = [
        .webAuthnType, .webAuthnChallenge, .webAuthnOrigin, .webAuthnRpIdHash, .webAuthnUserPresent, .webAuthnUserVerified,
        .webAuthnCredential, .webAuthnAssertionSignature, .webAuthnSignCount,
    ]


    public static let stepKinds: [StepKind: String] = [
        .passkeyImportStart: "POST /user/passkey/import/start. Inputs: user (the userId, UTF-8), platform (IOS or ANDROID), "
            + "challenge (the 32 bytes the server must issue), challengeId (UTF-8, the id it must return). The server "
            + "adopts the given challenge so that forged evidence can bind it.",
        .passkeyImportComplete: "POST /user/passkey/import/complete. Inputs: user, challengeId, platform, app (bundle id or package "
            + "name), credentialId, publicKey (X9.63 point or SPKI), algorithm (\"-7\"), proofClientData (the proof JSON "
            + "bytes), proofSignature (DER); iOS: keyId, attestationObject (App Attest of SHA-256(challenge)); Android: "
            + "certificateChain (DER certificates back to back, leaf first). Context parameters: appId, environment, "
            + "packageName, signatureDigest, attestationStatusList.",
        StepKind.webAuthnRegistration: "An ordinary passkey registration of the same user (it counts towards the cap); "
            + "inputs as in the webauthn family.",
        StepKind.webAuthnAssertion: "An assertion by an imported passkey, inputs as in the webauthn family; on iOS "
            + "optionally appAttestKeyId and appAttestAssertion (an App Attest assertion over the clientDataJSON).",
    ]

    typealias Definition = CaseDefinition<Void, PasskeyImportScenario, PasskeyImportForge>

    public static func trustAnchors(seed: UInt64) throws -> [String: String] {
        try AppAttestFamily.trustAnchors(seed: seed).merging(try AndroidFamily.trustAnchors(seed: seed)) { first, _ in first }
    }

    public static func forge(parameters: [String: String], seed: ForgeSeed) throws -> PasskeyImportForge {
        let reader = ParameterReader(parameters)
        let app = try AppAttestParameters(reader), android = try AndroidParameters(forging: reader)
        return try PasskeyImportForge(seed: seed, teamId: app.teamId, bundleId: app.bundleId, environment: app.environment,
                                      packageName: android.packageName, signatureDigest: android.signatureDigest,
                                      rpId: try reader.string("rpId"))
    }

    public static func cases(parameters: [String: String], seed: UInt64) throws -> [Case] {
        try cases(parameters: parameters, seed: ForgeSeed(seed))
    }

    /// The cases forged from `seed`, substitutions included (what the striga+http driver re-forges with the
    /// challenges and challenge ids a live server issued); with `only`, just the case of that id.
    public static func cases(parameters: [String: String], seed: ForgeSeed, only: String? = nil) throws -> [Case] {
        let forge = try forge(parameters: parameters, seed: seed)
        var context = CaseContext(time: forge.time,
                                  trustAnchors: [forge.appAttest.pki.root.pem, forge.android.pki.rsaRoot.certificate.pem,
                                                 forge.android.pki.ecRoot.certificate.pem],
                                  parameters: parameters)
        context.parameters["appId"] = forge.appAttest.appId
        context.parameters["attestationStatusList"] = String(decoding: try AndroidFamily.baselineStatusList.json, as: UTF8.self)
        return try definitions.filter { only == nil || $0.id(prefix: idPrefix) == only }.map { definition in
            var scenario = PasskeyImportScenario(requests: [])
            try definition.mutate(&scenario, forge)
            let steps = try steps(scenario, breaking: definition.rule)
            // The control is the valid import of the same platform.
            return definition.makeCase(prefix: idPrefix, family: name, context: context, steps: steps, control: steps.platform)
        }
    }

    static func steps(_ scenario: PasskeyImportScenario, breaking rule: RuleID?) throws -> [Step] {
        try scenario.requests.enumerated().map { index, request in
            let breaks = scenario.brokenStep == index ? rule : scenario.refusedSetUp[index].map { RuleID($0) }
            switch request {
            case .start(let blueprint):
                return Step(kind: .passkeyImportStart, inputs: blueprint.startInputs, breaks: breaks, time: blueprint.startTime,
                            expectedStatus: breaks.map(DocumentedStatus.importAPIError))
            case .complete(let blueprint):
                return Step(kind: .passkeyImportComplete, inputs: try blueprint.completeInputs(), breaks: breaks, time: blueprint.completeTime,
                            expectedStatus: breaks.map(DocumentedStatus.importAPIError), repeats: scenario.repetitions[index])
            case .registration(let blueprint, let time):
                let output = try blueprint.render()
                return Step(kind: StepKind.webAuthnRegistration, inputs: [
                    .clientDataJSON: output.clientDataJSON, .attestationObject: output.attestationObject,
                    .challenge: output.challenge, .user: output.user,
                ], breaks: breaks, time: time)
            case .assertion(let assertion):
                let output = try assertion.render()
                var inputs: [InputKey: [UInt8]] = [.credentialId: output.webAuthn.credentialId, .clientDataJSON: output.webAuthn.clientDataJSON,
                              .authenticatorData: output.webAuthn.authenticatorData, .signature: output.webAuthn.signature,
                              .challenge: output.webAuthn.challenge, .user: output.webAuthn.user]
                inputs[.appAttestKeyId] = output.deviceKeyId
                inputs[.appAttestAssertion] = output.deviceAssertion
                return Step(kind: StepKind.webAuthnAssertion, inputs: inputs, breaks: breaks, time: assertion.time)
            }
        }
    }

    // MARK: Scenario builders

    /// An import of `blueprint`, changed by `change` before it is completed; the complete is the broken step.
    static func brokenComplete(_ forge: PasskeyImportForge, _ platform: ImportBlueprint.Platform,
                               _ change: (inout ImportBlueprint) throws -> Void) throws -> PasskeyImportScenario {
        var blueprint = try forge.importBlueprint(platform)
        try change(&blueprint)
        return PasskeyImportScenario(requests: [.start(blueprint), .complete(blueprint)], brokenStep: 1)
    }

    /// A valid iOS import followed by assertions with these counters (with per-approval App Attest assertions
    /// when `deviceAttestation`); `change` mutates the last assertion.
    static func brokenAssertion(_ forge: PasskeyImportForge, counters: [UInt32] = [1], deviceAttestation: Bool = false,
                                _ change: (inout PasskeyAssertion) throws -> Void) throws -> PasskeyImportScenario {
        let blueprint = try forge.importBlueprint(.ios)
        var assertions = try counters.enumerated().map { index, counter in
            try forge.assertion(by: blueprint, signCount: counter, label: "\(index)",
                                deviceCounter: deviceAttestation ? UInt32(index + 1) : nil)
        }
        try change(&assertions[assertions.count - 1])
        return PasskeyImportScenario(requests: [.start(blueprint), .complete(blueprint)] + assertions.map { .assertion($0) },
                                     brokenStep: 1 + assertions.count)
    }

    /// `count` completed iOS imports of alice, started two minutes apart.
    static func completedImports(_ forge: PasskeyImportForge, count: Int) throws -> [PasskeyImportScenario.Request] {
        try (0..<count).flatMap { index -> [PasskeyImportScenario.Request] in
            let blueprint = try forge.importBlueprint(.ios, label: "passkey \(index)", at: forge.time + Double(index) * 120)
            return [.start(blueprint), .complete(blueprint)]
        }
    }

    /// An ordinary `none`-attested passkey of `user` with this credential id.
    static func ordinaryPasskey(_ forge: PasskeyImportForge, user: String, credentialId: [UInt8]) throws -> RegistrationBlueprint {
        try RegistrationBlueprint(user: Array(user.utf8), challenge: try forge.seed.bytes("import ordinary passkey challenge", count: 32),
                                  origin: forge.origin, rpId: forge.rpId, aaguid: Array(repeating: 0, count: 16),
                                  credentialId: credentialId, credentialKey: try forge.seed.key(.ec(.p256), "import ordinary passkey"),
                                  statement: .none)
    }

    static let definitions: [Definition] = valid + challengeDefinitions + requestDefinitions + evidenceDefinitions
        + assertionDefinitions

    static let valid: [Definition] = [
        Definition(variant: "ios", rule: nil, importance: .critical,
                   description: "An iOS import (App Attest of the app, X9.63 key), then two assertions whose counter stays 0, each with a per-approval App Attest assertion.") { forge in
            let blueprint = try forge.importBlueprint(.ios)
            return PasskeyImportScenario(requests: [
                .start(blueprint), .complete(blueprint),
                .assertion(try forge.assertion(by: blueprint, signCount: 0, label: "0", deviceCounter: 1)),
                .assertion(try forge.assertion(by: blueprint, signCount: 0, label: "1", deviceCounter: 2)),
            ])
        },
        Definition(variant: "android", rule: nil, importance: .critical,
                   description: "An Android import (Key Attestation of the passkey key, SPKI), then assertions with counters 1 and 2; a deviceAttestation sent with the Android credential is ignored.") { forge in
            let blueprint = try forge.importBlueprint(.android)
            var second = try forge.assertion(by: blueprint, signCount: 2, label: "1")
            second.deviceAttestation = AssertionBlueprint(signingKey: try forge.appAttest.otherKey(), keyId: Array(repeating: 7, count: 32),
                                                          challenge: second.webAuthn.challenge, appId: forge.appAttest.appId, counter: 1)
            return PasskeyImportScenario(requests: [
                .start(blueprint), .complete(blueprint),
                .assertion(try forge.assertion(by: blueprint, signCount: 1, label: "0")), .assertion(second),
            ])
        },
        Definition(variant: "new-start-replaces", rule: nil, importance: .high,
                   description: "A second start replaces the unfinished first; completing the second succeeds nine minutes after it started.") { forge in
            let first = try forge.importBlueprint(.ios, label: "first")
            var second = try forge.importBlueprint(.ios, label: "second", at: forge.time + 30)
            second.completeTime = second.startTime + 540
            return PasskeyImportScenario(requests: [.start(first), .start(second), .complete(second)])
        },
    ]

    static let challengeDefinitions: [Definition] = [
        Definition(variant: "replaced", rule: .importChallengeKnown, importance: .high,
                   description: "complete names the challenge of a start that a newer start replaced.") { forge in
            let first = try forge.importBlueprint(.ios, label: "first")
            let second = try forge.importBlueprint(.ios, label: "second", at: forge.time + 30)
            return PasskeyImportScenario(requests: [.start(first), .start(second), .complete(first)], brokenStep: 2)
        },
        Definition(variant: "unknown-id", rule: .importChallengeKnown, importance: .high,
                   description: "complete names a challengeId that was never issued (a server that takes the user's latest challenge accepts it).") { forge in
            let unknown = try forge.uuid("never issued")
            return try brokenComplete(forge, .ios) {
                $0.completedChallengeId = unknown
                $0.proof["challengeId"] = unknown
            }
        },
        Definition(variant: "replayed", rule: .importChallengeKnown, importance: .critical,
                   description: "After a successful import, the same challenge is completed again with another credential.") { forge in
            let first = try forge.importBlueprint(.ios)
            var replay = try forge.importBlueprint(.ios, label: "replayed passkey")
            replay.challenge = first.challenge
            replay.challengeId = first.challengeId
            replay.attestation = first.attestation
            replay.startTime = first.startTime
            replay.completeTime = first.completeTime + 30
            try replay.refreshProof()
            return PasskeyImportScenario(requests: [.start(first), .complete(first), .complete(replay)], brokenStep: 2,
                                         repetitions: [2: StepRepetition(.answer, of: 1)])
        },
        Definition(variant: "expired", rule: .importChallengeLifetime, importance: .high,
                   description: "complete arrives 10 minutes and 1 second after start.") { forge in
            try brokenComplete(forge, .ios) { $0.completeTime = $0.startTime + 601 }
        },
        Definition(variant: "retry-after-failure", rule: .importChallengeConsumedOnFailure, importance: .high,
                   description: "A complete fails on its App Attest nonce (refused under appattest.nonce), then a valid complete reuses the consumed challenge.") { forge in
            let good = try forge.importBlueprint(.ios)
            var bad = good
            guard case .appAttest(var attestation) = bad.attestation else { throw CatalogueError.badParameter("platform", "IOS") }
            attestation.clientDataHash = good.challenge
            bad.attestation = .appAttest(attestation)
            var retry = good
            retry.completeTime = good.completeTime + 20
            return PasskeyImportScenario(requests: [.start(good), .complete(bad), .complete(retry)], brokenStep: 2,
                                         refusedSetUp: [1: RuleID.appAttestNonce.rawValue])
        },
        Definition(variant: "sixth-at-start", rule: .importPasskeyCap, importance: .medium,
                   description: "A user with five imported passkeys starts a sixth import.") { forge in
            let sixth = try forge.importBlueprint(.ios, label: "passkey 5", at: forge.time + 600)
            return PasskeyImportScenario(requests: try completedImports(forge, count: 5) + [.start(sixth)], brokenStep: 10)
        },
        Definition(variant: "fifth-registered-before-complete", rule: .importPasskeyCap, importance: .medium,
                   description: "A user with four passkeys starts an import, registers an ordinary fifth passkey, then completes the import.") { forge in
            let fifth = try forge.importBlueprint(.ios, label: "passkey 4", at: forge.time + 480)
            let ordinary = try ordinaryPasskey(forge, user: fifth.user, credentialId: try forge.seed.bytes("import ordinary id", count: 16))
            return PasskeyImportScenario(
                requests: try completedImports(forge, count: 4) + [.start(fifth), .registration(ordinary, fifth.startTime + 20), .complete(fifth)],
                brokenStep: 10)
        },
    ]

    static let requestDefinitions: [Definition] = [
        Definition(variant: "15-bytes", rule: .importCredentialIdLength, importance: .low,
                   description: "credentialId is 15 bytes.") { forge in
            let id = try forge.seed.bytes("import short credential id", count: 15)
            return try brokenComplete(forge, .ios) {
                $0.credentialId = id
                try $0.refreshProof()
            }
        },
        Definition(variant: "65-bytes", rule: .importCredentialIdLength, importance: .low,
                   description: "credentialId is 65 bytes.") { forge in
            let id = try forge.seed.bytes("import long credential id", count: 65)
            return try brokenComplete(forge, .android) {
                $0.credentialId = id
                try $0.refreshProof()
            }
        },
        Definition(variant: "second-import", rule: .importCredentialIdUnique, importance: .high,
                   description: "A second import reuses the credentialId of the first.") { forge in
            let first = try forge.importBlueprint(.ios)
            var second = try forge.importBlueprint(.android, label: "second", at: forge.time + 120)
            second.credentialId = first.credentialId
            try second.refreshProof()
            return PasskeyImportScenario(requests: [.start(first), .complete(first), .start(second), .complete(second)], brokenStep: 3)
        },
        Definition(variant: "ordinary-passkey", rule: .importCredentialIdUnique, importance: .high,
                   description: "The import reuses the credential id of the user's ordinary passkey.") { forge in
            var blueprint = try forge.importBlueprint(.ios)
            let ordinary = try ordinaryPasskey(forge, user: blueprint.user, credentialId: try forge.seed.bytes("import ordinary id", count: 16))
            blueprint.credentialId = ordinary.credentialId
            try blueprint.refreshProof()
            return PasskeyImportScenario(requests: [.registration(ordinary, forge.time - 60), .start(blueprint), .complete(blueprint)],
                                         brokenStep: 2)
        },
        Definition(variant: "p384", rule: .importKey, importance: .medium,
                   description: "The iOS passkey key is P-384 (the policy asks for P-256).") { forge in
            let key = try forge.seed.key(.ec(.p384), "import passkey p384")
            return try brokenComplete(forge, .ios) {
                $0.passkeyKey = key
                try $0.refreshProof()
            }
        },
        Definition(variant: "extra-member", rule: .importProofMembers, importance: .low,
                   description: "The proof carries a seventh member.") { forge in
            try brokenComplete(forge, .ios) { $0.proof["nonce"] = "extra" }
        },
        Definition(variant: "user-and-business", rule: .importProofMembers, importance: .low,
                   description: "The proof carries both userId and businessId.") { forge in
            try brokenComplete(forge, .android) { $0.proof["businessId"] = $0.user }
        },
    ]

    static let evidenceDefinitions: [Definition] = [
        Definition(variant: "type", rule: .importProofBinding, importance: .high,
                   description: "The proof's type is webauthn.get.") { forge in
            try brokenComplete(forge, .ios) { $0.proof["type"] = WebAuthnFormat.getType }
        },
        Definition(variant: "challenge", rule: .importProofBinding, importance: .critical,
                   description: "The proof carries another challenge than the issued one.") { forge in
            let other = try forge.seed.bytes("import other challenge", count: 32)
            return try brokenComplete(forge, .android) { $0.proof["challenge"] = Base64URL.encode(other) }
        },
        Definition(variant: "challenge-id", rule: .importProofBinding, importance: .high,
                   description: "The proof carries another challengeId.") { forge in
            let other = try forge.uuid("other challenge id")
            return try brokenComplete(forge, .ios) { $0.proof["challengeId"] = other }
        },
        Definition(variant: "user", rule: .importProofBinding, importance: .critical,
                   description: "The proof names another user.") { forge in
            let bob = try forge.user("bob")
            return try brokenComplete(forge, .ios) { $0.proof["userId"] = bob }
        },
        Definition(variant: "credential-id", rule: .importProofBinding, importance: .high,
                   description: "The proof names another credentialId than passkey.credentialId.") { forge in
            let other = try forge.seed.bytes("import proof other credential id", count: 16)
            return try brokenComplete(forge, .android) { $0.proof["credentialId"] = Base64URL.encode(other) }
        },
        Definition(variant: "hash-of-base64", rule: .importProofPublicKeyHash, importance: .medium,
                   description: "publicKeySha256 hashes the base64url text of the key, not the decoded bytes.") { forge in
            try brokenComplete(forge, .ios) {
                $0.proof["publicKeySha256"] = Base64URL.encode(sha256(Array(Base64URL.encode(try $0.publicKeyBytes()).utf8)))
            }
        },
        Definition(variant: "spki-hash-for-point", rule: .importProofPublicKeyHash, importance: .medium,
                   description: "publicKeySha256 hashes the SPKI while the key is sent as an X9.63 point.") { forge in
            try brokenComplete(forge, .ios) { $0.proof["publicKeySha256"] = Base64URL.encode(sha256($0.passkeyKey.publicKey.spki)) }
        },
        Definition(variant: "other-key", rule: .importProofSignature, importance: .critical,
                   description: "The proof is signed by another key than the passkey key.") { forge in
            let other = try forge.seed.key(.ec(.p256), "import other proof signer")
            return try brokenComplete(forge, .android) { $0.proofSigner = other }
        },
        Definition(variant: "raw-signature", rule: .importProofSignature, importance: .low,
                   description: "The proof signature is raw r || s, not DER.") { forge in
            try brokenComplete(forge, .ios) { $0.proofSignatureEncoding = { (try? ECDSASignatureValue(der: $0).raw(curve: .p256)) ?? $0 } }
        },
        Definition(variant: "other-bytes", rule: .importProofSignature, importance: .critical,
                   description: "The proof signature covers other bytes than proofClientData.") { forge in
            try brokenComplete(forge, .ios) { $0.signedProof = Array("{}".utf8) }
        },
        Definition(variant: "import-raw-challenge", rule: .appAttestNonce, importance: .critical,
                   description: "The iOS App Attest clientDataHash is the raw challenge, not its SHA-256 (100012 NONCE).") { forge in
            try brokenComplete(forge, .ios) { blueprint in
                guard case .appAttest(var attestation) = blueprint.attestation else { return }
                attestation.clientDataHash = blueprint.challenge
                blueprint.attestation = .appAttest(attestation)
            }
        },
        Definition(variant: "import-other-challenge", rule: .androidChallenge, importance: .critical,
                   description: "The Android attestationChallenge is another challenge (100012 NONCE).") { forge in
            let other = try forge.seed.bytes("import android other challenge", count: 32)
            return try brokenComplete(forge, .android) { blueprint in
                guard case .androidKey(var scenario, let pki) = blueprint.attestation else { return }
                scenario.attestation.keyDescription.attestationChallenge = other
                blueprint.attestation = .androidKey(scenario, pki)
            }
        },
        Definition(variant: "import-auth-timeout", rule: .androidAuthTimeout, importance: .high,
                   description: "The Android passkey key carries authTimeout 30 s (100012 POLICY).") { forge in
            try brokenComplete(forge, .android) { blueprint in
                guard case .androidKey(var scenario, let pki) = blueprint.attestation else { return }
                scenario.attestation.keyDescription.hardwareEnforced.set(.authTimeout, .integer(30))
                blueprint.attestation = .androidKey(scenario, pki)
            }
        },
    ]

    static let assertionDefinitions: [Definition] = [
        Definition(variant: "other-import", rule: .importDeviceAttestationKey, importance: .high,
                   description: "The per-approval App Attest assertion is made with the App Attest key of the user's other import.") { forge in
            let first = try forge.importBlueprint(.ios, label: "first")
            let second = try forge.importBlueprint(.ios, label: "second", at: forge.time + 120)
            var assertion = try forge.assertion(by: first, signCount: 0, label: "0", deviceCounter: 1, at: second.completeTime + 60)
            let secondKey = second.appAttestKey!  // `second` is an iOS import, which has an App Attest key
            assertion.deviceAttestation?.signingKey = secondKey.key
            assertion.deviceAttestation?.keyId = secondKey.keyId
            return PasskeyImportScenario(requests: [.start(first), .complete(first), .start(second), .complete(second), .assertion(assertion)],
                                         brokenStep: 4)
        },
        Definition(variant: "per-approval-other-client-data", rule: .appAttestAssertionSignature, importance: .high,
                   description: "The per-approval App Attest assertion covers a clientDataJSON with another origin.") { forge in
            try brokenAssertion(forge, deviceAttestation: true) { assertion in
                var other = assertion.webAuthn.clientData
                other.origin = "https://evil.test"
                assertion.deviceClientDataOverride = other.bytes
            }
        },
        Definition(variant: "per-approval-replayed", rule: .appAttestAssertionCounter, importance: .high,
                   description: "Two approvals carry App Attest assertions with the same counter.") { forge in
            let blueprint = try forge.importBlueprint(.ios)
            return PasskeyImportScenario(requests: [
                .start(blueprint), .complete(blueprint),
                .assertion(try forge.assertion(by: blueprint, signCount: 0, label: "0", deviceCounter: 1)),
                .assertion(try forge.assertion(by: blueprint, signCount: 0, label: "1", deviceCounter: 1)),
            ], brokenStep: 3)
        },
        Definition(variant: "import-equal", rule: .webAuthnSignCount, importance: .high,
                   description: "The imported key's counter is 3, then 3 again.") { forge in
            try brokenAssertion(forge, counters: [3, 3]) { _ in }
        },
        Definition(variant: "import-nonzero-then-zero", rule: .webAuthnSignCount, importance: .high,
                   description: "The imported key's counter is 3, then 0.") { forge in
            try brokenAssertion(forge, counters: [3, 0]) { _ in }
        },
        Definition(variant: "import-up-only", rule: .webAuthnUserVerified, importance: .critical,
                   description: "The assertion's flags are 0x01: no user verification, so the biometric did not release the key.") { forge in
            try brokenAssertion(forge) { $0.webAuthn.flags = [.userPresent] }
        },
        Definition(variant: "import-uv-only", rule: .webAuthnUserPresent, importance: .medium,
                   description: "The assertion's flags are 0x04: UP clear.") { forge in
            try brokenAssertion(forge) { $0.webAuthn.flags = [.userVerified] }
        },
        Definition(variant: "import-other-data", rule: .webAuthnAssertionSignature, importance: .critical,
                   description: "The imported key signed other authenticator data.") { forge in
            try brokenAssertion(forge) { $0.webAuthn.signedMessage = Array(repeating: 0x42, count: 69) }
        },
        Definition(variant: "import-other-challenge", rule: .webAuthnChallenge, importance: .critical,
                   description: "The assertion answers another approval's challenge.") { forge in
            let other = try forge.seed.bytes("import other approval challenge", count: 32)
            return try brokenAssertion(forge) { $0.webAuthn.clientData.challenge = Base64URL.encode(other) }
        },
        Definition(variant: "import-other-host", rule: .webAuthnOrigin, importance: .critical,
                   description: "The assertion's origin is not an allowed origin of the application.") { forge in
            try brokenAssertion(forge) { $0.webAuthn.clientData.origin = "https://evil.test" }
        },
        Definition(variant: "import-create", rule: .webAuthnType, importance: .high,
                   description: "The assertion's clientDataJSON type is webauthn.create.") { forge in
            try brokenAssertion(forge) { $0.webAuthn.clientData.type = WebAuthnFormat.createType }
        },
        Definition(variant: "import-other-rp", rule: .webAuthnRpIdHash, importance: .critical,
                   description: "authenticatorData hashes another rpId than the relyingPartyId returned at import.") { forge in
            try brokenAssertion(forge) { $0.webAuthn.rpIdHash = sha256(Array("evil.test".utf8)) }
        },
        Definition(variant: "import-unregistered-id", rule: .webAuthnCredential, importance: .critical,
                   description: "The assertion names a credential id that was never imported.") { forge in
            let other = try forge.seed.bytes("import unregistered credential id", count: 16)
            return try brokenAssertion(forge) { $0.webAuthn.credentialId = other }
        },
    ]
}
