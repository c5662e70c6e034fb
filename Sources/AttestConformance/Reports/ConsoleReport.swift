/// Human-readable report grouped by rule; ANSI colour only when asked (a TTY without NO_COLOR).
struct ConsoleReport {
    let report: RunReport
    let rules: [Rule]
    let color: Bool

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    var text: String {
        var lines = ["attest-harness: \(report.verifier) under profile \(report.profile) (seed \(report.seed))", ""]
        for group in RuleGroup.groups(report, rules: rules) {
            let mark = group.findings.isEmpty ? paint("PASS", "32") : paint("FAIL", "31")
            let count = "\(group.results.count) case\(group.results.count == 1 ? "" : "s")"
            lines.append("\(mark) \(group.label) (\(count))")
            for result in group.findings + group.unsupported { lines.append("       " + result.summary) }
        }
        lines.append("")
        let byLevel = report.findingsByLevel(rules: rules)
        let tally = report.tally + (byLevel.isEmpty ? "" : " (findings by level: \(byLevel))")
        lines.append(report.exitCode == 0 ? paint(tally, "32") : paint(tally, "1;31"))
        return lines.joined(separator: "\n") + "\n"
    }
}
