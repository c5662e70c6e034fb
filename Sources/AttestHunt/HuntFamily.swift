import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestForge
import Foundation

/// A valid case as a hunt mutates it, in any family: its scenario before rendering, the forge that repairs a mutated
/// scenario, how to render one as a case judged as the valid case is, and which step renders each ceremony.
package protocol HuntableBaseline: Sendable {
    associatedtype Scenario: Sendable
    associatedtype Forge: Sendable
    var id: String { get }
    var scenario: Scenario { get }
    var forge: Forge { get }
    func render(_ scenario: Scenario, id: String, description: String) throws -> Case
    /// The step that renders `target`, or nil when the baseline has no such ceremony.
    func step(for target: MutationTarget) -> Int?
}

extension WebAuthnHuntBaseline: HuntableBaseline {
    package func step(for target: MutationTarget) -> Int? {
        switch target {
        case .registration: lastRegistrationStep
        case .assertion: lastAssertionStep
        case .attestation, .request, .approval: nil
        }
    }
}

extension AppAttestHuntBaseline: HuntableBaseline {
    package func step(for target: MutationTarget) -> Int? {
        switch target {
        case .attestation: 0
        case .assertion: lastAssertionStep
        case .registration, .request, .approval: nil
        }
    }
}

extension AndroidHuntBaseline: HuntableBaseline {
    package func step(for target: MutationTarget) -> Int? { target == .attestation ? 0 : nil }
}

extension PerRequestHuntBaseline: HuntableBaseline {
    package func step(for target: MutationTarget) -> Int? {
        switch target {
        case .attestation: attestStep
        case .request: lastRequestStep
        case .registration, .assertion, .approval: nil
        }
    }
}

extension PasskeyImportHuntBaseline: HuntableBaseline {
    package func step(for target: MutationTarget) -> Int? {
        switch target {
        case .attestation: completeStep
        case .assertion: lastAssertionStep
        case .registration, .request, .approval: nil
        }
    }
}

extension StepUpHuntBaseline: HuntableBaseline {
    package func step(for target: MutationTarget) -> Int? {
        switch target {
        case .registration: registrationStep
        case .approval: approvalStep
        case .attestation, .assertion, .request: nil
        }
    }
}

