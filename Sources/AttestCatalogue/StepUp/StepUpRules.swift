import AttestConformance
import AttestEvidence


/// Biometric step-up signing (docs/protocols/step-up-signing.md §3): the challenge must be random,
/// short-lived, single use, and bound to the account, the device key and the action; the signature must verify
/// with the registered key.
public enum StepUpRules {
    static let guide = "docs/protocols/step-up-signing.md"

    public static let all: [Rule] = [
        Rule(.stepUpSingleUse, "The approval names a challenge the server issued and not yet consumed.", level: .policy, quote: "The challenge id names a challenge the server issued and that has not been used; the server marks it used",
             source: "\(guide) §3.1, §3.4",
             bugClass: .replay, references: ["hyperledger-iroha PR #5568"]),
        Rule(.stepUpLifetime, "The approval arrives within the challenge's lifetime (parameter challengeLifetime, seconds).",
             level: .policy, quote: "The approval arrives within challengeLifetime of the issue",
             source: "\(guide) §3.1, §3.4", bugClass: .replay, references: ["go-webauthn PR #561"]),
        Rule(.stepUpAccount, "The approval's account is the one the challenge was issued to.", level: .policy, quote: "The approval's account is the one the challenge was issued to",
             source: "\(guide) §3.4", bugClass: .binding),
        Rule(.stepUpKey, "The approval's key is the one the challenge was issued for.", level: .policy, quote: "The approval's key is the one the challenge was issued for",
             source: "\(guide) §3.4", bugClass: .binding),
        Rule(.stepUpAction, "The approval's action is the one the challenge was issued for (a harmless approval cannot authorize a transfer).",
             level: .policy, quote: "The approval's action is the one the challenge was issued for, so that an approval collected for a harmless action cannot authorize a dangerous one",
             source: "\(guide) §3.4", bugClass: .binding),
        Rule(.stepUpSignature,
             "The signature (DER ECDSA-SHA256, over the challenge or its action-bound form) verifies with the registered key.",
             level: .policy, quote: "The signature verifies with the registered public key of that key id over the message of §3.2 built from the issued challenge, account, key id and action",
             source: "\(guide) §3.2, §3.4", bugClass: .signature, references: ["SandeepVashishtha/Eventra#17865"]),
    ]
}
