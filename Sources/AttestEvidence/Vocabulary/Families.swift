import AttestConformance

// The families' names, step kinds and input keys: the words the catalogue, the forge, the reference verifier, the
// adapters and the exec/vector documents share. What each step's inputs mean is documented once, in each catalogue
// family's `stepKinds` (shipped in every vector file).

extension FamilyName {
    /// Apple App Attest attestations and assertions.
    public static let appAttest = FamilyName("app-attest")
    /// Android Key Attestation certificate chains.
    public static let androidKey = FamilyName("android-key")
    /// WebAuthn registrations (every attestation format) and assertions.
    public static let webAuthn = FamilyName("webauthn")
    /// The device-bound passkey import ceremony (start, complete, then assertions).
    public static let passkeyImport = FamilyName("passkey-import")
    /// Per-request device attestation (App Attest assertions per request, Play Integrity sessions).
    public static let perRequest = FamilyName("per-request")
    /// Biometric step-up signing (register, challenge, approve).
    public static let stepUp = FamilyName("step-up")
}

extension StepKind {
    public static let appAttestAttestation = StepKind("app-attest.attestation")
    public static let appAttestAssertion = StepKind("app-attest.assertion")
    public static let androidKeyAttestation = StepKind("android-key.attestation")
    public static let webAuthnRegistration = StepKind("webauthn.registration")
    public static let webAuthnAssertion = StepKind("webauthn.assertion")
    /// The relying party deletes a registered credential (the user removed the passkey from the account).
    public static let webAuthnDeletion = StepKind("webauthn.deletion")
    public static let passkeyImportStart = StepKind("passkey-import.start")
    public static let passkeyImportComplete = StepKind("passkey-import.complete")
    public static let perRequestChallenge = StepKind("per-request.challenge")
    public static let perRequestAttest = StepKind("per-request.attest")
    public static let perRequestRequest = StepKind("per-request.request")
    public static let stepUpRegister = StepKind("step-up.register")
    public static let stepUpChallenge = StepKind("step-up.challenge")
    public static let stepUpApprove = StepKind("step-up.approve")
}

extension InputKey {
    public static let account = InputKey("account")
    /// The credential ids the relying party listed in an assertion's options (`allowCredentials`, WebAuthn L3 §7.2
    /// step 5), as a JSON array of unpadded base64url strings (UTF-8); absent when the list was empty.
    public static let allowCredentials = InputKey("allowCredentials")
    public static let action = InputKey("action")
    public static let algorithm = InputKey("algorithm")
    public static let app = InputKey("app")
    public static let appAttestAssertion = InputKey("appAttestAssertion")
    public static let appAttestKeyId = InputKey("appAttestKeyId")
    public static let assertion = InputKey("assertion")
    public static let attestationObject = InputKey("attestationObject")
    public static let authenticatorData = InputKey("authenticatorData")
    public static let body = InputKey("body")
    public static let certificateChain = InputKey("certificateChain")
    public static let challenge = InputKey("challenge")
    public static let challengeId = InputKey("challengeId")
    public static let challengeSession = InputKey("challengeSession")
    public static let clientData = InputKey("clientData")
    public static let clientDataJSON = InputKey("clientDataJSON")
    public static let credentialId = InputKey("credentialId")
    /// A WebAuthn credential as the browser serialises it for the server (L3 `PublicKeyCredential.toJSON()`:
    /// RegistrationResponseJSON or AuthenticationResponseJSON), UTF-8 JSON text.
    public static let credentialJSON = InputKey("credentialJSON")
    public static let integrityToken = InputKey("integrityToken")
    public static let keyId = InputKey("keyId")
    public static let method = InputKey("method")
    public static let platform = InputKey("platform")
    public static let proofClientData = InputKey("proofClientData")
    public static let proofSignature = InputKey("proofSignature")
    public static let publicKey = InputKey("publicKey")
    public static let sessionToken = InputKey("sessionToken")
    public static let signature = InputKey("signature")
    public static let target = InputKey("target")
    public static let user = InputKey("user")
    public static let userHandle = InputKey("userHandle")

    /// The per-request family's HTTP header `name`, sent as is (`header.X-Platform`).
    public static func header(_ name: String) -> InputKey { InputKey(headerPrefix + name) }
    /// The header name of a `header(_:)` key, nil for other keys.
    public var headerName: String? { rawValue.hasPrefix(Self.headerPrefix) ? String(rawValue.dropFirst(Self.headerPrefix.count)) : nil }
    private static let headerPrefix = "header."
}