/// One family's part of a hunt: its valid cases and its mutations, with the one procedure that turns a draw into a
/// mutant (the same for every family). Families add baselines and mutations as data; nothing else changes.
package struct HuntFamily: Sendable {
    package let name: FamilyName
    /// The valid cases, rendered once (what every verifier must accept first, and what a diff compares with).
    package let baselineCases: [Case]
    package let mutationCount: Int
    private let make: @Sendable (_ baseline: Int, _ mutation: Int, _ number: UInt64, inout HuntRandom) -> Mutant?
    private let keep: @Sendable (Set<String>) -> HuntFamily

    package init<Baseline: HuntableBaseline>(_ name: FamilyName, baselines: [Baseline],
                                              mutations: [Mutation<Baseline.Scenario, Baseline.Forge>]) throws {
        self.name = name
        baselineCases = try baselines.map { try $0.render($0.scenario, id: $0.id, description: "baseline") }
        mutationCount = mutations.count
        make = { baselineIndex, mutationIndex, number, random in
            Self.mutant(baselines[baselineIndex], mutations[mutationIndex], number, &random)
        }
        keep = { ids in
            // Rendering the kept baselines again cannot fail where rendering them all did not.
            (try? HuntFamily(name, baselines: baselines.filter { ids.contains($0.id) }, mutations: mutations))
                ?? HuntFamily(name: name, empty: mutations.count)
        }
    }

    private init(name: FamilyName, empty mutationCount: Int) {
        self.name = name
        baselineCases = []
        self.mutationCount = mutationCount
        make = { _, _, _, _ in nil }
        keep = { _ in HuntFamily(name: name, empty: mutationCount) }
    }

    /// The family with only the baselines whose ids are in `ids`.
    package func keeping(_ ids: Set<String>) -> HuntFamily { keep(ids) }

    /// Mutant `number` from baseline `baseline` and mutation `mutation`, its further choices drawn from `random`.
    package func mutant(baseline: Int, mutation: Int, number: UInt64, random: inout HuntRandom) -> Mutant? {
        make(baseline, mutation, number, &random)
    }

    /// The built-in families a hunt mutates, as far as `profile` has them, in `names` order.
    package static func all(for profile: Profile, seed: UInt64) throws -> [HuntFamily] {
        try builtIn.filter { profile.families.contains($0.name) }.map { try $0.make(profile.parameters, ForgeSeed(seed)) }
    }

    /// The families a hunt mutates so far.
    package static var names: [FamilyName] { builtIn.map(\.name) }

    /// Each built-in family with its baselines and mutations: the one table a new family joins.
    private static let builtIn: [(name: FamilyName, make: @Sendable ([String: String], ForgeSeed) throws -> HuntFamily)] = [
        (WebAuthnFamily.name, { parameters, seed in
            try HuntFamily(WebAuthnFamily.name, baselines: try WebAuthnFamily.huntBaselines(parameters: parameters, seed: seed), mutations: WebAuthnMutations.all)
        }),
        (AppAttestFamily.name, { parameters, seed in
            try HuntFamily(AppAttestFamily.name, baselines: try AppAttestFamily.huntBaselines(parameters: parameters, seed: seed), mutations: AppAttestMutations.all)
        }),
        (AndroidFamily.name, { parameters, seed in
            try HuntFamily(AndroidFamily.name, baselines: try AndroidFamily.huntBaselines(parameters: parameters, seed: seed), mutations: AndroidMutations.all)
        }),
        (PerRequestFamily.name, { parameters, seed in
            try HuntFamily(PerRequestFamily.name, baselines: try PerRequestFamily.huntBaselines(parameters: parameters, seed: seed), mutations: PerRequestMutations.all)
        }),
        (PasskeyImportFamily.name, { parameters, seed in
            try HuntFamily(PasskeyImportFamily.name, baselines: try PasskeyImportFamily.huntBaselines(parameters: parameters, seed: seed),
                           mutations: PasskeyImportMutations.all)
        }),
        (StepUpFamily.name, { parameters, seed in
            try HuntFamily(StepUpFamily.name, baselines: try StepUpFamily.huntBaselines(parameters: parameters, seed: seed), mutations: StepUpMutations.all)
        }),
    ]

    private static func mutant<Baseline: HuntableBaseline>(_ baseline: Baseline, _ mutation: Mutation<Baseline.Scenario, Baseline.Forge>,
                                                           _ number: UInt64, _ random: inout HuntRandom) -> Mutant? {
        guard let step = baseline.step(for: mutation.target) else { return nil }
        let id = "hunt.\(mutation.field.rawValue).\(mutation.kind.rawValue).\(number)"
        let description = "\(baseline.id) with \(mutation.field.rawValue) mutated (\(mutation.kind.rawValue))"
        do {
            switch mutation.application {
            case .repaired(let apply):
                var scenario = baseline.scenario
                guard let size = try apply(&scenario, &random, baseline.forge) else { return nil }
                let testCase = try baseline.render(scenario, id: id, description: description)
                return Mutant(index: number, baseline: baseline.id, field: mutation.field, kind: mutation.kind, size: size,
                              step: step, testCase: testCase)
            case .raw(let key, let edit):
                let rendered = try baseline.render(baseline.scenario, id: id, description: description)
                guard rendered.steps.indices.contains(step), var bytes = rendered.steps[step].inputs[key],
                      let size = edit(&bytes, &random) else { return nil }
                var steps = rendered.steps
                let original = steps[step]
                var inputs = original.inputs
                inputs[key] = bytes
                // A WebAuthn credential's JSON carries the same bytes: a verifier that reads only it must see them too.
                if let json = inputs[.credentialJSON], let rewritten = MutantForge.credentialJSON(json, member: key, bytes) {
                    inputs[.credentialJSON] = rewritten
                }
                steps[step] = Step(kind: original.kind, inputs: inputs, breaks: original.breaks, time: original.time,
                                   expectedStatus: original.expectedStatus, either: original.either, repeats: original.repeats)
                var testCase = Case(id: id, family: rendered.family, rule: nil, description: description, importance: .medium,
                                    context: rendered.context, steps: steps)
                testCase.control = rendered.control
                return Mutant(index: number, baseline: baseline.id, field: mutation.field, kind: mutation.kind, size: size,
                              step: step, testCase: testCase)
            }
        } catch {
            // A mutation the forge cannot render (a field it refuses to write) is not a mutant.
            return nil
        }
    }
}
