import AttestConformance
import AttestEvidence
import AttestForge
import Foundation

/// A valid step-up flow as `hunt` mutates it: the registration, the challenge and the approval before rendering, and
/// the forge whose keys repair a mutation (the approval signed again over what it then claims), rendered for the
/// same message form.
package struct StepUpHuntBaseline: Sendable {
    /// The valid case's id.
    package let id: String
    package let scenario: StepUpScenario
    package let forge: StepUpForge
    let context: CaseContext

    /// `scenario` rendered as case `id`, judged as the valid case is, with no rule broken and the valid case as its
    /// control.
    package func render(_ scenario: StepUpScenario, id: String, description: String) throws -> Case {
        var mutant = Case(id: id, family: StepUpFamily.name, rule: nil, description: description, importance: .medium,
                          context: context, steps: try StepUpFamily.steps(scenario, breaking: nil))
        mutant.control = self.id
        return mutant
    }

    /// The index of the key's registration, and of the last approval.
    package var registrationStep: Int? {
        scenario.requests.firstIndex { if case .register = $0 { return true }; return false }
    }

    package var approvalStep: Int? {
        scenario.requests.lastIndex { if case .approve = $0 { return true }; return false }
    }
}

extension StepUpFamily {
    /// The valid approvals (each message form) for the parameters' message form and lifetime, as hunt baselines.
    package static func huntBaselines(parameters: [String: String], seed: ForgeSeed) throws -> [StepUpHuntBaseline] {
        let message = try StepUpParameters(ParameterReader(parameters)).message
        let forge = StepUpForge(seed: seed, message: message)
        return try definitions.filter { $0.rule == nil }.map { definition in
            var scenario = StepUpScenario(requests: [])
            try definition.mutate(&scenario, forge)
            scenario.brokenStep = nil
            let form = scenario.requests.lazy.compactMap { request -> StepUpMessage? in
                if case .approve(let approval) = request { return approval.message }
                return nil
            }.first ?? message
            var context = CaseContext(time: forge.time, trustAnchors: [], parameters: parameters)
            context.parameters["stepUpMessage"] = form.rawValue
            return StepUpHuntBaseline(id: definition.id(prefix: idPrefix), scenario: scenario, forge: forge, context: context)
        }
    }
}
