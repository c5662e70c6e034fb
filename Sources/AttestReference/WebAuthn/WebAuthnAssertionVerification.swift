import AttestConformance
import Foundation
import AttestCrypto
import AttestEvidence

/// WebAuthn authentication (WebAuthn L3 §7.2), each step under its rule id.
enum WebAuthnAssertionVerification {
    static func verify(_ step: VerifierStep, policy: Policy, server: inout ServerState) throws {
        let parameters = try WebAuthnParameters(policy.parameters)
        let credentialId = try step.input(.credentialId)
        try CredentialJSONChecks.verify(step, id: credentialId, members: [("clientDataJSON", .clientDataJSON),
                                                                         ("authenticatorData", .authenticatorData),
                                                                         ("signature", .signature), ("userHandle", .userHandle)],
                                        policy: policy)
        let clientDataJSON = try step.input(.clientDataJSON)
        let authenticatorData = try step.input(.authenticatorData)
        let user = try step.input(.user)
        // The challenge belongs to this session and this ceremony only (§13.4.3).
        try server.webAuthn.useChallenge(step, policy: policy)

        // Step 5: a credential the options listed.
        if let listed = step.inputs[.allowCredentials] {
            guard let allowed = try? JSONSerialization.jsonObject(with: Data(listed)) as? [String] else {
                throw UnreadableEvidence("allowCredentials is not a JSON array of base64url strings")
            }
            try policy.require(.webAuthnCredential, allowed.contains(Base64URL.encode(credentialId)),
                               "credential \(Base64URL.encode(credentialId)) is not one of the \(allowed.count) the options allowed")
        }
        // Step 6: the record by rawId; a verifier without that check uses the user's credential, or still finds a
        // deleted one.
        let recordId: [UInt8]
        if server.webAuthn.credentials[credentialId] != nil {
            recordId = credentialId
        } else if let deleted = server.webAuthn.deleted[credentialId] {
            try policy.require(.webAuthnCredential, false, "credential \(Base64URL.encode(credentialId)) was deleted")
            server.webAuthn.credentials[credentialId] = deleted
            recordId = credentialId
        } else {
            try policy.require(.webAuthnCredential, false, "credential \(Base64URL.encode(credentialId)) is not registered")
            guard let owned = server.webAuthn.credentials.first(where: { $0.value.user == user })?.key else {
                throw RuleViolation(rule: .webAuthnCredential, reason: "the user has no registered credential")
            }
            recordId = owned
        }
        guard var record = server.webAuthn.credentials[recordId] else {  // recordId is a key of this dictionary
            throw RuleViolation(rule: .webAuthnCredential, reason: "credential \(Base64URL.encode(recordId)) is not registered")
        }
        try policy.require(.webAuthnOwner, record.user == user, "the credential belongs to another user than the ceremony's")
        if let userHandle = step.inputs[.userHandle] {
            try policy.require(.webAuthnUserHandle, userHandle == record.user, "userHandle is not the credential owner's")
        }

        // A per-approval App Attest assertion (docs/protocols/passkey-import.md §6.2) is checked first, against the key
        // the import bound; credentials without one (Android, ordinary passkeys) ignore it.
        if let deviceAssertion = step.inputs[.appAttestAssertion], let boundKeyId = record.appAttestKeyId {
            let keyId = step.inputs[.appAttestKeyId] ?? []
            try policy.require(.importDeviceAttestationKey, keyId == boundKeyId,
                               "the App Attest key \(hex(keyId)) is not the one bound to this credential")
            try AssertionVerification.verify(VerifierStep(kind: .appAttestAssertion, inputs: [
                .assertion: deviceAssertion, .clientData: clientDataJSON, .keyId: keyId,
                .challenge: Array(Base64URL.encode(try step.input(.challenge)).utf8),
            ]), policy: policy, state: &server.appAttest)
        }

        // Steps 8-14.
        try CeremonyChecks.verifyClientData(clientDataJSON, type: WebAuthnFormat.getType, challenge: try step.input(.challenge),
                                            parameters, policy: policy)
        // Steps 15-18.
        let parsed = try CeremonyChecks.parseAuthenticatorData(authenticatorData, registration: false, policy: policy)
        try CeremonyChecks.verifyFlags(parsed, parameters, policy: policy)
        // Step 19: backup eligibility is fixed for the credential's lifetime.
        if let registered = record.backupEligible {
            try policy.require(.webAuthnBackupEligibility, parsed.flags.contains(.backupEligible) == registered,
                               "BE is \(parsed.flags.contains(.backupEligible) ? "set" : "clear") but was \(registered ? "set" : "clear") at registration")
        }
        // Steps 20-21.
        if let key = record.key {
            let signature = try CeremonyChecks.signatureBytes(try step.input(.signature), for: key.publicKey, policy: policy)
            try policy.require(.webAuthnAssertionSignature, key.verify(signature, for: authenticatorData + sha256(clientDataJSON)),
                               "signature does not verify over authenticatorData || SHA-256(clientDataJSON) with the stored key")
        } else {
            try policy.require(.webAuthnAssertionSignature, false, "the stored key is no point on its curve: no signature verifies under it")
        }
        // Step 22.
        if parsed.signCount != 0 || record.signCount != 0 {
            try policy.require(.webAuthnSignCount, parsed.signCount > record.signCount,
                               "signCount \(parsed.signCount) is not greater than the stored \(record.signCount)")
        }
        // Step 24.
        record.signCount = parsed.signCount
        server.webAuthn.credentials[recordId] = record
    }
}
