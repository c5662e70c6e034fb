import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// What a step-up server stores: registered keys by key id, and issued challenges by id.
struct StepUpState {
    struct IssuedChallenge {
        let account: String
        let keyId: String
        let action: String
        let bytes: [UInt8]
        let issuedAt: Date
        var used = false
    }

    var keys: [String: PublicKey] = [:]
    var challenges: [String: IssuedChallenge] = [:]
}

/// The step-up server of docs/protocols/step-up-signing.md §3.4, each check under its rule.
enum StepUpVerification {
    static func text(_ step: VerifierStep, _ key: InputKey) throws -> String { String(decoding: try step.input(key), as: UTF8.self) }

    static func register(_ step: VerifierStep, policy: Policy, state: inout StepUpState) throws {
        guard let key = try? Parsed.publicKey(spki: try step.input(.publicKey)) else {
            throw UnreadableEvidence("step-up.register publicKey is not a SubjectPublicKeyInfo")
        }
        state.keys[try text(step, .keyId)] = key
    }

    static func challenge(_ step: VerifierStep, policy: Policy, state: inout StepUpState) throws {
        state.challenges[try text(step, .challengeId)] = .init(
            account: try text(step, .account), keyId: try text(step, .keyId), action: try text(step, .action),
            bytes: try step.input(.challenge), issuedAt: policy.context.time)
    }

    static func approve(_ step: VerifierStep, policy: Policy, state: inout StepUpState) throws {
        let challengeId = try text(step, .challengeId)
        guard let issued = state.challenges[challengeId] else {
            throw RuleViolation(rule: .stepUpSingleUse, reason: "challenge \(challengeId) was never issued")
        }
        try policy.require(.stepUpSingleUse, !issued.used, "challenge \(challengeId) was already used")
        state.challenges[challengeId]?.used = true
        let age = policy.context.time.timeIntervalSince(issued.issuedAt)
        let parameters = try StepUpParameters(policy.parameters)
        let lifetime = parameters.challengeLifetime
        try policy.require(.stepUpLifetime, age <= lifetime, "the challenge is \(Int(age)) s old")
        let account = try text(step, .account), keyId = try text(step, .keyId), action = try text(step, .action)
        try policy.require(.stepUpAccount, account == issued.account, "the challenge was issued to \(issued.account), not \(account)")
        try policy.require(.stepUpKey, keyId == issued.keyId, "the challenge was issued for key \(issued.keyId), not \(keyId)")
        try policy.require(.stepUpAction, action == issued.action, "the challenge was issued for \"\(issued.action)\", not \"\(action)\"")
        let message = parameters.message
        // The server signs off what it issued the challenge for, not what the approval claims.
        let signed = message.bytes(challenge: issued.bytes, account: issued.account, keyId: issued.keyId, action: issued.action)
        try policy.require(.stepUpSignature, state.keys[keyId]?.verify(try step.input(.signature), for: signed, digest: .sha256) == true,
                           "the signature does not verify with the registered key \(keyId)")
    }
}
