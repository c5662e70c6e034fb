import AttestConformance
import AttestEvidence
import AttestForge
import Foundation

/// A valid App Attest case as `hunt` mutates it: its attestation and assertions before rendering, and the forge
/// whose keys and CAs repair a mutation (the attestation object, the nonce and the credential certificate made again
/// over the changed field; assertions signed again), rendered for the same app as the valid case.
package struct AppAttestHuntBaseline: Sendable {
    /// The valid case's id.
    package let id: String
    package let scenario: AppAttestScenario
    package let forge: AppAttestForge
    let context: CaseContext

    /// `scenario` rendered as case `id`, judged as the valid case is, with no rule broken (a hunt does not know
    /// which one a mutant breaks) and the valid case as its control.
    package func render(_ scenario: AppAttestScenario, id: String, description: String) throws -> Case {
        var mutant = Case(id: id, family: AppAttestFamily.name, rule: nil, description: description, importance: .medium,
                          context: context, steps: try AppAttestFamily.steps(scenario, breaking: nil))
        mutant.control = self.id
        return mutant
    }

    /// The index of the step that renders the last assertion.
    package var lastAssertionStep: Int? { scenario.assertions.isEmpty ? nil : scenario.assertions.count }
}

extension AppAttestFamily {
    /// The valid cases of an app configured by `parameters`, as hunt baselines: the attestation followed by
    /// assertions with counters 1 and 2.
    package static func huntBaselines(parameters: [String: String], seed: ForgeSeed) throws -> [AppAttestHuntBaseline] {
        let app = try AppAttestParameters(ParameterReader(parameters))
        let forge = try AppAttestForge(seed: seed, appId: app.appId, environment: app.environment)
        var context = CaseContext(time: forge.time, trustAnchors: [forge.pki.root.pem], parameters: parameters)
        context.parameters["appId"] = forge.appId
        return [AppAttestHuntBaseline(id: "\(idPrefix).valid.\(validVariant)", scenario: try forge.scenario(assertionCounters: [1, 2]),
                                      forge: forge, context: context)]
    }
}
