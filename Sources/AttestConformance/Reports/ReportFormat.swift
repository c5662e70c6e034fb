import Foundation

/// The report formats `run --format` and `report --format` offer.
public enum ReportFormat: String, CaseIterable, Sendable {
    case console
    /// The report document itself (docs/report.schema.json): what baselines and `report` read.
    case json
    /// JUnit XML, valid against both Jenkins' and Ant's schemas.
    case junit
    case markdown
    /// SARIF 2.1.0, for GitHub code scanning and other static-analysis dashboards.
    case sarif
    /// One self-contained HTML page: summary, rule matrix, filters, and per case its decoded evidence.
    case html

    /// The format called `name`, or a usage message listing the formats.
    public static func named(_ name: String) throws -> ReportFormat {
        guard let format = ReportFormat(rawValue: name) else {
            throw ReportFormatError.unknown(name)
        }
        return format
    }

    /// The usual file extension of a report in this format.
    public var fileExtension: String {
        switch self {
        case .console: "txt"
        case .json: "json"
        case .junit: "junit.xml"
        case .markdown: "md"
        case .sarif: "sarif"
        case .html: "html"
        }
    }

    /// `report` rendered in this format. `evidence` holds, by case id, the decoded inputs the HTML page shows;
    /// `color` asks for ANSI colours (console only). Statements, levels and clauses come from `report.rules`.
    /// `sarifLocation`: where SARIF results point (else at the case, under the `ATTEST_HARNESS_CASES` base).
    public func render(_ report: RunReport, evidence: [String: [EvidenceNode]] = [:], color: Bool = false,
                       sarifLocation: SARIFLocation? = nil, sarifArtifacts: SARIFArtifacts? = nil) throws -> String {
        switch self {
        case .console: return ConsoleReport(report: report, color: color).text
        case .json: return String(decoding: try JSONEncoder.harness.encode(report), as: UTF8.self) + "\n"
        case .junit: return JUnitReport(report: report).text
        case .markdown: return MarkdownReport(report: report).text
        case .sarif: return try SARIFReport(report: report, location: sarifLocation, artifacts: sarifArtifacts).text
        case .html: return HTMLReport(report: report, evidence: evidence).text
        }
    }
}

