import AttestConformance
import AttestEvidence
import AttestForge
import Foundation

/// A valid per-request flow as `hunt` mutates it: its requests before rendering (the App Attest attestation or the
/// Play Integrity token, then the signed requests), and the forge whose keys repair a mutation (the token signed and
/// encrypted again, assertions signed again over the changed request), rendered for the same app and account.
package struct PerRequestHuntBaseline: Sendable {
    /// The valid case's id.
    package let id: String
    package let scenario: PerRequestScenario
    package let forge: PerRequestForge
    let context: CaseContext
    let parameters: [String: String]

    /// `scenario` rendered as case `id`, judged as the valid case is, with no rule broken and the valid case as its
    /// control.
    package func render(_ scenario: PerRequestScenario, id: String, description: String) throws -> Case {
        var mutant = Case(id: id, family: PerRequestFamily.name, rule: nil, description: description, importance: .medium,
                          context: context, steps: try PerRequestFamily.steps(scenario, breaking: nil, parameters: parameters))
        mutant.control = self.id
        return mutant
    }

    /// The index of the attest request.
    package var attestStep: Int? {
        scenario.requests.firstIndex {
            switch $0 {
            case .attestIOS, .attestAndroid: true
            case .challenge, .request: false
            }
        }
    }

    /// The index of the last protected request.
    package var lastRequestStep: Int? {
        scenario.requests.lastIndex {
            if case .request = $0 { return true }
            return false
        }
    }
}

extension PerRequestFamily {
    /// The valid flows (iOS and Android) for the app and account configured by `parameters`, as hunt baselines.
    package static func huntBaselines(parameters: [String: String], seed: ForgeSeed) throws -> [PerRequestHuntBaseline] {
        let forge = try forge(parameters: parameters, seed: seed)
        var context = CaseContext(time: forge.time, trustAnchors: [forge.appAttest.pki.root.pem], parameters: parameters)
        context.parameters["appId"] = forge.appAttest.appId
        context.parameters["integrityDecryptionKey"] = Data(forge.integrityKeys.decryptionKey).base64EncodedString()
        context.parameters["integrityVerificationKey"] = forge.integrityKeys.verificationKey.publicKey.pem
        return try definitions.filter { $0.rule == nil }.map { definition in
            var scenario = PerRequestScenario(requests: [])
            try definition.mutate(&scenario, forge)
            scenario.brokenStep = nil
            return PerRequestHuntBaseline(id: definition.id(prefix: idPrefix), scenario: scenario, forge: forge, context: context,
                                          parameters: parameters)
        }
    }
}
