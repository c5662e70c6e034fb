import AttestConformance
import AttestEvidence
import AttestForge
import Foundation

/// A valid Android key attestation as `hunt` mutates it: its scenario before rendering (the KeyDescription, the leaf,
/// the chain's shape and order, the status list), and the forge whose keys and CAs repair a mutation (the leaf
/// issued again with the changed KeyDescription, authorities re-issued), rendered for the same app.
package struct AndroidHuntBaseline: Sendable {
    /// The valid case's id.
    package let id: String
    package let scenario: AndroidScenario
    package let forge: AndroidForge
    let anchors: [String]
    let parameters: [String: String]

    /// `scenario` rendered as case `id`, judged as the valid case is, with no rule broken and the valid case as its
    /// control.
    package func render(_ scenario: AndroidScenario, id: String, description: String) throws -> Case {
        let (context, step) = try AndroidFamily.rendered(scenario, forge: forge, anchors: anchors, parameters: parameters, breaking: nil)
        var mutant = Case(id: id, family: AndroidFamily.name, rule: nil, description: description, importance: .medium,
                          context: context, steps: [step])
        mutant.control = self.id
        return mutant
    }
}

extension AndroidFamily {
    /// The valid attestations of an app configured by `parameters`, one per chain shape (remotely provisioned and
    /// factory provisioned), as hunt baselines.
    package static func huntBaselines(parameters: [String: String], seed: ForgeSeed) throws -> [AndroidHuntBaseline] {
        let app = try AndroidParameters(forging: ParameterReader(parameters))
        let forge = try AndroidForge(seed: seed, packageName: app.packageName, signatureDigest: app.signatureDigest)
        let anchors = [forge.pki.rsaRoot.certificate.pem, forge.pki.ecRoot.certificate.pem]
        return try [AndroidAttestationBlueprint.Shape.remotelyProvisioned, .factory].map { shape in
            var scenario = try forge.scenario(statusList: baselineStatusList)
            scenario.attestation.shape = shape
            return AndroidHuntBaseline(id: "\(idPrefix).valid.\(validVariant(shape))", scenario: scenario, forge: forge,
                                       anchors: anchors, parameters: parameters)
        }
    }
}
