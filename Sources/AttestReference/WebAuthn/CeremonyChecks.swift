import Foundation
import AttestConformance
import AttestCrypto
import AttestEvidence

/// The checks registration and authentication share: client data (§7.1 steps 5-11, §7.2 steps 8-14) and the
/// authenticator data's rpIdHash and flags (§7.1 steps 14-17, §7.2 steps 15-18).
enum CeremonyChecks {
    static func verifyClientData(_ bytes: [UInt8], type: String, challenge: [UInt8], _ parameters: WebAuthnParameters,
                                 policy: Policy) throws {
        let clientData: CollectedClientData
        do {
            clientData = try CollectedClientData(parsing: bytes)
        } catch {
            clientData = try memberByMember(bytes, error, policy: policy)
        }
        try policy.require(.webAuthnType, clientData.type == type, "type is \"\(clientData.type)\", not \"\(type)\"")
        try policy.require(.webAuthnChallenge, clientData.challenge == Base64URL.encode(challenge),
                           "challenge \"\(clientData.challenge)\" is not the base64url of the issued challenge")
        try policy.require(.webAuthnOrigin, parameters.origins.contains(clientData.origin),
                           "origin \"\(clientData.origin)\" is not one of \(parameters.origins)")
        try policy.require(.webAuthnCrossOrigin, clientData.crossOrigin != true || parameters.allowCrossOrigin,
                           "crossOrigin is true but the relying party is not embedded cross-origin")
        if let topOrigin = clientData.topOrigin {
            try policy.require(.webAuthnTopOrigin, parameters.topOrigins.contains(topOrigin),
                               "topOrigin \"\(topOrigin)\" is not an expected parent origin")
        }
    }

    /// A clientDataJSON the strict parser refused: when it is a JSON object whose type, challenge or origin is missing
    /// or not a string, the step that reads that member fails (§7.1 steps 7-9, §7.2 steps 10-12), under that
    /// member's rule; anything else is not client data at all (`webauthn.structure`). A verifier without the member's
    /// rule reads the member as empty and goes on; one without `webauthn.structure` reads a JSON object it can.
    static func memberByMember(_ bytes: [UInt8], _ error: any Error, policy: Policy) throws -> CollectedClientData {
        guard String(validating: bytes, as: UTF8.self) != nil,
              let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw RuleViolation(rule: .webAuthnStructure, reason: "\(error)")
        }
        let members: [(key: String, rule: RuleID)] = [("type", .webAuthnType), ("challenge", .webAuthnChallenge), ("origin", .webAuthnOrigin)]
        if !members.contains(where: { !(object[$0.key] is String) }) {
            // Every member is there and a string, yet the strict parser refused: a mistyped optional member, or a
            // member given twice with different values. A verifier without the check reads it as Foundation's
            // JSONSerialization does (the last of duplicated names).
            try policy.require(.webAuthnStructure, false, "\(error)")
        }
        var values: [String: String] = [:]
        for (key, rule) in members {
            if let text = object[key] as? String {
                values[key] = text
            } else {
                try policy.require(rule, false, "clientDataJSON member \(key) is missing or not a string")
                values[key] = ""
            }
        }
        return CollectedClientData(type: values["type"] ?? "", challenge: values["challenge"] ?? "", origin: values["origin"] ?? "",
                                   crossOrigin: object["crossOrigin"] as? Bool, topOrigin: object["topOrigin"] as? String)
    }

    /// Parses authenticator data: attested credential data must be there in a registration and absent from an
    /// assertion, and nothing may follow, under `webauthn.authenticatorData`.
    static func parseAuthenticatorData(_ bytes: [UInt8], registration: Bool, policy: Policy) throws -> AuthenticatorData {
        let strict = policy.enforces(.webAuthnAuthenticatorData)
        let data: AuthenticatorData
        do {
            // A registration whose AT is clear while credential data follows: refused here, or, without the rule,
            // read as a parser that takes the credential data whatever AT says.
            if registration && bytes.count > 37 && bytes[32] & AuthenticatorData.Flags.attestedCredentialData.rawValue == 0 {
                try policy.require(.webAuthnAuthenticatorData, false, "AT is clear but \(bytes.count - 37) bytes follow the flags and counter")
            }
            data = try AuthenticatorData(parsing: bytes, ignoreAttestedCredentialFlag: !registration, allowTrailingBytes: !strict,
                                         assumeAttestedCredentialData: registration && !strict)
        } catch let violation as RuleViolation {
            throw violation
        } catch {
            throw RuleViolation(rule: .webAuthnAuthenticatorData, reason: "authenticatorData: \(error)")
        }
        // §6.1: ED says extension data follows; set with nothing after the other fields, the data is not what it says.
        try policy.require(.webAuthnAuthenticatorData, !data.flags.contains(.extensionData) || data.extensions != nil,
                           "ED is set but no extension data follows")
        if registration {
            guard data.attestedCredentialData != nil else {
                throw RuleViolation(rule: .webAuthnAuthenticatorData, reason: "AT is clear: no attested credential data")
            }
        } else {
            try policy.require(.webAuthnAuthenticatorData, !data.flags.contains(.attestedCredentialData),
                               "AT is set in an assertion")
        }
        return data
    }

    static func verifyFlags(_ data: AuthenticatorData, _ parameters: WebAuthnParameters, policy: Policy) throws {
        try policy.require(.webAuthnRpIdHash, data.rpIdHash == sha256(Array(parameters.rpId.utf8)),
                           "rpIdHash \(hex(data.rpIdHash)) is not SHA-256(\"\(parameters.rpId)\")")
        try policy.require(.webAuthnUserPresent, data.flags.contains(.userPresent), "UP is clear")
        if parameters.userVerificationRequired {
            try policy.require(.webAuthnUserVerified, data.flags.contains(.userVerified),
                               "UV is clear but user verification is required")
        }
        try policy.require(.webAuthnBackupState, data.flags.contains(.backupEligible) || !data.flags.contains(.backedUp),
                           "BS is set while BE is clear")
    }

    /// §6.5.5: an ECDSA `sig` is a DER `Ecdsa-Sig-Value`. Under `rule` (webauthn.signature.encoding for an
    /// assertion, webauthn.attestation.encoding for a statement) a BER, padded or raw `r || s` signature is refused; a verifier without that check verifies what it can read from it
    /// (`ECDSASignatureValue(lenient:)`). Bytes that are no signature in any form, and signatures of other key
    /// types, pass through to the signature check.
    static func signatureBytes(_ signature: [UInt8], for key: PublicKey, policy: Policy,
                               rule: RuleID = .webAuthnSignatureEncoding) throws -> [UInt8] {
        guard case .ec(let curve) = key.algorithm, (try? ECDSASignatureValue(der: signature))?.der != signature,
              let recovered = ECDSASignatureValue(lenient: signature, curve: curve) else { return signature }
        try policy.require(rule, false, "the ECDSA signature is not a DER Ecdsa-Sig-Value")
        return recovered.der
    }
}
