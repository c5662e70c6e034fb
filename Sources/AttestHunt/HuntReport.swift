import AttestCatalogue
import AttestConformance
import AttestEvidence
import Foundation

/// The triage of a hunt: per cluster, which verifiers accept and refuse, the mutated field against the valid case,
/// the rule a refusal named, whether a catalogued case already catches the accepting verifier under that rule, and
/// the command that replays it.
package struct HuntReport: Sendable {
    package let state: HuntState
    /// The valid cases the mutants came from, by id (for the evidence diff).
    package let baselines: [String: Case]
    package let rules: [RuleID: Rule]

    package init(state: HuntState, baselines: [Case], rules: [Rule]) {
        self.state = state
        self.baselines = Dictionary(baselines.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.rules = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Clusters, most-seen first, then by id.
    package var clusters: [Cluster] {
        state.clusters.sorted { ($0.count, $1.key.id) > ($1.count, $0.key.id) }
    }

    /// The replay suite of `cluster` (`clusters/ID.json`, the vectors format `run --cases` reads): the valid case
    /// and the kept mutant. The mutant expects what the reference verifier (or, without it, the first verifier that
    /// refused) said: a refusal under the suggested rule at the step it refused, with the valid case as its control,
    /// or acceptance of every step. Steps after that refusal depend on it (an assertion of a credential refused at
    /// registration): they stay, so a verifier that crashes there still shows it, but their verdicts are not compared.
    package func suite(_ cluster: Cluster, profile: Profile) -> VectorSuite {
        let mutant = cluster.mutant
        let verifiers = state.configuration.verifiers
        let rule = cluster.suggestedRule(verifiers: verifiers)
        let referenceAccepts = zip(verifiers, cluster.judgements).contains { $0 == Cluster.referenceName && $1 == .accepted }
        let refusals = zip(verifiers, cluster.judgements).compactMap { name, judgement -> (String, Int)? in
            guard case .refused(let step, _, _) = judgement else { return nil }
            return (name, step)
        }
        let refusedAt = (refusals.first { $0.0 == Cluster.referenceName } ?? refusals.first)?.1
        let breakingStep = referenceAccepts || rule == nil ? nil : refusedAt
        let either = isEither(cluster)
        let steps = mutant.testCase.steps.enumerated().map { index, step in
            Step(kind: step.kind, inputs: step.inputs, breaks: index == breakingStep ? rule : nil, time: step.time,
                 expectedStatus: step.expectedStatus,
                 either: step.either || index == mutant.step && either || breakingStep.map { index > $0 } ?? false,
                 repeats: step.repeats)
        }
        // A step index read back from hunt.json may lie outside the mutant's steps: then no step breaks the rule.
        let breaks = breakingStep.map(mutant.testCase.steps.indices.contains) == true ? rule : nil
        let verdicts = zip(verifiers, cluster.judgements).map { "\($0) \($1.words)" }.joined(separator: "; ")
        var replay = Case(id: "hunt.\(cluster.key.id)", family: mutant.testCase.family, rule: breaks,
                          description: "\(mutant.testCase.description), seen \(cluster.count) times: \(verdicts)",
                          importance: .medium, context: mutant.testCase.context, steps: steps)
        replay.control = breaks == nil ? nil : mutant.baseline
        var cases = [replay]
        if breaks != nil, let baseline = baselines[mutant.baseline] { cases.insert(baseline, at: 0) }
        let family = BuiltinCatalogue.families.first { $0.name == mutant.testCase.family }
        return VectorSuite(family: mutant.testCase.family, seed: state.configuration.seed, stepKinds: family?.stepKinds ?? [:],
                           rules: family?.rules ?? Array(rules.values), profiles: [profile], cases: cases)
    }

    /// Whether the specification leaves the cluster's verdict to the relying party: a registration refused under a
    /// statement or trust rule by a relying party that accepts any attestation (as the catalogue's "either" cases).
    package func isEither(_ cluster: Cluster) -> Bool {
        let mutant = cluster.mutant
        guard mutant.testCase.family == WebAuthnFamily.name, let rule = cluster.suggestedRule(verifiers: state.configuration.verifiers),
              mutant.testCase.steps.indices.contains(mutant.step),
              mutant.testCase.steps[mutant.step].kind == .webAuthnRegistration else { return false }
        return WebAuthnFamily.leftToRelyingParty(registrationRule: rule, parameters: mutant.testCase.context.parameters)
    }

    /// Whether the catalogue already catches the cluster's accepting verifiers under its suggested rule.
    package func coverage(_ cluster: Cluster) -> String {
        let verifiers = state.configuration.verifiers
        guard let rule = cluster.suggestedRule(verifiers: verifiers) else { return "no rule named" }
        if isEither(cluster) {
            return "either: the relying party accepts any attestation, so \(rule) is its choice (§7.1, the note at its end)"
        }
        let accepting = cluster.judgements.indices.filter { cluster.judgements[$0] == .accepted }
        guard !accepting.isEmpty else { return "no verifier accepts" }
        let parts = accepting.map { index -> String in
            let caught = state.catalogueCatches[HuntState.coverageKey(verifier: index, rule: rule)] ?? []
            return caught.isEmpty ? "new: no catalogued \(rule) case catches \(verifiers[index])"
                : "catalogued: \(verifiers[index]) already fails \(caught.prefix(3).joined(separator: ", "))"
        }
        return parts.joined(separator: "; ")
    }

    package func isNew(_ cluster: Cluster) -> Bool { coverage(cluster).hasPrefix("new:") }

    package func markdown(directory: String) -> String {
        let configuration = state.configuration
        var lines = ["# Hunt: \(configuration.profile), seed \(configuration.seed)", ""]
        lines.append("Verifiers, in pattern order: " + configuration.verifiers.enumerated().map { "\($0 + 1). `\($1)`" }.joined(separator: " "))
        lines.append("")
        lines.append("\(state.mutantsTried) mutants in \(String(format: "%.0f", state.elapsed)) s; \(state.agreements) agreed, "
                     + "\(state.clusters.count) clusters of disagreement (\(state.clusters.filter(isNew).count) under a rule no catalogued case "
                     + "catches the accepting verifier on)" + (state.droppedClusters > 0 ? ", \(state.droppedClusters) beyond the cap dropped" : "") + ".")
        if !state.excludedBaselines.isEmpty {
            lines.append("")
            lines.append("Valid cases left out (a verifier did not accept them, so their mutants would prove nothing):")
            for (id, why) in state.excludedBaselines.sorted(by: { $0.key < $1.key }) { lines.append("- `\(id)`: \(why)") }
        }
        lines += ["", "| Cluster | Seen | Verdicts | Suggested rule | Catalogue |", "|---|---|---|---|---|"]
        for cluster in clusters {
            let verdicts = cluster.judgements.map(\.verdictClass).joined()
            let rule = cluster.suggestedRule(verifiers: configuration.verifiers)
            let ruleText = rule.map { "`\($0)` (\(rules[$0]?.level.rawValue.uppercased() ?? "?"))" } ?? "-"
            lines.append("| [`\(cluster.key.id)`](#\(anchor(cluster))) | \(cluster.count) | \(verdicts) | \(ruleText) | \(cell(coverage(cluster))) |")
        }
        for cluster in clusters {
            lines += ["", "## \(cluster.key.id)", "", "<a id=\"\(anchor(cluster))\"></a>",
                      "Field `\(cluster.key.field)`, mutation `\(cluster.key.kind)`, seen \(cluster.count) times; kept mutant \(cluster.mutant.index) "
                      + "(\(cluster.mutant.size) changed bytes) of `\(cluster.mutant.baseline)`, step \(cluster.mutant.step).", ""]
            for (name, judgement) in zip(configuration.verifiers, cluster.judgements) { lines.append("- `\(name)` \(cell(judgement.words))") }
            lines.append("")
            lines.append("Evidence against the valid case (step \(cluster.mutant.step)):")
            lines.append("")
            lines.append("```")
            lines += diff(cluster)
            lines.append("```")
            lines.append("")
            lines.append("Replay: `attest-harness run --cases \(directory)/clusters/\(cluster.key.id).json --profile \(configuration.profile) --verifier VERIFIER`")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The triage as JSON: the clusters with their judgements, suggested rule and coverage (the mutant cases stay in
    /// the replay suites).
    package func json() throws -> Data {
        struct Row: Encodable {
            let id: String, field: String, kind: String, pattern: String, seen: Int, mutant: UInt64, baseline: String
            let changedBytes: Int, step: Int, verdicts: [String: String], suggestedRule: String?, ruleLevel: String?
            let catalogue: String, new: Bool, suite: String
        }
        struct Document: Encodable {
            let format: String, profile: String, seed: UInt64, verifiers: [String], mutants: UInt64, agreements: UInt64
            let elapsedSeconds: Double, excludedBaselines: [String: String], clusters: [Row]
        }
        let verifiers = state.configuration.verifiers
        let rows = clusters.map { cluster in
            let rule = cluster.suggestedRule(verifiers: verifiers)
            return Row(id: cluster.key.id, field: cluster.key.field.rawValue, kind: cluster.key.kind.rawValue, pattern: cluster.key.pattern,
                       seen: cluster.count, mutant: cluster.mutant.index, baseline: cluster.mutant.baseline,
                       changedBytes: cluster.mutant.size, step: cluster.mutant.step,
                       verdicts: Dictionary(zip(verifiers, cluster.judgements.map(\.words)), uniquingKeysWith: { first, _ in first }),
                       suggestedRule: rule?.rawValue, ruleLevel: rule.flatMap { rules[$0]?.level.rawValue },
                       catalogue: coverage(cluster), new: isNew(cluster), suite: "clusters/\(cluster.key.id).json")
        }
        let document = Document(format: "attest-harness-hunt-report/1", profile: state.configuration.profile, seed: state.configuration.seed,
                                verifiers: verifiers, mutants: state.mutantsTried, agreements: state.agreements,
                                elapsedSeconds: state.elapsed, excludedBaselines: state.excludedBaselines, clusters: rows)
        return try JSONEncoder.harness.encode(document) + Data("\n".utf8)
    }

    /// The mutated step's inputs that differ from the valid case's, each as text when it is printable UTF-8, else hex.
    package func diff(_ cluster: Cluster) -> [String] {
        guard let baseline = baselines[cluster.mutant.baseline], baseline.steps.indices.contains(cluster.mutant.step),
              cluster.mutant.testCase.steps.indices.contains(cluster.mutant.step) else { return ["(the valid case is not at hand)"] }
        let before = baseline.steps[cluster.mutant.step].inputs
        let after = cluster.mutant.testCase.steps[cluster.mutant.step].inputs
        var lines: [String] = []
        for key in Set(before.keys).union(after.keys).sorted(by: { $0.rawValue < $1.rawValue }) where before[key] != after[key] {
            lines.append("\(key.rawValue):")
            lines.append("  - " + (before[key].map(render) ?? "(absent)"))
            lines.append("  + " + (after[key].map(render) ?? "(absent)"))
        }
        return lines.isEmpty ? ["(no input differs: the mutation changed only what the case's context holds)"] : lines
    }

    func render(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
            return text.count > 400 ? String(text.prefix(400)) + "…" : text
        }
        let hex = bytes.prefix(200).map { String(format: "%02x", $0) }.joined()
        return hex + (bytes.count > 200 ? "… (\(bytes.count) bytes)" : "")
    }

    package func anchor(_ cluster: Cluster) -> String { cluster.key.id.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined() }

    func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
}
