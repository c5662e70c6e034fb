import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// Differential mutation (Frankencerts' method, Brubaker et al., IEEE S&P 2014, for attestation evidence): valid
/// cases every verifier accepts are mutated one field at a time, each mutant goes to every verifier, and mutants the
/// verifiers disagree on are kept as clusters.
///
/// Only WebAuthn evidence is mutated so far (the families adapters exist for first); a profile without the webauthn
/// family has no baselines.
package struct Hunter: Sendable {
    package let profile: Profile
    package let verifiers: [any AttestationVerifier]
    package let baselines: [WebAuthnHuntBaseline]
    package let mutations: [Mutation]
    /// Mutants judged together: one exec adapter suite, one task group per verifier.
    package let batchSize: Int
    /// Cases judged at once by a verifier that takes one case per call.
    package let jobs: Int

    /// The valid cases of `profile` that every verifier accepts; the others are recorded in `state` as excluded.
    package static func prepare(profile: Profile, verifiers: [any AttestationVerifier], state: inout HuntState,
                                batchSize: Int = 16, jobs: Int = 2) async throws -> Hunter {
        guard profile.families.contains(WebAuthnFamily.name) else {
            throw HuntError.noBaselines("profile \(profile.name) has no webauthn family, the only one a hunt mutates so far")
        }
        let all = try WebAuthnFamily.huntBaselines(parameters: profile.parameters, seed: ForgeSeed(state.configuration.seed))
        var cases: [Case] = []
        for baseline in all {
            cases.append(try baseline.render(baseline.scenario, id: baseline.id, description: "baseline"))
        }
        var accepted = Set(all.map(\.id))
        for (index, verifier) in verifiers.enumerated() {
            let results = await judge(cases, with: verifier, profile: profile, jobs: jobs)
            for (testCase, result) in zip(cases, results) {
                let judgement = Judgement(result)
                if judgement != .accepted, accepted.remove(testCase.id) != nil {
                    state.excludedBaselines[testCase.id] = "\(state.configuration.verifiers[index]) \(judgement.words)"
                }
            }
        }
        let baselines = all.filter { accepted.contains($0.id) }
        guard !baselines.isEmpty else {
            throw HuntError.noBaselines(state.excludedBaselines.sorted { $0.key < $1.key }.prefix(3).map { "\($0.key): \($0.value)" }.joined(separator: "; "))
        }
        return Hunter(profile: profile, verifiers: verifiers, baselines: baselines, mutations: WebAuthnMutations.all,
                      batchSize: batchSize, jobs: jobs)
    }

    /// Mutant `number` of a hunt seeded `seed`: nil when the mutation drawn does not apply to the baseline drawn.
    package func mutant(_ number: UInt64, seed: UInt64) -> Mutant? { forge.mutant(number, seed: seed) }

    package var forge: MutantForge { MutantForge(baselines: baselines, mutations: mutations) }

    /// Progress as a hunt reports it after each batch.
    package struct Progress: Sendable {
        package let state: HuntState
        package let runSeconds: Double
    }

    /// Hunts until `stop` says so before a batch (a deadline, a mutant budget) or `interrupted` does (a signal),
    /// saving after every batch.
    package func run(_ state: inout HuntState, stop: (HuntState) -> Bool, interrupted: () -> Bool,
                     save: (HuntState) throws -> Void, progress: (Progress) -> Void) async throws {
        let started = Date()
        let elapsedBefore = state.elapsed
        let configuration = state.configuration
        while !stop(state), !interrupted() {
            var mutants: [Mutant] = []
            var next = state.nextIndex
            var inapplicable: UInt64 = 0
            while mutants.count < batchSize {
                let number = UInt64(configuration.shard) + next * UInt64(configuration.shards)
                next += 1
                if let mutant = mutant(number, seed: configuration.seed) { mutants.append(mutant) } else { inapplicable += 1 }
                if inapplicable > UInt64(batchSize) * 64 { break }
            }
            let cases = mutants.map(\.testCase)
            var judgements = Array(repeating: [Judgement](), count: mutants.count)
            var seconds = Array(repeating: 0.0, count: verifiers.count)
            await withTaskGroup(of: (Int, [Result<[Verdict], any Error>], Double).self) { group in
                for (index, verifier) in verifiers.enumerated() {
                    group.addTask {
                        let start = Date()
                        let results = await Self.judge(cases, with: verifier, profile: profile, jobs: jobs)
                        return (index, results, Date().timeIntervalSince(start))
                    }
                }
                var byVerifier = Array(repeating: [Result<[Verdict], any Error>](), count: verifiers.count)
                for await (index, results, time) in group {
                    byVerifier[index] = results
                    seconds[index] = time
                }
                for mutantIndex in mutants.indices {
                    judgements[mutantIndex] = byVerifier.map { Judgement($0[mutantIndex]) }
                }
            }
            // A signal that arrived while the batch ran may have reached the adapters too (Ctrl-C goes to the whole
            // process group): their answers are not trusted, and the batch is tried again on resume.
            if interrupted() { break }
            for (mutant, judged) in zip(mutants, judgements) { state.record(mutant, judged) }
            state.inapplicable += inapplicable
            state.nextIndex = next
            for index in seconds.indices { state.verifierSeconds[index] += seconds[index] }
            state.elapsed = elapsedBefore + Date().timeIntervalSince(started)
            try save(state)
            progress(Progress(state: state, runSeconds: Date().timeIntervalSince(started)))
        }
    }

    /// For each cluster's suggested rule and each verifier that accepts its mutant: runs the catalogue's cases of
    /// that rule against the verifier once, and records the ones it accepts (the catalogue already catches it there).
    package func measureCoverage(_ state: inout HuntState, catalogue: [Case]) async {
        for cluster in state.clusters {
            guard let rule = cluster.suggestedRule(verifiers: state.configuration.verifiers) else { continue }
            for index in cluster.judgements.indices where cluster.judgements[index] == .accepted {
                let key = HuntState.coverageKey(verifier: index, rule: rule)
                guard state.catalogueCatches[key] == nil else { continue }
                let cases = catalogue.filter { $0.rule == rule && $0.steps.contains { $0.expectedVerdict(under: profile) == .reject } }
                let results = await Self.judge(cases, with: verifiers[index], profile: profile, jobs: jobs)
                state.catalogueCatches[key] = zip(cases, results).compactMap { testCase, result in
                    Judgement(result) == .accepted ? testCase.id : nil
                }
            }
        }
    }

    /// Every case's verdicts from `verifier`: a suite per call where it prefers one, else up to `jobs` at once.
    static func judge(_ cases: [Case], with verifier: any AttestationVerifier, profile: Profile, jobs: Int) async -> [Result<[Verdict], any Error>] {
        if verifier.suiteSize > 1 {
            var results: [Result<[Verdict], any Error>] = []
            for start in stride(from: 0, to: cases.count, by: verifier.suiteSize) {
                let slice = cases[start..<min(cases.count, start + verifier.suiteSize)].map(\.request)
                results += await verifier.verdicts(forSuite: slice, profile: profile)
            }
            return results
        }
        let limit = max(1, min(jobs, verifier.concurrentCaseLimit ?? jobs, verifier.requiresSerialCases ? 1 : jobs))
        var results = [Result<[Verdict], any Error>?](repeating: nil, count: cases.count)
        await withTaskGroup(of: (Int, Result<[Verdict], any Error>).self) { group in
            var nextCase = 0
            func addNext() {
                guard nextCase < cases.count else { return }
                let index = nextCase
                nextCase += 1
                group.addTask {
                    do {
                        return (index, .success(try await verifier.verdicts(for: cases[index].request, profile: profile)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            for _ in 0..<limit { addNext() }
            for await (index, result) in group {
                results[index] = result
                addNext()
            }
        }
        return results.map { $0 ?? .failure(VerifierFailure.contract("no verdict")) }
    }
}

/// Makes mutants from baselines and mutations, without verifiers: what a hunt and fuzz-differential share.
package struct MutantForge: Sendable {
    package let baselines: [WebAuthnHuntBaseline]
    package let mutations: [Mutation]

    package init(baselines: [WebAuthnHuntBaseline], mutations: [Mutation] = WebAuthnMutations.all) {
        self.baselines = baselines
        self.mutations = mutations
    }

    /// Mutant `number` of a hunt seeded `seed`: nil when the mutation drawn does not apply to the baseline drawn.
    package func mutant(_ number: UInt64, seed: UInt64) -> Mutant? {
        var random = HuntRandom(seed: seed, stream: number)
        return mutant(number, drawingFrom: &random)
    }

    /// The mutant whose baseline, mutation and choices `random` draws, numbered `number`.
    package func mutant(_ number: UInt64, drawingFrom random: inout HuntRandom) -> Mutant? {
        let baseline = random.pick(baselines)
        let mutation = random.pick(mutations)
        let step: Int
        switch mutation.target {
        case .registration: step = baseline.lastRegistrationStep
        case .assertion:
            guard let last = baseline.lastAssertionStep else { return nil }
            step = last
        }
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
                // The credential's JSON carries the same bytes: a verifier that reads only it must see them too.
                if let json = inputs[.credentialJSON], let rewritten = Self.credentialJSON(json, member: key, bytes) {
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

    /// `json` (a credential's RegistrationResponseJSON or AuthenticationResponseJSON) with `response.<key>` holding
    /// the base64url of `bytes`; nil when it has no such member.
    static func credentialJSON(_ json: [UInt8], member key: InputKey, _ bytes: [UInt8]) -> [UInt8]? {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any],
              var response = object["response"] as? [String: Any], response[key.rawValue] is String else { return nil }
        response[key.rawValue] = Base64URL.encode(bytes)
        object["response"] = response
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map(Array.init)
    }
}
