import AttestConformance
import AttestEvidence


/// The device-bound passkey import ceremony (docs/protocols/passkey-import.md): start, complete with platform
/// evidence and a signed proof, then assertions by the imported key. Each rule names the API error the
/// documentation gives for it.
public enum PasskeyImportRules {
    static let api = "docs/protocols/passkey-import.md"

    public static let all: [Rule] = [
        Rule(.importChallengeKnown,
             "complete names the challenge of the user's latest start, not yet consumed; a new start replaces an unfinished one (error 100011).",
             level: .policy, quote: "A new start replaces the user's unfinished one: only the latest challenge can complete / challengeId names a challenge the server issued to this user, it is the user's latest ... and it has not been consumed",
             source: "\(api) §2.3, §5.2", bugClass: .replay, references: ["hyperledger-iroha PR #5568"]),
        Rule(.importChallengeLifetime, "complete arrives within 10 minutes of start (error 100011).",
             level: .policy, quote: "A challenge is 32 random bytes, lives 10 minutes and serves one complete",
             source: "\(api) §1.3, §5.2", bugClass: .replay, references: ["go-webauthn PR #561 (session expiry not enforced)"]),
        Rule(.importChallengeConsumedOnFailure,
             "Once a complete passes validation and the passkey cap, its challenge is consumed even when the import fails (error 100011 on retry).",
             level: .policy, quote: "A complete that passes validation (§5.2 step 1), the challenge checks (step 2) and the cap (step 3) consumes its challenge whether the import then succeeds or fails.",
             source: "\(api) §5.4", bugClass: .replay),
        Rule(.importPasskeyCap, "A user holds at most five passkeys: a sixth is refused at start and again at complete (error 100004).",
             level: .policy, quote: "A user who already holds five passkeys is refused with 100004",
             source: "\(api) §2.3, §5.2", bugClass: .policy),
        Rule(.importCredentialIdLength, "credentialId is 16 to 64 bytes (error 999995).", level: .policy, quote: "credentialId decodes to 16 to 64 bytes",
             source: "\(api) §4.1, §5.2",
             bugClass: .parsing),
        Rule(.importCredentialIdUnique,
             "credentialId is not in use by an earlier import or any other passkey (error 999998).", level: .policy, quote: "No passkey of the relying party, imported or not, already has this credentialId",
             source: "\(api) §5.2",
             bugClass: .binding),
        Rule(.importKey, "The passkey key is EC P-256, sent as an X9.63 point or a SubjectPublicKeyInfo (error 100012 POLICY).",
             level: .policy, quote: "passkey.publicKey is an EC P-256 key as an X9.63 point or an SPKI",
             source: "\(api) §3.3, §5.2", bugClass: .policy),
        Rule(.importProofMembers,
             "The proof JSON has exactly the members type, challenge, challengeId, userId (or businessId), credentialId and publicKeySha256 (error 999995).",
             level: .policy, quote: "The proof is a JSON object with exactly these six members, all strings, and no others",
             source: "\(api) §4.1", bugClass: .parsing),
        Rule(.importProofBinding,
             "The proof's type is striga.passkey.import and its challenge, challengeId, userId and credentialId are the request's (error 100012 PROOF).",
             level: .policy, quote: "type is striga.passkey.import; challenge, challengeId, userId (or businessId) and credentialId are the request's",
             source: "\(api) §4.1, §5.2", bugClass: .binding),
        Rule(.importProofPublicKeyHash,
             "publicKeySha256 is base64url SHA-256 of the decoded passkey.publicKey bytes, whichever encoding was sent (error 100012 PROOF).",
             level: .policy, quote: "base64url of H(decoded passkey.publicKey bytes), over whichever encoding (X9.63 or SPKI) the app sent",
             source: "\(api) §4.1", bugClass: .binding),
        Rule(.importProofSignature, "proof.signature is a DER ECDSA-SHA256 signature over the proof bytes by the passkey key (error 100012 PROOF).",
             level: .policy, quote: "proof.signature carries, in base64url, the passkey key's DER-encoded ECDSA-SHA256 signature of exactly those bytes",
             source: "\(api) §4.2", bugClass: .signature, references: ["SandeepVashishtha/Eventra#17865"]),
        Rule(.importDeviceAttestationKey,
             "A per-approval App Attest assertion is made with the App Attest key bound to the credential at import (ignored for Android credentials).",
             level: .policy, quote: "the key is the App Attest key bound to this credential at import",
             source: "\(api) §6.2", bugClass: .binding),
    ]
}
