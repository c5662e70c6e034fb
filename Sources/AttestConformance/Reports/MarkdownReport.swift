import Foundation

/// A Markdown summary for pull requests: one table row per rule, then the findings.
struct MarkdownReport {
    let report: RunReport
    let rules: [Rule]

    var text: String {
        let byLevel = report.findingsByLevel(rules: rules)
        var lines = ["# attest-harness: `\(report.verifier)` under `\(report.profile)`", "",
                     report.tally + (byLevel.isEmpty ? "" : " (findings by level: \(byLevel))"), "",
                     "| rule | level | cases | findings | statement |", "|---|---|---|---|---|"]
        let groups = RuleGroup.groups(report, rules: rules)
        for group in groups {
            lines.append("| `\(group.title)` | \(group.level?.rawValue ?? "") | \(group.results.count) | \(group.findings.count) | \(cell(group.statement ?? "valid baseline")) |")
        }
        let findings = groups.flatMap(\.findings)
        if !findings.isEmpty {
            lines += ["", "## Findings", ""]
            lines += findings.map { "- \(cell($0.summary))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
