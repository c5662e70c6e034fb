import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// A device's requests in order (docs/protocols/per-request-device-attestation.md): challenges, the one-time attest
/// ceremony, then protected requests. `brokenStep` marks the request a mutation targets.
public struct PerRequestScenario: Sendable {
    public enum Request: Sendable {
        /// GET /device/challenge, answered with these 32 bytes (sent as unpadded base64url).
        case challenge([UInt8], Date)
        /// POST /device/attest on iOS: the App Attest attestation of SHA-256(challenge).
        case attestIOS(AttestationBlueprint, challenge: [UInt8], Date)
        /// POST /device/attest on Android: a Play Integrity token over the challenge, answered with this session token.
        case attestAndroid(IntegrityTokenBlueprint, challenge: [UInt8], sessionToken: String, Date)
        case request(DeviceRequestBlueprint)
    }

    public var requests: [Request]
    public var brokenStep: Int?
    /// Requests that go over an earlier request's ceremony again: sent again byte for byte (`replay`), or a new
    /// answer to its challenge (`answer`).
    public var repetitions: [Int: StepRepetition]

    public init(requests: [Request], brokenStep: Int? = nil, repetitions: [Int: StepRepetition] = [:]) {
        self.requests = requests
        self.brokenStep = brokenStep
        self.repetitions = repetitions
    }
}

/// Forges per-request device attestation for one app and account from a seed.
public struct PerRequestForge: Sendable {
    public let seed: ForgeSeed
    public let appAttest: AppAttestForge
    public let integrityKeys: PlayIntegrityKeys
    public let packageName: String
    public let signatureDigest: [UInt8]
    public let accountToken: String
    public let time: Date

    public init(seed: ForgeSeed, appId: String, environment: AppAttestFormat.Environment, packageName: String,
                signatureDigest: [UInt8], accountToken: String, time: Date = ForgeSeed.referenceTime) throws {
        self.seed = seed
        appAttest = try AppAttestForge(seed: seed, appId: appId, environment: environment, time: time)
        integrityKeys = try PlayIntegrityKeys(seed: seed)
        self.packageName = packageName
        self.signatureDigest = signatureDigest
        self.accountToken = accountToken
        self.time = time
    }

    public func challenge(_ label: String) throws -> [UInt8] { try seed.bytes("per-request challenge \(label)", count: 32) }

    /// The attested App Attest key of this device.
    public func deviceKey() throws -> PrivateKey { try appAttest.credentialKey() }

    /// iOS: a challenge and the attestation of the device key over it.
    public func attestIOS(at time: Date) throws -> [PerRequestScenario.Request] {
        let challenge = try challenge("attest")
        let attestation = try AttestationBlueprint(appId: appAttest.appId, environment: appAttest.environment,
                                                   credentialKey: try deviceKey(), challenge: challenge, time: time, pki: appAttest.pki)
        return [.challenge(challenge, time), .attestIOS(attestation, challenge: challenge, time + 1)]
    }

    /// A genuine verdict for `challenge`, issued at `time`.
    public func verdict(challenge: [UInt8], at time: Date) -> IntegrityVerdict {
        IntegrityVerdict(requestPackageName: packageName, nonce: Base64URL.encode(challenge),
                         timestampMillis: String(Int64(time.timeIntervalSince1970 * 1000)), appRecognitionVerdict: IntegrityVerdict.playRecognized,
                         packageName: packageName, certificateSha256Digest: [Base64URL.encode(signatureDigest)], versionCode: "42",
                         deviceRecognitionVerdict: ["MEETS_BASIC_INTEGRITY", IntegrityVerdict.meetsDeviceIntegrity],
                         appLicensingVerdict: "LICENSED")
    }

    /// Android: a challenge and a Play Integrity token over it, exchanged for `sessionToken`.
    public func attestAndroid(at time: Date, sessionToken: String) throws -> (challenge: [UInt8], token: IntegrityTokenBlueprint) {
        let challenge = try challenge("android attest")
        let token = IntegrityTokenBlueprint(verdict: verdict(challenge: challenge, at: time), keys: integrityKeys,
                                            contentKey: try seed.bytes("play integrity cek", count: 32),
                                            iv: try seed.bytes("play integrity iv", count: 12))
        return (challenge, token)
    }

    public func sessionToken(_ label: String) throws -> String { Base64URL.encode(try seed.bytes("session token \(label)", count: 24)) }

    /// A protected iOS request with a fresh challenge and an assertion with `counter`.
    public func iosRequest(method: String, target: String, body: [UInt8], counter: UInt32, label: String,
                           at time: Date) throws -> [PerRequestScenario.Request] {
        let challenge = try challenge("request \(label)")
        let key = try deviceKey()
        let assertion = AssertionBlueprint(signingKey: key, keyId: sha256(try key.publicKey.x963Point), challenge: challenge,
                                           appId: appAttest.appId, counter: counter)
        let request = DeviceRequestBlueprint(
            method: method, target: target, body: body, accountToken: accountToken,
            proof: .appAttest(assertion, challenge: challenge, signedFor: .init(method: method, target: target, body: body)),
            time: time + 1)
        return [.challenge(challenge, time), .request(request)]
    }

    /// A protected Android request carrying the session token.
    public func androidRequest(method: String, target: String, body: [UInt8], sessionToken: String, at time: Date) -> DeviceRequestBlueprint {
        DeviceRequestBlueprint(method: method, target: target, body: body, accountToken: accountToken,
                               proof: .sessionToken(sessionToken), time: time)
    }
}
