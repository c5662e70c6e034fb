import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// The step-up family (docs/protocols/step-up-signing.md): register a device key, then challenge and approve actions;
/// valid in both message forms, and one case per mutation, each breaking exactly one rule.
public enum StepUpFamily: CatalogueFamily {
    static let idPrefix = "stepup"
    public static let name = FamilyName.stepUp
    public static var rules: [Rule] { StepUpRules.all }


    public static let stepKinds: [StepKind: String] = [
        .stepUpRegister: "Enrollment. Inputs: account, keyId (UTF-8), publicKey (DER SubjectPublicKeyInfo).",
        .stepUpChallenge: "The server issues a challenge. Inputs: account, keyId, action (UTF-8, e.g. transfer 200 EUR to "
            + "account X), challenge (the 32 bytes the server must issue), challengeId.",
        .stepUpApprove: "The approval. Inputs: account, keyId, action, challengeId, signature (DER ECDSA-SHA256). Context "
            + "parameters: challengeLifetime (seconds), stepUpMessage (challenge: the signature covers the challenge "
            + "bytes; action-bound: UTF-8 of base64url(challenge), account, keyId and action joined by newlines).",
    ]

    typealias Definition = CaseDefinition<Void, StepUpScenario, StepUpForge>

    public static func trustAnchors(seed: UInt64) throws -> [String: String] { [:] }

    public static func cases(parameters: [String: String], seed: UInt64) throws -> [Case] {
        try cases(parameters: parameters, seed: ForgeSeed(seed))
    }

    /// The cases forged from `seed`, substitutions included; with `only`, just the case of that id.
    public static func cases(parameters: [String: String], seed: ForgeSeed, only: String? = nil) throws -> [Case] {
        let message = try StepUpParameters(ParameterReader(parameters)).message
        let forge = StepUpForge(seed: seed, message: message)
        return try definitions.filter { only == nil || $0.id(prefix: idPrefix) == only }.map { definition in
            var scenario = StepUpScenario(requests: [])
            try definition.mutate(&scenario, forge)
            // A case told to sign another message form says so in its own context.
            var context = CaseContext(time: forge.time, trustAnchors: [], parameters: parameters)
            let approvals = scenario.requests.compactMap { request -> StepUpMessage? in
                if case .approve(let approval) = request { return approval.message }
                return nil
            }
            let form = approvals.first ?? message
            context.parameters["stepUpMessage"] = form.rawValue
            // The control is the valid approval of the same message form.
            return definition.makeCase(prefix: idPrefix, family: name, context: context, steps: try steps(scenario, breaking: definition.rule),
                                       control: form == .actionBound ? "action-bound" : "challenge")
        }
    }

    static func steps(_ scenario: StepUpScenario, breaking rule: RuleID?) throws -> [Step] {
        try scenario.requests.enumerated().map { index, request in
            let breaks = scenario.brokenStep == index ? rule : nil
            switch request {
            case .register(let account, let keyId, let key, let time):
                return Step(kind: .stepUpRegister, inputs: [.account: Array(account.utf8), .keyId: Array(keyId.utf8), .publicKey: key.spki],
                            breaks: breaks, time: time)
            case .challenge(let challenge):
                return Step(kind: .stepUpChallenge, inputs: [
                    .account: Array(challenge.account.utf8), .keyId: Array(challenge.keyId.utf8), .action: Array(challenge.action.utf8),
                    .challenge: challenge.bytes, .challengeId: Array(challenge.id.utf8),
                ], breaks: breaks, time: challenge.time)
            case .approve(let approval):
                return Step(kind: .stepUpApprove, inputs: [
                    .account: Array(approval.account.utf8), .keyId: Array(approval.keyId.utf8), .action: Array(approval.action.utf8),
                    .challengeId: Array(approval.challenge.id.utf8), .signature: try approval.signature(),
                ], breaks: breaks, time: approval.time)
            }
        }
    }

