import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// The credential as the browser serialised it (L3 §5.1 `toJSON()`: RegistrationResponseJSON,
/// AuthenticationResponseJSON): `id` and `rawId` the same base64url id, `type` "public-key", and a `response` object
/// whose base64url members are the very values verified. A step without a credentialJSON input skips this.
enum CredentialJSONChecks {
    /// `response` members and the input each must carry; a member whose input the step lacks must be absent.
    static func verify(_ step: VerifierStep, id: [UInt8], members: [(name: String, input: InputKey)],
                       policy: Policy) throws {
        guard let text = step.inputs[.credentialJSON], policy.enforces(.webAuthnCredentialJSON) else { return }
        func require(_ condition: Bool, _ reason: @autoclosure () -> String) throws {
            try policy.require(.webAuthnCredentialJSON, condition, "credential JSON: \(reason())")
        }
        let object = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any]
        try require(object != nil, "not a JSON object")
        let credential = object ?? [:]
        let encodedId = credential["id"] as? String
        try require(encodedId.flatMap(Base64URL.decode) == id, "id is \(encodedId.map { "\"\($0)\"" } ?? "missing or not a string"), not the base64url of the credential id")
        try require(credential["rawId"] as? String == encodedId, "rawId is not the same base64url string as id")
        try require(credential["type"] as? String == "public-key", "type is not \"public-key\"")
        let response = credential["response"] as? [String: Any]
        try require(response != nil, "response is missing or not an object")
        for member in members {
            let value = response?[member.name]
            guard let expected = step.inputs[member.input] else {
                try require(value == nil || value is NSNull, "response.\(member.name) is present but the client sent none")
                continue
            }
            let sent = value as? String
            try require(sent.flatMap(Base64URL.decode) == expected,
                        "response.\(member.name) is \(sent == nil ? "missing or not a string" : "not the base64url of what was verified")")
        }
    }
}
