import AttestConformance
import AttestEvidence


/// Apple App Attest: the server checks of an attestation (Apple's steps 1-9) and of an assertion (steps 1-6),
/// numbered as in "Validating apps that connect to your server" (protocols.md §1.6, §1.8).
public enum AppAttestRules {
    static let attestationSteps = "Apple, Validating apps that connect to your server, attestation step"
    static let assertionSteps = "Apple, Validating apps that connect to your server, assertion step"

    public static let all: [Rule] = [
        Rule(.appAttestStructure,
             "Attestation and assertion objects are maps of exactly their defined text keys (fmt, attStmt{x5c, receipt}, authData; signature, authenticatorData).",
             source: "protocols.md §1.1 (attestation object); WebAuthn L3 §6.5.4", bugClass: .parsing),
        Rule(.appAttestFormat, "fmt is \"apple-appattest\".", source: "protocols.md §1.1", bugClass: .parsing),
        Rule(.appAttestCertificateList,
             "x5c lists the credential certificate first (not a CA), then the intermediate, and nothing more.",
             source: "\(attestationSteps) 1", bugClass: .trust),
        Rule(.appAttestNonce,
             "The credential certificate's nonce equals SHA-256(authData || SHA-256(challenge)).",
             source: "\(attestationSteps) 2-4", bugClass: .binding,
             references: ["thunder-id PR #4055", "hyperledger-iroha PR #5568",
                          "devicecheck-appattest issue #40 (raw challenge appended)"]),
        Rule(.appAttestNonceEncoding,
             "The nonce extension appears once, as SEQUENCE { [1] EXPLICIT OCTET STRING }.",
             source: "\(attestationSteps) 4; protocols.md §1.4", bugClass: .parsing),
        Rule(.appAttestKeyId, "SHA-256 of the credential certificate's uncompressed public key equals the key id.",
             source: "\(attestationSteps) 5", bugClass: .binding, references: ["pyattest verify_key_id"]),
        Rule(.appAttestRpIdHash, "authData.rpIdHash is SHA-256 of the App ID (team id, dot, bundle id).",
             source: "\(attestationSteps) 6", bugClass: .binding),
        Rule(.appAttestCounter, "The attestation's counter is 0.", source: "\(attestationSteps) 7", bugClass: .replay),
        Rule(.appAttestAAGUID, "The AAGUID matches the configured environment (appattestdevelop or appattest + 7 zeros).",
             source: "\(attestationSteps) 8", bugClass: .policy),
        Rule(.appAttestCredentialId, "authData.credentialId equals the key id.", source: "\(attestationSteps) 9",
             bugClass: .binding, references: ["pyattest verify_credential_id"]),
        Rule(.appAttestCOSEKey, "The COSE key in authData is the credential certificate's key.",
             source: "WebAuthn L3 §6.5.1 (credentialPublicKey); protocols.md §1.2", bugClass: .binding),
        Rule(.appAttestAssertionSignature,
             "The assertion signature is ES256 over SHA-256(authenticatorData || SHA-256(clientData)) by the attested key.",
             source: "\(assertionSteps) 1-3", bugClass: .signature),
        Rule(.appAttestAssertionRpIdHash, "The assertion's rpIdHash is SHA-256 of the App ID.",
             source: "\(assertionSteps) 4", bugClass: .binding),
        Rule(.appAttestAssertionCounter, "The assertion counter is greater than the stored counter.",
             source: "\(assertionSteps) 5", bugClass: .replay,
             references: ["devicecheck-appattest AssertionValidator", "duo-labs/webauthn #64"]),
        Rule(.appAttestAssertionChallenge, "The client data carries the challenge the server issued for this assertion.",
             source: "\(assertionSteps) 6", bugClass: .replay),
    ]
}
