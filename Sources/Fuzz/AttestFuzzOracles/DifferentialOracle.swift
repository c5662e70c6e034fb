import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestForge
import AttestHunt
import AttestReference
import Foundation

/// fuzz-differential: the hunt's mutation engine under libFuzzer, over every built-in profile a hunt mutates. The input
/// steers the profile, which of its valid cases is mutated, by which mutation and with which choices
/// (`HuntRandom(script:)`: 8 input bytes per choice, each the index it picks). The mutant
/// is judged by the reference verifier first (it must give a verdict on every step, never throw), then compared:
/// - with a single-rule mutant of the reference: removing one check never turns an acceptance into a refusal, and
///   the reference without the rule it refused under never refuses at an earlier step (it may still refuse at the
///   same step under the same rule where the evidence has no lenient reading, such as clientDataJSON that is no
///   JSON object);
/// - its parsers with independent ones: the mutated attestation object through the CBOR property (our strict reader
///   against libcbor), and a clientDataJSON our parser reads must be a JSON object Foundation reads with the same
///   type, challenge and origin.
package enum DifferentialOracle {
    /// The built-in profiles with a family to hunt (webauthn-l2 judges the same evidence as webauthn-l3), each with
    /// its mutant forge: the input's first choice picks one.
    static let targets: [(profile: Profile, forge: MutantForge)] = {
        do {
            return try BuiltinCatalogue.profiles.filter { $0.name != Profile.webAuthnL2.name }.compactMap { profile in
                let families = try HuntFamily.all(for: profile, seed: 1)
                return families.isEmpty ? nil : (profile, MutantForge(families: families))
            }
        } catch {
            // Built from the built-in catalogue alone before the first input: no input reaches this.
            fatalError("cannot forge the fuzz-differential baselines: \(error)")
        }
    }()

    static func check(_ input: [UInt8]) -> String? {
        var random = HuntRandom(script: input)
        let (profile, forge) = targets[random.index(targets.count)]
        guard let mutant = forge.mutant(0, drawingFrom: &random) else { return nil }
        // The rules a single-rule mutant may leave out, in a fixed order.
        let rules = profile.rules.sorted { $0.rawValue < $1.rawValue }
        guard !rules.isEmpty else { return nil }
        let reference: [Verdict]
        switch verdicts(mutant.testCase, profile: profile) {
        case .failure(let failure): return "\(profile.name) \(mutant.field) \(mutant.kind): \(failure)"
        case .success(let answers): reference = answers
        }
        let refusedAt = reference.firstIndex { $0.outcome == .reject }
        let left: RuleID
        if let refusedAt, let rule = reference[refusedAt].rule {
            left = rule
        } else {
            left = rules[random.index(rules.count)]
        }
        switch verdicts(mutant.testCase, profile: profile.without(left)) {
        case .failure(let failure): return "without \(left), \(mutant.field) \(mutant.kind): \(failure)"
        case .success(let answers):
            if let again = answers.firstIndex(where: { $0.outcome == .reject }), again < (refusedAt ?? answers.count) {
                return "the reference \(refusedAt.map { "refuses \(mutant.field) \(mutant.kind) at step \($0)" } ?? "accepts \(mutant.field) \(mutant.kind)")"
                    + " but without \(left) refuses it at step \(again) under \(answers[again].rule?.rawValue ?? "no rule")"
            }
        }
        let step = mutant.testCase.steps[mutant.step]
        if let object = step.inputs[.attestationObject], let violation = CBOROracle.check(object) {
            return "attestationObject of \(mutant.field) \(mutant.kind): \(violation)"
        }
        if let json = step.inputs[.clientDataJSON], let ours = try? CollectedClientData(parsing: json) {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
                return "our clientDataJSON parser read what Foundation does not read as a JSON object: \(String(decoding: json, as: UTF8.self))"
            }
            // Foundation keeps the last of duplicated members; ours refuses duplicates, so a read by both agrees.
            if object["type"] as? String != ours.type || object["challenge"] as? String != ours.challenge || object["origin"] as? String != ours.origin {
                return "clientDataJSON read differently by our parser and Foundation's: \(String(decoding: json, as: UTF8.self))"
            }
        }
        return nil
    }

    /// The reference's verdicts on `testCase`, step by step until the first that is not an acceptance.
    static func verdicts(_ testCase: Case, profile: Profile) -> Result<[Verdict], ReferenceVerdict.Failure> {
        do {
            var session = try ReferenceVerifier(profile: profile).startCase(testCase.context)
            var answers: [Verdict] = []
            for step in testCase.steps {
                let verdict = try session.verify(step.request)
                answers.append(verdict)
                if verdict.outcome != .accept { break }
            }
            return .success(answers)
        } catch {
            return .failure(ReferenceVerdict.Failure(description: "the reference verifier gave no verdict: \(error)"))
        }
    }

    /// Seeds: in every profile, each mutation of each family applied to two of that family's baselines it applies to
    /// (a tpm edit applies to tpm registrations only). The script's values pick the profile, the baseline and the
    /// mutation, then one more choice.
    static var seeds: [[UInt8]] {
        var seeds: [[UInt8]] = []
        for (index, target) in targets.enumerated() {
            let baselines = (0..<target.forge.baselineCount).compactMap { baseline in
                target.forge.family(ofBaseline: baseline).map { (baseline: baseline, family: $0.family, mutations: $0.mutations) }
            }
            for family in Set(baselines.map(\.family)).sorted() {
                let own = baselines.filter { $0.family == family }
                for mutation in 0..<(own.first?.mutations ?? 0) {
                    // A draw can make an edit a no-op (a version set to the value it has): a few choices are tried.
                    var found = 0
                    for candidate in own where found < 2 {
                        for choice in UInt64(0)..<4 where found < 2 {
                            let seed = littleEndian(UInt64(index)) + littleEndian(UInt64(candidate.baseline)) + littleEndian(UInt64(mutation))
                                + littleEndian(UInt64(mutation * 31 + candidate.baseline) &+ choice)
                            var random = HuntRandom(script: seed)
                            _ = random.index(targets.count)
                            if target.forge.mutant(0, drawingFrom: &random) != nil {
                                seeds.append(seed)
                                found += 1
                                break
                            }
                        }
                    }
                }
            }
        }
        return seeds
    }

    /// How many distinct mutations (profile, family, field, kind) the seeds make a mutant of, and how many the profiles'
    /// families have: the seeds name their choices when the two agree.
    package static func seedReach() -> (reached: Int, mutations: Int) {
        var reached = Set<String>()
        for seed in seeds {
            var random = HuntRandom(script: seed)
            let target = targets[random.index(targets.count)]
            if let mutant = target.forge.mutant(0, drawingFrom: &random) {
                // Families can share a field's name (the raw bytes of an attestation object): the baseline's family tells them apart.
                let family = mutant.baseline.split(separator: ".").first.map(String.init) ?? ""
                reached.insert("\(target.profile.name) \(family) \(mutant.field.rawValue) \(mutant.kind.rawValue)")
            }
        }
        return (reached.count, targets.reduce(0) { $0 + $1.forge.mutationCount })
    }

    static func littleEndian(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
