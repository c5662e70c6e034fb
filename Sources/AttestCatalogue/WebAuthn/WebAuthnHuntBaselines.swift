import AttestConformance
import AttestEvidence
import AttestForge
import Foundation

/// A valid WebAuthn case as `hunt` mutates it: its scenario before rendering, and the means to render a mutated
/// scenario as a case for the same relying party. A mutation of the scenario is repaired by rendering: clientData is
/// hashed again, authenticator data and statements are signed again with the case's keys, certificates are issued
/// again under the test CAs, so a mutant reaches the checks behind the signatures.
package struct WebAuthnHuntBaseline: Sendable {
    /// The valid case's id.
    package let id: String
    package let scenario: WebAuthnScenario
    package let forge: WebAuthnForge
    let definition: WebAuthnFamily.Definition
    let context: CaseContext
    let relyingParty: WebAuthnParameters

    /// `scenario` rendered as case `id`, judged as the valid case is (same relying party, anchors and parameters),
    /// with no rule broken (a hunt does not know which one a mutant breaks) and the valid case as its control.
    package func render(_ scenario: WebAuthnScenario, id: String, description: String) throws -> Case {
        let built = try WebAuthnFamily.makeCase(definition, scenario, forge: forge, context: context, relyingParty: relyingParty)
        var mutant = Case(id: id, family: WebAuthnFamily.name, rule: nil, description: description, importance: .medium,
                          context: built.context, steps: built.steps)
        mutant.control = self.id
        return mutant
    }

    /// The index of the step that renders the last registration, and of the one that renders the last assertion.
    package var lastRegistrationStep: Int { scenario.registrations.count - 1 }
    package var lastAssertionStep: Int? { scenario.assertions.isEmpty ? nil : scenario.registrations.count + scenario.assertions.count - 1 }
}

extension WebAuthnFamily {
    /// Every valid case of a relying party configured by `parameters` whose verdict the specification fixes (no
    /// "either" case), as a hunt baseline.
    package static func huntBaselines(parameters: [String: String], seed: ForgeSeed) throws -> [WebAuthnHuntBaseline] {
        let forge = try forge(parameters: parameters, seed: seed)
        let anchors = try trustAnchors(seed: seed.value).filter { $0.key.hasSuffix(".pem") }.sorted { $0.key < $1.key }.map(\.value)
        let context = CaseContext(time: forge.time, trustAnchors: anchors, parameters: parameters)
        let relyingParty = try WebAuthnParameters(ParameterReader(parameters))
        return try definitions(offering: relyingParty.algorithms).filter { $0.rule == nil && !$0.either }.map { definition in
            var scenario = try baseline(definition, forge)
            try definition.mutate(&scenario, forge)
            return WebAuthnHuntBaseline(id: definition.id(prefix: idPrefix), scenario: scenario, forge: forge, definition: definition,
                                        context: context, relyingParty: relyingParty)
        }
    }
}

extension WebAuthnFamily {
    /// Whether refusing a registration under `rule` is the relying party's choice when it is configured by
    /// `parameters`: one that accepts any attestation (`attestation` none) may treat a credential as unattested
    /// (the note at the end of §7.1), so a statement or trust rule does not bind it; the ceremony's own rules do.
    package static func leftToRelyingParty(registrationRule rule: RuleID, parameters: [String: String]) -> Bool {
        parameters["attestation"] == "none" && !ceremonyRules.contains(rule)
    }
}
