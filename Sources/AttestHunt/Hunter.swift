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
/// The families mutated so far are WebAuthn, App Attest, Android key attestation and per-request (`HuntFamily.names`);
/// a profile with none of them has no baselines.
package struct Hunter: Sendable {
    package let profile: Profile
    package let verifiers: [any AttestationVerifier]
    package let forge: MutantForge
    /// Mutants judged together: one exec adapter suite, one task group per verifier.
    package let batchSize: Int
    /// Cases judged at once by a verifier that takes one case per call.
    package let jobs: Int

    /// The valid cases of `profile` that every verifier accepts; the others are recorded in `state` as excluded.
    package static func prepare(profile: Profile, verifiers: [any AttestationVerifier], state: inout HuntState,
                                batchSize: Int = 16, jobs: Int = 2) async throws -> Hunter {
        let families = try HuntFamily.all(for: profile, seed: state.configuration.seed)
        guard !families.isEmpty else {
            throw HuntError.noFamily(profile: profile.name)
        }
        let cases = families.flatMap(\.baselineCases)
        var accepted = Set(cases.map(\.id))
        for (index, verifier) in verifiers.enumerated() {
            let results = await judge(cases, with: verifier, profile: profile, jobs: jobs)
            for (testCase, result) in zip(cases, results) {
                let judgement = Judgement(result)
                if judgement != .accepted, accepted.remove(testCase.id) != nil {
                    state.excludedBaselines[testCase.id] = "\(state.configuration.verifiers[index]) \(judgement.words)"
                }
            }
        }
        let forge = MutantForge(families: families.map { $0.keeping(accepted) })
        guard forge.baselineCount > 0 else {
            throw HuntError.noBaselines(state.excludedBaselines.sorted { $0.key < $1.key }.prefix(3).map { "\($0.key): \($0.value)" }.joined(separator: "; "))
        }
        return Hunter(profile: profile, verifiers: verifiers, forge: forge, batchSize: batchSize, jobs: jobs)
    }

    /// Mutant `number` of a hunt seeded `seed`: nil when the mutation drawn does not apply to the baseline drawn.
    package func mutant(_ number: UInt64, seed: UInt64) -> Mutant? { forge.mutant(number, seed: seed) }

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

/// Makes mutants from the families' baselines and mutations, without verifiers: what a hunt and fuzz-differential
/// share. A draw picks one baseline among all families' (uniformly), then one of its family's mutations.
package struct MutantForge: Sendable {
    package let families: [HuntFamily]
    /// Every baseline as (family, index in it), in family order.
    private let entries: [(family: Int, baseline: Int)]

    package init(families: [HuntFamily]) {
        self.families = families
        entries = families.enumerated().flatMap { index, family in family.baselineCases.indices.map { (index, $0) } }
    }

    package var baselineCount: Int { entries.count }
    /// Which of `families` baseline `index` belongs to, and how many mutations it draws from (its family's); nil
    /// for an index past the last baseline.
    package func family(ofBaseline index: Int) -> (family: Int, mutations: Int)? {
        guard entries.indices.contains(index) else { return nil }
        return (entries[index].family, families[entries[index].family].mutationCount)
    }
    package var mutationCount: Int { families.reduce(0) { $0 + $1.mutationCount } }
    /// The valid cases, every family's.
    package var baselineCases: [Case] { families.flatMap(\.baselineCases) }

    /// Mutant `number` of a hunt seeded `seed`: nil when the mutation drawn does not apply to the baseline drawn.
    package func mutant(_ number: UInt64, seed: UInt64) -> Mutant? {
        var random = HuntRandom(seed: seed, stream: number)
        return mutant(number, drawingFrom: &random)
    }

    /// The mutant whose baseline, mutation and choices `random` draws, numbered `number`.
    package func mutant(_ number: UInt64, drawingFrom random: inout HuntRandom) -> Mutant? {
        guard !entries.isEmpty else { return nil }
        let entry = random.pick(entries)
        let family = families[entry.family]
        guard family.mutationCount > 0 else { return nil }
        let mutation = random.index(family.mutationCount)
        return family.mutant(baseline: entry.baseline, mutation: mutation, number: number, random: &random)
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
