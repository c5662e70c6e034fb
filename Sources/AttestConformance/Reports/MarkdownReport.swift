import Foundation

/// A Markdown summary for pull requests: one table row per rule, then the failing cases explained.
struct MarkdownReport {
    let report: RunReport

    var text: String {
        let byLevel = report.findingsByLevel
        var lines = ["# attest-harness: `\(report.verifier)` under `\(report.profile)`", "",
                     "**\(report.verdictLine)**. " + report.tally + (byLevel.isEmpty ? "" : " (findings by level: \(byLevel))"), "",
                     "Seed \(report.seed), catalogue `\(report.catalogue ?? "unrecorded")`, attest-harness \(report.harnessVersion ?? "").", "",
                     "| rule | level | cases | findings | statement |", "|---|---|---|---|---|"]
        let groups = RuleGroup.groups(report)
        for group in groups {
            lines.append("| `\(group.title)` | \(group.level?.rawValue ?? "") | \(group.results.count) | \(group.findings.count) | \(cell(group.statement ?? "valid baseline")) |")
        }
        let failing = groups.flatMap(\.findings)
        if !failing.isEmpty {
            lines += ["", "## Findings and errors", ""]
            for result in failing {
                let tag = result.baseline.map { " _(\($0.rawValue))_" } ?? ""
                lines.append("### `\(result.caseId)`\(tag)")
                lines.append("")
                for line in result.explanation(in: report) {
                    if let command = line.split(separator: " ", maxSplits: 1).last, line.hasPrefix("reproduce:") || line.hasPrefix("request:") {
                        lines.append("- \(line.hasPrefix("request:") ? "request" : "reproduce"): `\(command.replacingOccurrences(of: "`", with: "'"))`")
                    } else {
                        lines.append("- \(cell(line))")
                    }
                }
                lines.append("")
            }
        }
        if let baseline = report.baseline, !baseline.fixed.isEmpty {
            lines += ["", "## Fixed since the baseline", ""] + baseline.fixed.map { "- `\($0)`" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
