import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// One device-bound passkey import (docs/protocols/passkey-import.md): `start` issues a challenge, then `complete`
/// sends the platform attestation of that challenge, the new key and its signed proof, as fields a mutation can change.
public struct ImportBlueprint: Sendable {
    public enum Platform: String, Sendable {
        case ios = "IOS"
        case android = "ANDROID"
    }

    /// How `passkey.publicKey` is sent.
    public enum KeyEncoding: Sendable {
        /// The 65-byte point iOS exports.
        case x963
        /// DER SubjectPublicKeyInfo, as Android's `getEncoded()` gives it.
        case spki
    }

    /// The platform evidence: App Attest of the app (iOS) or Key Attestation of the passkey key (Android).
    public enum Attestation: Sendable {
        case appAttest(AttestationBlueprint)
        case androidKey(AndroidScenario, AndroidPKI)
    }

    public var user: String
    public var platform: Platform
    /// The identifier the app reports (`app.bundleId` or `app.packageName`).
    public var app: String
    public var challenge: [UInt8]
    public var challengeId: String
    public var startTime: Date
    public var completeTime: Date
    /// The challenge id the complete request names; nil means `challengeId`.
    public var completedChallengeId: String?
    public var credentialId: [UInt8]
    public var passkeyKey: PrivateKey
    public var keyEncoding: KeyEncoding
    public var attestation: Attestation
    public var proof: ImportProof
    /// Sign the proof with this key instead of the passkey key.
    public var proofSigner: PrivateKey?
    /// Sign these bytes instead of the proof's.
    public var signedProof: [UInt8]?
    /// Rewrites the DER proof signature.
    public var proofSignatureEncoding: (@Sendable ([UInt8]) -> [UInt8])?

    public init(user: String, platform: Platform, app: String, challenge: [UInt8], challengeId: String, startTime: Date,
                completeTime: Date, credentialId: [UInt8], passkeyKey: PrivateKey, keyEncoding: KeyEncoding,
                attestation: Attestation) throws {
        self.user = user
        self.platform = platform
        self.app = app
        self.challenge = challenge
        self.challengeId = challengeId
        self.startTime = startTime
        self.completeTime = completeTime
        self.credentialId = credentialId
        self.passkeyKey = passkeyKey
        self.keyEncoding = keyEncoding
        self.attestation = attestation
        proof = ImportProof(challenge: "", challengeId: "", userId: "", credentialId: "", publicKeySha256: "")
        try refreshProof()
    }

    /// Rebuilds the proof from the current fields (after a mutation of the key, the credential id...).
    public mutating func refreshProof() throws {
        proof = ImportProof(challenge: Base64URL.encode(challenge), challengeId: challengeId, userId: user,
                            credentialId: Base64URL.encode(credentialId),
                            publicKeySha256: Base64URL.encode(sha256(try publicKeyBytes())))
    }

    /// `passkey.publicKey` as sent.
    public func publicKeyBytes() throws -> [UInt8] {
        switch keyEncoding {
        case .x963: return try passkeyKey.publicKey.x963Point
        case .spki: return passkeyKey.publicKey.spki
        }
    }

    /// The inputs of the start request.
    public var startInputs: [InputKey: [UInt8]] {
        [.user: Array(user.utf8), .platform: Array(platform.rawValue.utf8), .challenge: challenge,
         .challengeId: Array(challengeId.utf8)]
    }

    /// The inputs of the complete request.
    public func completeInputs() throws -> [InputKey: [UInt8]] {
        let proofBytes = proof.bytes
        var signature = try (proofSigner ?? passkeyKey).sign(signedProof ?? proofBytes, digest: .sha256)
        if let proofSignatureEncoding { signature = proofSignatureEncoding(signature) }
        var inputs: [InputKey: [UInt8]] = [
            .user: Array(user.utf8), .challengeId: Array((completedChallengeId ?? challengeId).utf8),
            .platform: Array(platform.rawValue.utf8), .app: Array(app.utf8), .credentialId: credentialId,
            .publicKey: try publicKeyBytes(), .algorithm: Array("-7".utf8), .proofClientData: proofBytes,
            .proofSignature: signature,
        ]
        switch attestation {
        case .appAttest(let blueprint):
            let output = try blueprint.render()
            inputs[.keyId] = output.keyId
            inputs[.attestationObject] = output.attestationObject
        case .androidKey(let scenario, let pki):
            inputs[.certificateChain] = try scenario.render(pki: pki).flatMap(\.der)
        }
        return inputs
    }

    /// The App Attest key of an iOS import, for per-approval assertions.
    public var appAttestKey: (key: PrivateKey, keyId: [UInt8])? {
        guard case .appAttest(let blueprint) = attestation else { return nil }
        return (blueprint.credentialKey, blueprint.keyId)
    }
}
