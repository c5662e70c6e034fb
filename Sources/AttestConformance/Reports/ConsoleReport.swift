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
            // A rule none of whose results is a pass or a recorded choice was not judged: never headed PASS.
            let judged = group.results.contains { $0.status == .pass || $0.status == .acceptable }
            let mark = !group.findings.isEmpty ? (gating ? paint("FAIL", "31") : paint("KNOWN", "33"))
                : judged ? paint("PASS", "32") : paint("NOT JUDGED", "33")
            let checks = group.results.filter { $0.optionsCheck == true }
            let count = checks.count == group.results.count ? "options check"
                : "\(group.results.count) case\(group.results.count == 1 ? "" : "s")"
            lines.append("\(mark) \(DisplayText.safe(group.label)) (\(count))")
            // An options check's pass says how many responses back it.
            for result in group.findings + group.unproven + group.answeredApart + checks.filter({ $0.status == .pass }) {
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
