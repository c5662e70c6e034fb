/// Human-readable report grouped by rule, each failing case explained; ANSI colour only when asked (a TTY without
/// NO_COLOR).
struct ConsoleReport {
    let report: RunReport
    let color: Bool

    private func paint(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    var text: String {
        var lines = [DisplayText.safe("attest-harness \(report.harnessVersion ?? ""): \(report.verifier) under profile \(report.profile) (seed \(report.seed), catalogue \(report.catalogue ?? "unrecorded"))"), ""]
        for group in RuleGroup.groups(report) {
            let gating = group.findings.contains { $0.baseline != .known }
            let mark = group.findings.isEmpty ? paint("PASS", "32") : gating ? paint("FAIL", "31") : paint("KNOWN", "33")
            let count = "\(group.results.count) case\(group.results.count == 1 ? "" : "s")"
            lines.append("\(mark) \(DisplayText.safe(group.label)) (\(count))")
            for result in group.findings + group.unproven + group.answeredApart {
                let tag = result.baseline.map { "[\($0.rawValue)] " } ?? ""
                lines.append("       " + tag + result.summary)
                if result.status.isFailure || result.status.isUnproven {
                    lines += result.explanation(in: report).map { "           " + $0 }
                }
            }
        }
        if let baseline = report.baseline, !baseline.fixed.isEmpty {
            lines += ["", "Fixed since the baseline (\(baseline.fixed.count)):"] + baseline.fixed.map { "       " + DisplayText.safe($0) }
        }
        lines.append("")
        lines += report.controlNotes
        let byLevel = report.findingsByLevel
        let tally = report.tally + (byLevel.isEmpty ? "" : " (findings by level: \(byLevel))")
        lines.append(report.exitCode == 0 ? paint(tally, "32") : paint(tally, "1;31"))
        lines.append(report.exitCode == 0 ? paint(report.verdictLine, "32") : paint(report.verdictLine, "1;31"))
        return lines.joined(separator: "\n") + "\n"
    }
}
