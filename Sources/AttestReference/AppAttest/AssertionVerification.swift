import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestEvidence

/// Apple's assertion checks (steps 1-6 of "Validating apps that connect to your server"), each under its rule id.
enum AssertionVerification {
    static func verify(_ step: VerifierStep, policy: Policy, state: inout AppAttestState) throws {
        let keyId = try step.input(.keyId)
        let clientData = try step.input(.clientData)
        let challenge = try step.input(.challenge)
        let appId = try AppAttestParameters(policy.parameters).appId

        let decoded = try CBORChecks.decode(try step.input(.assertion), policy: policy, structureRule: .appAttestStructure, encoding: .appAttest)
        let object = try CBORChecks.FormatMap(decoded, keys: ["signature", "authenticatorData"], policy: policy,
                                              rule: .appAttestStructure, name: "assertion")
        let signature = try object.bytes("signature")
        let authDataBytes = try object.bytes("authenticatorData")
        guard let authData = try? AuthenticatorData(parsing: authDataBytes, ignoreAttestedCredentialFlag: true) else {
            throw RuleViolation(rule: .appAttestStructure, reason: "authenticatorData is not 37 bytes")
        }
        guard var attested = state.keys[keyId] else {
            throw RuleViolation(rule: .appAttestAssertionSignature, reason: "no attested key has id \(hex(keyId))")
        }

        // Steps 1-3: ES256 over nonce = SHA-256(authenticatorData || SHA-256(clientData)).
        let nonce = sha256(authDataBytes + sha256(clientData))
        try policy.require(.appAttestAssertionSignature, attested.publicKey.verify(signature, for: nonce, digest: .sha256),
                           "signature does not verify over SHA-256(authenticatorData || SHA-256(clientData))")
        // Step 4.
        try policy.require(.appAttestAssertionRpIdHash, authData.rpIdHash == sha256(Array(appId.utf8)),
                           "rpIdHash \(hex(authData.rpIdHash)) is not SHA-256(\"\(appId)\")")
        // Step 5.
        try policy.require(.appAttestAssertionCounter, authData.signCount > attested.counter,
                           "counter \(authData.signCount) is not greater than the stored \(attested.counter)")
        // Step 6: the client data format is the app's; ours carries the challenge bytes.
        try policy.require(.appAttestAssertionChallenge, contains(clientData, challenge),
                           "client data does not carry the issued challenge")

        attested.counter = authData.signCount
        state.keys[keyId] = attested
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
