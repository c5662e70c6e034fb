import AttestConformance
import AttestEvidence


/// Biometric step-up signing (seeds/003, "Approving a sensitive request"): the challenge must be random,
/// short-lived, single use, and bound to the account, the device key and the action; the signature must verify
/// with the registered key.
public enum StepUpRules {
    static let guide = "seeds/003 (biometric step-up), Approving a sensitive request"

    public static let all: [Rule] = [
        Rule(.stepUpSingleUse, "The approval names a challenge the server issued and not yet consumed.", level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: guide,
             bugClass: .replay, references: ["hyperledger-iroha PR #5568"]),
        Rule(.stepUpLifetime, "The approval arrives within the challenge's lifetime (parameter challengeLifetime, seconds).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: guide, bugClass: .replay, references: ["go-webauthn PR #561"]),
        Rule(.stepUpAccount, "The approval's account is the one the challenge was issued to.", level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: guide, bugClass: .binding),
        Rule(.stepUpKey, "The approval's key is the one the challenge was issued for.", level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: guide, bugClass: .binding),
        Rule(.stepUpAction, "The approval's action is the one the challenge was issued for (a harmless approval cannot authorize a transfer).",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: guide, bugClass: .binding),
        Rule(.stepUpSignature,
             "The signature (DER ECDSA-SHA256, over the challenge or its action-bound form) verifies with the registered key.",
             level: .policy, quote: "(private product spec: seeds/000, seeds/001, seeds/003)",
             source: "\(guide), step 5", bugClass: .signature, references: ["SandeepVashishtha/Eventra#17865"]),
    ]
}
