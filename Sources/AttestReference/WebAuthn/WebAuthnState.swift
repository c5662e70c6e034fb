import AttestConformance
import AttestCrypto
import AttestEvidence

/// What a relying party stores per credential (WebAuthn L3 §7.1 step 27): its owner, key and counter.
struct WebAuthnState {
    struct CredentialRecord {
        let user: [UInt8]
        /// nil when the registered COSE_Key held no point on its curve (stored unread by a verifier without
        /// webauthn.credentialKey.fit): nothing verifies under it.
        let key: COSEKey?
        var signCount: UInt32
        /// The App Attest key an iOS passkey import bound to the credential.
        var appAttestKeyId: [UInt8]? = nil
        /// BE at registration (§7.1 step 27's backupEligible); nil for imported credentials, whose flags are unknown.
        var backupEligible: Bool? = nil
    }

    var credentials: [[UInt8]: CredentialRecord] = [:]
    /// Credentials the relying party deleted, kept so that a verifier without webauthn.assertion.credential can be
    /// modelled as one that still finds a deleted credential (a stale cache, a soft delete nobody checks).
    var deleted: [[UInt8]: CredentialRecord] = [:]
    /// Challenges already answered (forgotten all at once past 65536, so a long-running server stays bounded;
    /// its challenges are fresh random values, never reused by honest clients).
    var usedChallenges = Set<[UInt8]>()

    /// Refuses a challenge answered before (WebAuthn §13.4.3), or one issued to another client session, then
    /// marks it used.
    mutating func useChallenge(_ step: VerifierStep, policy: Policy) throws {
        let challenge = try step.input(.challenge)
        if let session = step.inputs[.challengeSession] {
            try policy.require(.webAuthnChallengeSession, false,
                               "the challenge was issued to client session \"\(String(decoding: session, as: UTF8.self))\", not the one answering")
        }
        try policy.require(.webAuthnChallengeSingleUse, !usedChallenges.contains(challenge), "the challenge was answered before")
        if usedChallenges.count >= 65536 { usedChallenges.removeAll() }
        usedChallenges.insert(challenge)
    }

    /// Deletes a credential (its owner removed it); deleting one that is not registered changes nothing.
    mutating func delete(_ credentialId: [UInt8]) {
        guard let record = credentials.removeValue(forKey: credentialId) else { return }
        if deleted.count >= 1024 { deleted.removeAll() }
        deleted[credentialId] = record
    }

    func passkeyCount(of user: [UInt8]) -> Int { credentials.values.filter { $0.user == user }.count }
}