/// A format name that is not one of `ReportFormat`'s.
public enum ReportFormatError: Error, CustomStringConvertible {
    case unknown(String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "bad format \"\(name)\"; expected one of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}

/// Results grouped by rule in catalogue order, valid cases under "valid".
struct RuleGroup {
    let title: String
    let rule: Rule?
    let results: [CaseResult]

    var statement: String? { rule?.statement }
    /// The rule's level (nil for the valid cases).
    var level: RuleLevel? { rule?.level }

    /// "webauthn.signCount [POLICY]", or "valid".
    var label: String { level.map { "\(title) [\($0.rawValue)]" } ?? title }

    var findings: [CaseResult] { results.filter { $0.status.isFailure } }
    /// Refusals the run cannot back (unconfirmed, masked): listed after the failures, never counted as passes.
    var unproven: [CaseResult] { results.filter { $0.status.isUnproven } }
    /// Cases answered apart from passes and findings: unsupported, and those whose verdict is the relying party's.
    var answeredApart: [CaseResult] { results.filter { $0.status == .unsupported || $0.status == .acceptable } }
    var fixed: [CaseResult] { results.filter { $0.baseline == .fixed } }

    static func groups(_ report: RunReport) -> [RuleGroup] {
        var order = ["valid"] + report.rules.map(\.id.rawValue)
        for result in report.results where !order.contains(result.rule?.rawValue ?? "valid") {
            order.append(result.rule?.rawValue ?? "valid")
        }
        let byTitle = Dictionary(grouping: report.results) { $0.rule?.rawValue ?? "valid" }
        return order.compactMap { title in
            guard let results = byTitle[title], !results.isEmpty else { return nil }
            return RuleGroup(title: title, rule: report.rules.first { $0.id.rawValue == title }, results: results)
        }
    }
}

extension RunReport {
    /// Refusals the run cannot back (unconfirmed, masked).
    var unproven: [CaseResult] { results.filter { $0.status.isUnproven } }

    /// The rule `id` as recorded in the report.
    func rule(_ id: RuleID?) -> Rule? { id.flatMap { id in rules.first { $0.id == id } } }

    /// "3 findings: 1 MUST, 2 POLICY" per level of the rules they break (a valid case refused counts as MUST).
    var findingsByLevel: String {
        let levels = Dictionary(rules.map { ($0.id, $0.level) }, uniquingKeysWith: { first, _ in first })
        let counted = Dictionary(grouping: findings) { result in result.rule.flatMap { levels[$0] } ?? .must }
        return RuleLevel.allCases.compactMap { level in counted[level].map { "\($0.count) \(level.rawValue)" } }.joined(separator: ", ")
    }

    /// The level a finding of `result` has: its rule's, or MUST for a valid case refused.
    func level(of result: CaseResult) -> RuleLevel { rule(result.rule)?.level ?? .must }

    /// "42 cases: 41 passed, 1 finding, 0 errors, 0 crashes, 0 unconfirmed, 0 masked; passes proven by reason and
    /// control 30, by control only 0, by outcome 11; against the baseline: 1 new, 0 known, 2 fixed".
    var tally: String {
        let checks = results.filter { $0.optionsCheck == true }
        let cases = results.count - checks.count
        let passed = results.filter { $0.status == .pass && $0.optionsCheck != true }.count
        let found = findings.filter { $0.optionsCheck != true }.count, unjudged = unsupported.filter { $0.optionsCheck != true }.count
        var text = "\(cases) case\(cases == 1 ? "" : "s"): \(passed) passed, \(found) finding\(found == 1 ? "" : "s"), "
            + "\(errors.count) error\(errors.count == 1 ? "" : "s")"
        if unjudged > 0 { text += ", \(unjudged) unsupported" }
        if !acceptable.isEmpty { text += ", \(acceptable.count) acceptable (either verdict conforms)" }
        text += ", \(crashes.count) crash\(crashes.count == 1 ? "" : "es"), \(unconfirmed.count) unconfirmed, \(masked.count) masked"
        text += "; passes proven by reason and control \(passes(provenBy: .reasonAndControl).count), by control only "
            + "\(passes(provenBy: .control).count), by outcome \(passes(provenBy: .outcome).count)"
        if !checks.isEmpty {
            let count = { (status: CaseResult.Status) in checks.filter { $0.status == status }.count }
            text += "; options checks: \(count(.pass)) passed, \(count(.finding)) finding\(count(.finding) == 1 ? "" : "s"), \(count(.unsupported)) unsupported"
        }
        if let baseline {
            text += "; against the baseline: \(baseline.new.count) new, \(baseline.known.count) known, \(baseline.fixed.count) fixed"
        }
        return text
    }

    /// What the run concluded, as the exit status says it.
    var verdictLine: String {
        // A narrowed gate says so, and what it let through is still counted here (the reports list it all).
        let gate = failOn.flatMap { $0 == .default ? nil : $0 }
        let gateText = gate.map { " (--fail-on \($0.description))" } ?? ""
        switch exitCode {
        case 0:
            guard let gate else { return baseline == nil ? "PASS: no findings" : "PASS: no new findings or errors against the baseline" }
            let passed = results.filter { $0.status.isFailure || $0.status == .unconfirmed }.filter { !gate.fails($0, level: level(of: $0)) }.count
            return "PASS: nothing fails the gate\(gateText)" + (passed == 0 ? "" : "; \(passed) other finding\(passed == 1 ? "" : "s") or error\(passed == 1 ? "" : "s") reported")
        case 1:
            let crashes = gating.filter { $0.status == .crash }.count, findings = gating.count - crashes
            var parts: [String] = []
            if findings > 0 { parts.append("\(findings) \(baseline == nil ? "" : "new ")finding\(findings == 1 ? "" : "s")") }
            if crashes > 0 { parts.append("\(crashes) \(baseline == nil ? "" : "new ")crash\(crashes == 1 ? "" : "es")") }
            return "FAIL: " + parts.joined(separator: ", ") + gateText
        default:
            let new = gating.filter { $0.status == .error }.count
            if new == 0 {
                return "ERROR: no case was judged with evidence (\(errors.count) harness error\(errors.count == 1 ? "" : "s"), "
                    + "\(unconfirmed.count) unconfirmed, \(masked.count) masked, \(unsupported.count) unsupported)"
            }
            return "ERROR: \(new) \(baseline == nil ? "" : "new ")harness error\(new == 1 ? "" : "s")"
        }
    }
}

extension CaseResult {
    /// The explanation every format prints for a failing case: what it is, which rule and clause, what was
    /// expected and what came back, how to reproduce it.
    func explanation(in report: RunReport) -> [String] {
        var lines: [String] = []
        if let description { lines.append("case: \(description)") }
        if let rule = report.rule(rule) {
            lines.append("rule: \(rule.id.rawValue) [\(rule.level.rawValue)] \(rule.statement)")
            lines.append("clause: \(rule.source)" + (rule.quote.map { " \"\($0)\"" } ?? ""))
            if let owner = rule.ownerVerifier { lines.append("platform owner's verifier: \(owner)") }
        } else if rule == nil {
            lines.append("rule: none (a valid case: every conforming verifier accepts it)")
        }
        switch status {
        case .finding: lines.append("step \(step ?? 0): expected \(expectedText), got \(actualText)")
        case .hang: lines.append("HANG: \(message ?? "no answer")")
        case .error: lines.append("harness error: \(message ?? "")")
        case .unsupported: lines.append("unsupported: \(message ?? "")")
        case .crash: lines.append("crash: step \(step ?? 0): \(message ?? actualText) (a crash is never a rejection)")
        case .unconfirmed:
            lines.append("unconfirmed: \(message ?? "") (got \(actualText); the refusal shows nothing while the control is refused too)")
        case .masked:
            lines.append("masked: \(message ?? "") (got \(actualText))")
        case .acceptable:
            lines.append("acceptable: \(message ?? "") (got \(actualText); either verdict conforms)")
        case .pass: break
        }
        if let control, status != .unconfirmed {
            lines.append("control: \(control.caseId) \(control.status?.rawValue ?? "not run")")
        }
        if let baseline { lines.append("baseline: \(baseline.rawValue)") }
        for command in reproduce ?? [] { lines.append("reproduce: \(command)") }
        for request in requests ?? [] { lines.append("request: \(request)") }
        return lines.map(DisplayText.safe)
    }
}
