import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// The import API's start and complete (docs/protocols/passkey-import.md §2, §5), each check under its rule, each
/// refusal with the API error the documentation gives as its status (`DocumentedStatus.importAPIError`).
enum PasskeyImportVerification {
    static func start(_ step: VerifierStep, policy: Policy, server: inout ServerState) throws {
        try withAPIError {
            let user = try text(step, .user)
            let count = server.webAuthn.passkeyCount(of: Array(user.utf8))
            try policy.require(.importPasskeyCap, count < PasskeyImportFormat.passkeyCap, "the user already holds \(count) passkeys")
            let challengeId = try text(step, .challengeId)
            server.imports.issued[challengeId] = .init(user: user, bytes: try step.input(.challenge), issuedAt: policy.context.time)
            server.imports.latest[user] = challengeId
        }
    }

    static func complete(_ step: VerifierStep, policy: Policy, server: inout ServerState) throws {
        try withAPIError {
            let user = try text(step, .user)
            let challengeId = try text(step, .challengeId)
            let credentialId = try step.input(.credentialId)
            let publicKeyBytes = try step.input(.publicKey)
            let proofBytes = try step.input(.proofClientData)

            // Validation.
            try policy.require(.importCredentialIdLength, PasskeyImportFormat.credentialIdLength.contains(credentialId.count),
                               "credentialId is \(credentialId.count) bytes, not 16 to 64")
            let proof: ImportProof
            do { proof = try ImportProof(parsing: proofBytes) } catch {
                throw RuleViolation(rule: .importProofMembers, reason: "\(error)")
            }
            let names = Set(proof.members.map(\.name))
            try policy.require(.importProofMembers, names == PasskeyImportFormat.proofMembers || names == PasskeyImportFormat.businessProofMembers,
                               "proof members are \(names.sorted()), not exactly the six documented ones")

            // The challenge: the user's latest, not consumed, at most 10 minutes old. A verifier without the
            // id check uses the user's latest challenge.
            let issued: PasskeyImportState.IssuedChallenge
            if let entry = server.imports.issued[challengeId] {
                issued = entry
            } else {
                try policy.require(.importChallengeKnown, false, "challengeId \(challengeId) was never issued")
                guard let latest = server.imports.latest[user].flatMap({ server.imports.issued[$0] }) else {
                    throw RuleViolation(rule: .importChallengeKnown, reason: "the user has no challenge")
                }
                issued = latest
            }
            try policy.require(.importChallengeKnown, issued.user == user && server.imports.latest[user] == challengeId,
                               "challengeId \(challengeId) is not the user's latest challenge")
            switch issued.consumed {
            case .succeeded?: try policy.require(.importChallengeKnown, false, "the challenge was already used by an import")
            case .failed?: try policy.require(.importChallengeConsumedOnFailure, false, "the challenge was consumed by a failed import")
            case nil: break
            }
            let age = policy.context.time.timeIntervalSince(issued.issuedAt)
            try policy.require(.importChallengeLifetime, age <= PasskeyImportFormat.challengeLifetime,
                               "the challenge is \(Int(age)) s old, more than 600")
            let count = server.webAuthn.passkeyCount(of: Array(user.utf8))
            try policy.require(.importPasskeyCap, count < PasskeyImportFormat.passkeyCap, "the user already holds \(count) passkeys")

            // From here the challenge is consumed, whether or not the import succeeds.
            do {
                try importKey(step, policy: policy, server: &server, user: user, challengeId: challengeId, challenge: issued.bytes,
                              credentialId: credentialId, publicKeyBytes: publicKeyBytes, proof: proof, proofBytes: proofBytes)
                server.imports.issued[challengeId]?.consumed = .succeeded
            } catch {
                if policy.enforces(.importChallengeConsumedOnFailure) { server.imports.issued[challengeId]?.consumed = .failed }
                throw error
            }
        }
    }

