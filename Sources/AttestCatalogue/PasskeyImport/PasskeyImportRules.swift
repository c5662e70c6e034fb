import AttestConformance
import AttestEvidence


/// The device-bound passkey import ceremony (seeds/000): start, complete with platform evidence and a signed
/// proof, then assertions by the imported key. Each rule names the API error the documentation gives for it.
public enum PasskeyImportRules {
    static let api = "seeds/000 (device-bound passkey import)"

    public static let all: [Rule] = [
        Rule(.importChallengeKnown,
             "complete names the challenge of the user's latest start, not yet consumed; a new start replaces an unfinished one (error 100011).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 1 and Lifecycle", bugClass: .replay, references: ["hyperledger-iroha PR #5568"]),
        Rule(.importChallengeLifetime, "complete arrives within 10 minutes of start (error 100011).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 1", bugClass: .replay, references: ["go-webauthn PR #561 (session expiry not enforced)"]),
        Rule(.importChallengeConsumedOnFailure,
             "Once a complete passes validation and the passkey cap, its challenge is consumed even when the import fails (error 100011 on retry).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 4", bugClass: .replay),
        Rule(.importPasskeyCap, "A user holds at most five passkeys: a sixth is refused at start and again at complete (error 100004).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Lifecycle", bugClass: .policy),
        Rule(.importCredentialIdLength, "credentialId is 16 to 64 bytes (error 999995).", level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 3",
             bugClass: .parsing),
        Rule(.importCredentialIdUnique,
             "credentialId is not in use by an earlier import or any other passkey (error 999998).", level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Lifecycle",
             bugClass: .binding),
        Rule(.importKey, "The passkey key is EC P-256, sent as an X9.63 point or a SubjectPublicKeyInfo (error 100012 POLICY).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 2", bugClass: .policy),
        Rule(.importProofMembers,
             "The proof JSON has exactly the members type, challenge, challengeId, userId (or businessId), credentialId and publicKeySha256 (error 999995).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 3", bugClass: .parsing),
        Rule(.importProofBinding,
             "The proof's type is striga.passkey.import and its challenge, challengeId, userId and credentialId are the request's (error 100012 PROOF).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 3", bugClass: .binding),
        Rule(.importProofPublicKeyHash,
             "publicKeySha256 is base64url SHA-256 of the decoded passkey.publicKey bytes, whichever encoding was sent (error 100012 PROOF).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 3", bugClass: .binding),
        Rule(.importProofSignature, "proof.signature is a DER ECDSA-SHA256 signature over the proof bytes by the passkey key (error 100012 PROOF).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Step 3", bugClass: .signature, references: ["SandeepVashishtha/Eventra#17865"]),
        Rule(.importDeviceAttestationKey,
             "A per-approval App Attest assertion is made with the App Attest key bound to the credential at import (ignored for Android credentials).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(api), Per-approval App Attest assertion", bugClass: .binding),
    ]
}
