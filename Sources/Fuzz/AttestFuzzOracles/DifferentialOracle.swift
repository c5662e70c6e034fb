import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestForge
import AttestHunt
import AttestReference
import Foundation

/// fuzz-differential: the hunt's mutation engine under libFuzzer. The input steers which valid WebAuthn case is
/// mutated, by which mutation and with which choices (`HuntRandom(script:)`: 8 input bytes per choice). The mutant
/// is judged by the reference verifier first (it must give a verdict on every step, never throw), then compared:
/// - with a single-rule mutant of the reference: removing one check never turns an acceptance into a refusal, and
///   the reference without the rule it refused under never refuses at an earlier step (it may still refuse at the
///   same step under the same rule where the evidence has no lenient reading, such as clientDataJSON that is no
///   JSON object);
/// - its parsers with independent ones: the mutated attestation object through the CBOR property (our strict reader
///   against libcbor), and a clientDataJSON our parser reads must be a JSON object Foundation reads with the same
///   type, challenge and origin.
enum DifferentialOracle {
    static let profile = Profile.webAuthnL3

    static let forge: MutantForge = {
        do {
            return MutantForge(families: try HuntFamily.all(for: profile, seed: 1))
        } catch {
            fatalError("cannot forge the fuzz-differential baselines: \(error)")
        }
    }()

    /// The rules a single-rule mutant may leave out, in a fixed order.
    static let rules: [RuleID] = profile.rules.sorted { $0.rawValue < $1.rawValue }

    static func check(_ input: [UInt8]) -> String? {
        var random = HuntRandom(script: input)
        guard let mutant = forge.mutant(0, drawingFrom: &random) else { return nil }
        let reference: [Verdict]
        switch verdicts(mutant.testCase, profile: profile) {
        case .failure(let failure): return "\(mutant.field) \(mutant.kind): \(failure)"
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

    /// Seeds: each mutation applied once to a few baselines (the script's first value picks the baseline, the second
    /// the mutation).
    static var seeds: [[UInt8]] {
        var seeds: [[UInt8]] = []
        let baselines = forge.baselineCount, mutations = forge.mutationCount
        for mutation in 0..<mutations {
            for baseline in [0, 7, 19] where baseline < baselines {
                seeds.append(littleEndian(UInt64(baseline)) + littleEndian(UInt64(mutation)) + littleEndian(UInt64(mutation * 31 + baseline)))
            }
        }
        return seeds
    }

    static func littleEndian(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
