import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestEvidence

/// WebAuthn registration (WebAuthn L3 §7.1), each step under its rule id.
enum RegistrationVerification {
    static func verify(_ step: VerifierStep, policy: Policy, state: inout WebAuthnState) throws {
        let parameters = try WebAuthnParameters(policy.parameters)
        let clientDataJSON = try step.input(.clientDataJSON)
        let user = try step.input(.user)

        // The challenge belongs to this session and this ceremony only (§13.4.3).
        try state.useChallenge(step, policy: policy)
        // Steps 5-11.
        try CeremonyChecks.verifyClientData(clientDataJSON, type: WebAuthnFormat.createType, challenge: try step.input(.challenge),
                                            parameters, policy: policy)
        // Step 13.
        let decoded = try CBORChecks.decode(try step.input(.attestationObject), policy: policy, structureRule: .webAuthnStructure, encoding: .webAuthn)
        let object = try CBORChecks.FormatMap(decoded, keys: ["fmt", "attStmt", "authData"], policy: policy,
                                              rule: .webAuthnStructure, name: "attestation object")
        // A verifier without webauthn.structure that never finds a text fmt, or any attStmt, reads the registration
        // as unattested: fmt none, an empty statement (what a relying party that ignores attestation does).
        let format: String
        let fmt = try? object.value("fmt")
        if let text = fmt?.textValue {
            format = text
        } else {
            try policy.require(.webAuthnStructure, false, fmt == nil ? "missing \"fmt\"" : "fmt is not a text string")
            format = WebAuthnFormat.none
        }
        let statement: CBORValue
        if let present = try? object.value("attStmt") {
            statement = present
        } else {
            try policy.require(.webAuthnStructure, false, "missing \"attStmt\"")
            statement = .map([])
        }
        let authenticatorData = try object.bytes("authData")
        let parsed = try CeremonyChecks.parseAuthenticatorData(authenticatorData, registration: true, policy: policy)
        guard let credential = parsed.attestedCredentialData else {  // parseAuthenticatorData(registration: true) requires it
            throw RuleViolation(rule: .webAuthnAuthenticatorData, reason: "no attested credential data")
        }
        // The id the client sent, and its JSON envelope, name the attested credential (L3 §7.1 step 27 stores credential.id).
        let sentId = step.inputs[.credentialId] ?? credential.credentialId
        try CredentialJSONChecks.verify(step, id: sentId, members: [("clientDataJSON", .clientDataJSON),
                                                                    ("attestationObject", .attestationObject)], policy: policy)
        try policy.require(.webAuthnCredentialIdBinding, sentId == credential.credentialId,
                           "the client sent credential id \(Base64URL.encode(sentId)), not the attested \(Base64URL.encode(credential.credentialId))")
        // Steps 14-17.
        try CeremonyChecks.verifyFlags(parsed, parameters, policy: policy)

        // Step 20.
        // nil: an EC2 point off its curve, which a verifier without webauthn.credentialKey.fit stores unread, so that
        // whatever later verifies under it (a self attestation, an assertion) fails.
        let key: COSEKey?
        let algorithm: Int64
        do {
            let read = try COSEKey(cbor: credential.credentialPublicKey, requireAlgorithmFit: policy.enforces(.webAuthnCredentialKeyFit))
            (key, algorithm) = (read, read.algorithm.rawValue)
        } catch let error as COSEKey.ParseError {
            switch error {
            case .pointNotOnCurve(let alg):
                try policy.require(.webAuthnCredentialKeyFit, false, "\(error)")
                (key, algorithm) = (nil, alg)
            case .algorithmMismatch, .compressedPoint: throw RuleViolation(rule: .webAuthnCredentialKeyFit, reason: "\(error)")
            case .unsupported(label: 3, _): throw RuleViolation(rule: .webAuthnAlgorithm, reason: "\(error)")
            default: throw RuleViolation(rule: .webAuthnStructure, reason: "\(error)")
            }
        }
        try policy.require(.webAuthnAlgorithm, parameters.algorithms.contains(algorithm),
                           "credential alg \(algorithm) was not offered (\(parameters.algorithms))")

        // Steps 21-22: a verifier without the format check skips statements it does not know.
        let trust: AttestationStatementVerification.Trust?
        if AttestationStatementVerification.supportedFormats.contains(format) {
            trust = try AttestationStatementVerification.verify(
                format: format, statement: statement, authenticatorData, parsed, credentialKey: key,
                clientDataHash: sha256(clientDataJSON), policy: policy)
        } else {
            try policy.require(.webAuthnFormat, false, "fmt \"\(format)\" is not a supported format")
            trust = nil
        }

        // Step 24.
        switch trust {
        case .none?:
            try policy.require(.webAuthnAttestationRequired, !parameters.attestationRequired, "fmt none but attestation is required")
        case .selfAttestation?:
            try policy.require(.webAuthnSelfAttestation, !parameters.attestationRequired,
                               "self attestation but an attestation certificate chain is required")
        case .certificates(let chain)?:
            let metadataAnchors = try MetadataChecks.attestationRoots(aaguid: credential.aaguid, parameters: parameters, policy: policy)
            // An android-key statement's x5c is a device's chain: its attestation key certificate has a rule of its own.
            try ChainChecks.verify(leaf: chain[0], intermediates: Array(chain.dropFirst()), policy: policy, metadataAnchors: metadataAnchors,
                                   authorityRules: format == "android-key"
                                       ? AndroidAttestationVerification.authorityRules(leaf: chain[0], in: chain) : [:])
        case nil:
            break
        }

        // Steps 25-27.
        try policy.require(.webAuthnCredentialIdLength, credential.credentialId.count <= WebAuthnFormat.maximumCredentialIdLength,
                           "credentialId is \(credential.credentialId.count) bytes, more than 1023")
        try policy.require(.webAuthnCredentialIdUnique, state.credentials[credential.credentialId] == nil,
                           "credentialId \(Base64URL.encode(credential.credentialId)) is already registered")
        state.credentials[credential.credentialId] = .init(user: user, key: key, signCount: parsed.signCount,
                                                           backupEligible: parsed.flags.contains(.backupEligible))
    }
}
