import AttestConformance
import AttestEvidence
import AttestForge
import Foundation

/// A valid passkey import as `hunt` mutates it: its requests before rendering (start, complete with the App Attest or
/// Android attestation and the signed proof, assertions by the imported key), and the forge whose keys repair a
/// mutation (the proof signed again, the attestation rendered again), judged for the same app and relying party.
package struct PasskeyImportHuntBaseline: Sendable {
    /// The valid case's id.
    package let id: String
    package let scenario: PasskeyImportScenario
    package let forge: PasskeyImportForge
    let context: CaseContext

    /// `scenario` rendered as case `id`, judged as the valid case is, with no rule broken and the valid case as its
    /// control.
    package func render(_ scenario: PasskeyImportScenario, id: String, description: String) throws -> Case {
        var mutant = Case(id: id, family: PasskeyImportFamily.name, rule: nil, description: description, importance: .medium,
                          context: context, steps: try PasskeyImportFamily.steps(scenario, breaking: nil))
        mutant.control = self.id
        return mutant
    }

    /// The index of the last complete request, and of the last assertion.
    package var completeStep: Int? {
        scenario.requests.lastIndex { if case .complete = $0 { return true }; return false }
    }

    package var lastAssertionStep: Int? {
        scenario.requests.lastIndex { if case .assertion = $0 { return true }; return false }
    }
}

extension PasskeyImportFamily {
    /// The valid imports (iOS, Android, and the valid variations) for the app and relying party configured by
    /// `parameters`, as hunt baselines; one with a request refused on purpose is left out (its verdict is not one).
    package static func huntBaselines(parameters: [String: String], seed: ForgeSeed) throws -> [PasskeyImportHuntBaseline] {
        let forge = try forge(parameters: parameters, seed: seed)
        let context = try cases(parameters: parameters, seed: seed).first?.context
            ?? CaseContext(time: forge.time, trustAnchors: [], parameters: parameters)
        return try definitions.filter { $0.rule == nil }.compactMap { definition in
            var scenario = PasskeyImportScenario(requests: [])
            try definition.mutate(&scenario, forge)
            guard scenario.refusedSetUp.isEmpty else { return nil }
            scenario.brokenStep = nil
            return PasskeyImportHuntBaseline(id: definition.id(prefix: idPrefix), scenario: scenario, forge: forge, context: context)
        }
    }
}
