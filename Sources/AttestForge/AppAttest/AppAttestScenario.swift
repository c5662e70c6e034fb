import AttestCrypto
import AttestEvidence
import Foundation

/// An attestation followed by assertions, as one app instance produces them: the baseline every App Attest case
/// mutates. `brokenStep` marks the step a mutation targets (0 is the attestation).
public struct AppAttestScenario: Sendable {
    public var attestation: AttestationBlueprint
    public var assertions: [AssertionBlueprint]
    public var brokenStep: Int?

    public init(attestation: AttestationBlueprint, assertions: [AssertionBlueprint], brokenStep: Int?) {
        self.attestation = attestation
        self.assertions = assertions
        self.brokenStep = brokenStep
    }

    public struct Rendered: Sendable {
        public let attestation: AttestationBlueprint.Output
        public let assertions: [AssertionBlueprint.Output]
    }

    public func render() throws -> Rendered {
        Rendered(attestation: try attestation.render(), assertions: try assertions.map { try $0.render() })
    }
}

/// Forges App Attest scenarios for one app from a seed.
public struct AppAttestForge: Sendable {
    public let seed: ForgeSeed
    public let pki: AppAttestPKI
    public let appId: String
    public let environment: AppAttestFormat.Environment
    public let time: Date

    public init(seed: ForgeSeed, appId: String, environment: AppAttestFormat.Environment,
                time: Date = ForgeSeed.referenceTime) throws {
        self.seed = seed
        self.pki = try AppAttestPKI(seed: seed)
        self.appId = appId
        self.environment = environment
        self.time = time
    }

    public func credentialKey() throws -> PrivateKey { try seed.key(.ec(.p256), "app-attest credential") }

    /// Another device's key, for signatures and COSE keys that must not match.
    public func otherKey() throws -> PrivateKey { try seed.key(.ec(.p256), "app-attest other credential") }

    public func challenge(_ label: String) throws -> [UInt8] { try seed.bytes("app-attest challenge \(label)", count: 32) }

    /// A valid attestation followed by valid assertions with these counters.
    public func scenario(assertionCounters: [UInt32]) throws -> AppAttestScenario {
        let key = try credentialKey()
        let attestation = try AttestationBlueprint(
            appId: appId, environment: environment, credentialKey: key, challenge: try challenge("attestation"),
            time: time, pki: pki)
        let assertions = try assertionCounters.enumerated().map { index, counter in
            AssertionBlueprint(signingKey: key, keyId: attestation.keyId, challenge: try challenge("assertion \(index)"),
                               appId: appId, counter: counter)
        }
        return AppAttestScenario(attestation: attestation, assertions: assertions, brokenStep: nil)
    }
}