    /// alice registers her phone key, gets a challenge for a transfer and approves it; `change` mutates the
    /// approval, the broken step.
    static func approval(_ forge: StepUpForge, _ change: (inout StepUpScenario.Approval) throws -> Void = { _ in }) throws -> StepUpScenario {
        let alice = forge.account("alice")
        let challenge = try forge.challenge("transfer", account: alice, keyLabel: "alice phone", at: forge.time + 60)
        var approval = try forge.approval(of: challenge, keyLabel: "alice phone")
        try change(&approval)
        return StepUpScenario(requests: [try forge.register("alice phone", account: alice, at: forge.time), .challenge(challenge), .approve(approval)],
                              brokenStep: 2)
    }

    static let definitions: [Definition] = [
        Definition(variant: "challenge", rule: nil, importance: .critical,
                   description: "A registered key approves a transfer by signing the challenge five seconds after it was issued.") { forge in
            try approval(forge)
        },
        Definition(variant: "action-bound", rule: nil, importance: .critical,
                   description: "The same approval with the action-bound message form.") { forge in
            try approval(forge.with(message: .actionBound))
        },
        Definition(variant: "reused", rule: .stepUpSingleUse, importance: .critical,
                   description: "A captured approval is submitted a second time.") { forge in
            var scenario = try approval(forge)
            guard case .approve(var again) = scenario.requests[2] else { return scenario }
            again.time += 10
            scenario.requests.append(.approve(again))
            scenario.brokenStep = 3
            return scenario
        },
        Definition(variant: "expired", rule: .stepUpLifetime, importance: .high,
                   description: "The approval arrives 121 seconds after the challenge (lifetime 120).") { forge in
            try approval(forge) { $0.time = $0.challenge.time + 121 }
        },
        Definition(variant: "other-account", rule: .stepUpAccount, importance: .critical,
                   description: "bob's challenge and signature are submitted as an approval for alice's account.") { forge in
            let bob = forge.account("bob")
            let challenge = try forge.challenge("bob transfer", account: bob, keyLabel: "bob phone", at: forge.time + 60)
            var approval = try forge.approval(of: challenge, keyLabel: "bob phone")
            approval.account = forge.account("alice")
            return StepUpScenario(requests: [try forge.register("bob phone", account: bob, at: forge.time), .challenge(challenge), .approve(approval)],
                                  brokenStep: 2)
        },
        Definition(variant: "other-key", rule: .stepUpKey, importance: .high,
                   description: "A challenge issued for alice's phone key is approved by her (also registered) tablet key.") { forge in
            var scenario = try approval(forge) { approval in
                approval.keyId = try forge.keyId("alice tablet")
                approval.signingKey = try forge.key("alice tablet")
            }
            scenario.requests.insert(try forge.register("alice tablet", account: forge.account("alice"), at: forge.time + 1), at: 1)
            scenario.brokenStep = 3
            return scenario
        },
        Definition(variant: "other-action", rule: .stepUpAction, importance: .critical,
                   description: "A signature collected for viewing a statement is submitted as the approval of a transfer.") { forge in
            let alice = forge.account("alice")
            let challenge = try forge.challenge("statement", account: alice, keyLabel: "alice phone", action: "view statement 2026-01",
                                                at: forge.time + 60)
            var approval = try forge.approval(of: challenge, keyLabel: "alice phone")
            approval.action = StepUpForge.transfer
            return StepUpScenario(requests: [try forge.register("alice phone", account: alice, at: forge.time), .challenge(challenge), .approve(approval)],
                                  brokenStep: 2)
        },
        Definition(variant: "unregistered-key", rule: .stepUpSignature, importance: .critical,
                   description: "The approval is signed by a key that was never registered.") { forge in
            let other = try forge.key("never registered")
            return try approval(forge) { $0.signingKey = other }
        },
        Definition(variant: "other-bytes", rule: .stepUpSignature, importance: .critical,
                   description: "The signature covers other bytes than the challenge.") { forge in
            try approval(forge) { $0.signedBytes = Array("approve".utf8) }
        },
    ]
}
