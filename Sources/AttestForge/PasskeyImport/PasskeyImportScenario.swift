import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// An assertion by an imported passkey (docs/protocols/passkey-import.md §6), with the optional per-approval
/// App Attest assertion over the same clientDataJSON.
public struct PasskeyAssertion: Sendable {
    public var webAuthn: WebAuthnAssertionBlueprint
    /// `passkeyAssertion.deviceAttestation`: an App Attest assertion; its client data is replaced by the
    /// clientDataJSON at render time unless `deviceClientDataOverride` is set.
    public var deviceAttestation: AssertionBlueprint?
    public var deviceClientDataOverride: [UInt8]?
    public var time: Date

    public struct Output: Sendable {
        public let webAuthn: WebAuthnAssertionBlueprint.Output
        public let deviceKeyId: [UInt8]?
        public let deviceAssertion: [UInt8]?
    }

    public func render() throws -> Output {
        let webAuthn = try self.webAuthn.render()
        guard var device = deviceAttestation else { return Output(webAuthn: webAuthn, deviceKeyId: nil, deviceAssertion: nil) }
        device.clientData = deviceClientDataOverride ?? webAuthn.clientDataJSON
        device.signedClientData = nil
        let rendered = try device.render()
        return Output(webAuthn: webAuthn, deviceKeyId: rendered.keyId, deviceAssertion: rendered.assertion)
    }
}

/// The requests of one import scenario in order: starts, completes, ordinary passkey registrations and
/// assertions. `brokenStep` marks the request a mutation targets; `refusedSetUp` marks earlier requests that
/// are refused on purpose (a failed import whose consumed challenge a later request tests), with their rule.
public struct PasskeyImportScenario: Sendable {
    public enum Request: Sendable {
        case start(ImportBlueprint)
        case complete(ImportBlueprint)
        /// An ordinary WebAuthn passkey of the same user (it counts towards the cap), registered at this time.
        case registration(RegistrationBlueprint, Date)
        case assertion(PasskeyAssertion)
    }

    public var requests: [Request]
    public var brokenStep: Int?
    public var refusedSetUp: [Int: String]
    /// Steps that go over an earlier step's ceremony again (an answer to a challenge already answered).
    public var repetitions: [Int: StepRepetition]

    public init(requests: [Request], brokenStep: Int? = nil, refusedSetUp: [Int: String] = [:], repetitions: [Int: StepRepetition] = [:]) {
        self.requests = requests
        self.brokenStep = brokenStep
        self.refusedSetUp = refusedSetUp
        self.repetitions = repetitions
    }
}

/// Forges passkey imports for one app and relying party from a seed.
public struct PasskeyImportForge: Sendable {
    public let seed: ForgeSeed
    public let appAttest: AppAttestForge
    public let android: AndroidForge
    public let bundleId: String
    /// The relying party id start returns (`relyingPartyId`), and its web origin.
    public let rpId: String
    public let origin: String
    public let time: Date

    public init(seed: ForgeSeed, teamId: String, bundleId: String, environment: AppAttestFormat.Environment, packageName: String,
                signatureDigest: [UInt8], rpId: String, time: Date = ForgeSeed.referenceTime) throws {
        self.seed = seed
        appAttest = try AppAttestForge(seed: seed, appId: "\(teamId).\(bundleId)", environment: environment, time: time)
        android = try AndroidForge(seed: seed, packageName: packageName, signatureDigest: signatureDigest, time: time)
        self.bundleId = bundleId
        self.rpId = rpId
        origin = "https://\(rpId)"
        self.time = time
    }

    /// A UUID string derived from `label`.
    public func uuid(_ label: String) throws -> String {
        var bytes = try seed.bytes("import uuid \(label)", count: 16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let text = hex(bytes)
        let uuid = [text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4),
                    text.dropFirst(20)].joined(separator: "-")
        return seed.textSubstitutions[uuid] ?? uuid
    }

    public func user(_ label: String = "alice") throws -> String { try uuid("user \(label)") }

    /// A valid import for `user` on `platform`: started at the reference time, completed a minute later.
    public func importBlueprint(_ platform: ImportBlueprint.Platform, user: String = "alice", label: String = "passkey",
                                at start: Date? = nil) throws -> ImportBlueprint {
        let startTime = start ?? time
        let challenge = try seed.bytes("import challenge \(label)", count: 32)
        let passkeyKey = try seed.key(.ec(.p256), "import passkey \(label)")
        let attestation: ImportBlueprint.Attestation
        let app: String
        switch platform {
        case .ios:
            // A new App Attest key per import: Apple attests a key once.
            attestation = .appAttest(try AttestationBlueprint(
                appId: appAttest.appId, environment: appAttest.environment,
                credentialKey: try seed.key(.ec(.p256), "import app attest \(label)"), challenge: challenge, time: startTime,
                pki: appAttest.pki))
            app = bundleId
        case .android:
            var scenario = try android.scenario()
            scenario.attestation.key = passkeyKey
            scenario.attestation.keyDescription.attestationChallenge = challenge
            scenario.challenge = challenge
            scenario.submittedKey = passkeyKey.publicKey
            attestation = .androidKey(scenario, android.pki)
            app = android.packageName
        }
        return try ImportBlueprint(
            user: try self.user(user), platform: platform, app: app, challenge: challenge, challengeId: try uuid("challenge \(label)"),
            startTime: startTime, completeTime: startTime + 60, credentialId: try seed.bytes("import credential id \(label)", count: 16),
            passkeyKey: passkeyKey, keyEncoding: platform == .ios ? .x963 : .spki, attestation: attestation)
    }

    /// An assertion by the imported passkey: flags UP|UV (0x05), no userHandle; on iOS with a per-approval App
    /// Attest assertion when `deviceCounter` is given.
    public func assertion(by imported: ImportBlueprint, signCount: UInt32, label: String, deviceCounter: UInt32? = nil,
                          at time: Date? = nil) throws -> PasskeyAssertion {
        let webAuthn = WebAuthnAssertionBlueprint(
            user: Array(imported.user.utf8), credentialId: imported.credentialId,
            challenge: try seed.bytes("import assertion challenge \(label)", count: 32), origin: origin, rpId: rpId,
            signCount: signCount, userHandle: nil, signingKey: imported.passkeyKey)
        var device: AssertionBlueprint?
        if let deviceCounter, let appAttestKey = imported.appAttestKey {
            device = AssertionBlueprint(signingKey: appAttestKey.key, keyId: appAttestKey.keyId, challenge: webAuthn.challenge,
                                        appId: appAttest.appId, counter: deviceCounter)
        }
        return PasskeyAssertion(webAuthn: webAuthn, deviceAttestation: device, time: time ?? imported.completeTime + 60)
    }
}
