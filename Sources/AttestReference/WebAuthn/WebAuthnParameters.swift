import AttestEvidence
import AttestConformance

/// The relying party configuration a WebAuthn case carries in its parameters (see `WebAuthnFamily.stepKinds`).
struct WebAuthnParameters {
    let rpId: String
    let origins: [String]
    let topOrigins: [String]
    let allowCrossOrigin: Bool
    /// COSE alg values offered in pubKeyCredParams.
    let algorithms: [Int64]
    let userVerificationRequired: Bool
    /// A certificate chain to a trust anchor is required (`attestation: direct`).
    let attestationRequired: Bool

    init(_ policy: Policy) throws {
        func list(_ name: String) -> [String] {
            (policy.context.parameters[name] ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        rpId = try policy.parameter("rpId")
        origins = list("origins")
        topOrigins = list("topOrigins")
        allowCrossOrigin = policy.context.parameters["allowCrossOrigin"] == "true"
        algorithms = try list("algorithms").map { text in
            guard let value = Int64(text) else { throw HarnessError("parameter algorithms holds \(text), not a COSE alg") }
            return value
        }
        userVerificationRequired = policy.context.parameters["userVerification"] == "required"
        attestationRequired = policy.context.parameters["attestation"] == "direct"
    }
}
