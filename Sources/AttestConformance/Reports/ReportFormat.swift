import Foundation

/// The report formats `run --format` offers.
public enum ReportFormat: String, CaseIterable, Sendable {
    case console
    case json
    case junit
    case markdown

    /// `report` rendered in this format; `rules` supplies statements, `color` ANSI colours (console only).
    public func render(_ report: RunReport, rules: [Rule], color: Bool = false) throws -> String {
        switch self {
        case .console: return ConsoleReport(report: report, rules: rules, color: color).text
        case .json: return String(decoding: try JSONEncoder.harness.encode(report), as: UTF8.self) + "\n"
        case .junit: return JUnitReport(report: report, rules: rules).text
        case .markdown: return MarkdownReport(report: report, rules: rules).text
        }
    }
}

/// Results grouped by rule in catalogue order, valid cases under "valid".
struct RuleGroup {
    let title: String
    let statement: String?
    /// The rule's level (nil for the valid cases).
    var level: RuleLevel? = nil
    let results: [CaseResult]

    /// "webauthn.signCount [POLICY]", or "valid".
    var label: String { level.map { "\(title) [\($0.rawValue)]" } ?? title }

    var findings: [CaseResult] { results.filter { $0.status != .pass && $0.status != .unsupported } }
    var unsupported: [CaseResult] { results.filter { $0.status == .unsupported } }

    static func groups(_ report: RunReport, rules: [Rule]) -> [RuleGroup] {
        var order = ["valid"] + rules.map(\.id.rawValue)
        for result in report.results where !order.contains(result.rule?.rawValue ?? "valid") {
            order.append(result.rule?.rawValue ?? "valid")
        }
        return order.compactMap { title in
            let results = report.results.filter { ($0.rule?.rawValue ?? "valid") == title }
            guard !results.isEmpty else { return nil }
            let rule = rules.first { $0.id.rawValue == title }
            return RuleGroup(title: title, statement: rule?.statement, level: rule?.level, results: results)
        }
    }
}

extension RunReport {
    /// "3 findings: 1 MUST, 2 POLICY" per level of the rules they break (a valid case refused counts as MUST).
    func findingsByLevel(rules: [Rule]) -> String {
        let levels = Dictionary(rules.map { ($0.id, $0.level) }, uniquingKeysWith: { first, _ in first })
        let counted = Dictionary(grouping: findings) { result in result.rule.flatMap { levels[$0] } ?? .must }
        return RuleLevel.allCases.compactMap { level in counted[level].map { "\($0.count) \(level.rawValue)" } }.joined(separator: ", ")
    }

    /// "42 cases: 41 passed, 1 finding, 0 errors".
    var tally: String {
        let passed = results.count - findings.count - errors.count - unsupported.count
        var text = "\(results.count) cases: \(passed) passed, \(findings.count) finding\(findings.count == 1 ? "" : "s"), "
            + "\(errors.count) error\(errors.count == 1 ? "" : "s")"
        if !unsupported.isEmpty { text += ", \(unsupported.count) unsupported" }
        if let regressions { text += "; \(regressions.count) regression\(regressions.count == 1 ? "" : "s") against the baseline" }
        return text
    }
}