    /// The checks after the challenge is consumed: platform evidence, key policy, proof, uniqueness.
    static func importKey(_ step: VerifierStep, policy: Policy, server: inout ServerState, user: String, challengeId: String, challenge: [UInt8],
                          credentialId: [UInt8], publicKeyBytes: [UInt8], proof: ImportProof, proofBytes: [UInt8]) throws {
        guard let key = publicKey(publicKeyBytes) else {
            throw RuleViolation(rule: .importKey, reason: "passkey.publicKey is neither an X9.63 point nor a SubjectPublicKeyInfo")
        }
        var appAttestKeyId: [UInt8]?
        switch try text(step, .platform) {
        case "IOS":
            let keyId = try step.input(.keyId)
            try AttestationVerification.verify(VerifierStep(kind: .appAttestAttestation, inputs: [
                .attestationObject: try step.input(.attestationObject), .keyId: keyId, .challenge: challenge,
            ]), policy: policy, state: &server.appAttest)
            appAttestKeyId = keyId
        case "ANDROID":
            try AndroidAttestationVerification.verify(VerifierStep(kind: .androidKeyAttestation, inputs: [
                .certificateChain: try step.input(.certificateChain), .publicKey: key.spki, .challenge: challenge,
            ]), policy: policy)
        case let other:
            throw UnreadableEvidence("platform \(other) is neither IOS nor ANDROID")
        }
        try policy.require(.importKey, key.algorithm == .ec(.p256), "the passkey key is \(key.algorithm), not EC P-256")

        try policy.require(.importProofBinding, proof["type"] == ImportProof.type, "proof type is \(proof["type"] ?? "absent")")
        try policy.require(.importProofBinding, proof["challenge"] == Base64URL.encode(challenge), "proof challenge is not the issued one")
        try policy.require(.importProofBinding, proof["challengeId"] == challengeId, "proof challengeId is not the request's")
        try policy.require(.importProofBinding, (proof["userId"] ?? proof["businessId"]) == user, "proof userId is not the request's")
        try policy.require(.importProofBinding, proof["credentialId"] == Base64URL.encode(credentialId),
                           "proof credentialId is not passkey.credentialId")
        try policy.require(.importProofPublicKeyHash, proof["publicKeySha256"] == Base64URL.encode(sha256(publicKeyBytes)),
                           "publicKeySha256 is not SHA-256 of the decoded passkey.publicKey")
        try policy.require(.importProofSignature, key.verify(try step.input(.proofSignature), for: proofBytes, digest: .sha256),
                           "proof.signature does not verify as DER ECDSA-SHA256 with the passkey key")

        try policy.require(.importCredentialIdUnique, server.webAuthn.credentials[credentialId] == nil,
                           "credentialId \(Base64URL.encode(credentialId)) is already in use")
        server.webAuthn.credentials[credentialId] = .init(
            user: Array(user.utf8), key: COSEKey(algorithm: try COSEKey.algorithm(for: key), publicKey: key), signCount: 0,
            appAttestKeyId: appAttestKeyId)
    }

    /// An X9.63 point (65, 97 or 133 bytes starting 04) or a DER SubjectPublicKeyInfo.
    static func publicKey(_ bytes: [UInt8]) -> PublicKey? {
        if bytes.first == 0x04, let curve = ECCurve.allCases.first(where: { 1 + 2 * $0.coordinateSize == bytes.count }) {
            return try? PublicKey(x963: bytes, curve: curve)
        }
        return try? Parsed.publicKey(spki: bytes)
    }

    static func text(_ step: VerifierStep, _ key: InputKey) throws -> String { String(decoding: try step.input(key), as: UTF8.self) }

    /// Runs `body`, giving each violation the API error for its rule as status.
    static func withAPIError(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch var violation as RuleViolation {
            violation.status = DocumentedStatus.importAPIError(for: violation.rule)
            throw violation
        }
    }
}
