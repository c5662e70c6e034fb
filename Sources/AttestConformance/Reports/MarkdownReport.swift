import Foundation

/// A Markdown summary for pull requests: one table row per rule, then the failing cases explained.
struct MarkdownReport {
    let report: RunReport

    var text: String {
        let byLevel = report.findingsByLevel
        var lines = ["# attest-harness: \(code(report.verifier)) under \(code(report.profile))", "",
                     "**\(report.verdictLine)**. " + report.tally + (byLevel.isEmpty ? "" : " (findings by level: \(byLevel))"), "",
                     "Seed \(report.seed), catalogue \(cell(report.catalogue ?? "unrecorded")), attest-harness \(cell(report.harnessVersion ?? "")).", "",
                     "| rule | level | cases | findings | unconfirmed or masked | statement |", "|---|---|---|---|---|---|"]
        let groups = RuleGroup.groups(report)
        for group in groups {
            lines.append("| \(code(group.title)) | \(group.level?.rawValue ?? "") | \(group.results.count) | \(group.findings.count) | \(group.unproven.count) | \(cell(group.statement ?? "valid baseline")) |")
        }
        if !report.controlNotes.isEmpty { lines += [""] + report.controlNotes.map { "- \(cell($0))" } }
        for (title, results) in [("Findings, crashes and errors", groups.flatMap(\.findings)),
                                 ("Refusals the run cannot back (unconfirmed, masked)", groups.flatMap(\.unproven))] where !results.isEmpty {
            lines += ["", "## \(title)", ""]
            for result in results {
                let tag = result.baseline.map { " _(\($0.rawValue))_" } ?? ""
                lines.append("### \(code(result.caseId))\(tag)")
                lines.append("")
                for line in result.explanation(in: report) {
                    if let space = line.firstIndex(of: " "), line.hasPrefix("reproduce: ") || line.hasPrefix("request: ") {
                        // A fenced block longer than any backtick run inside: the command is copied as written.
                        let command = String(line[line.index(after: space)...])
                        let fence = String(repeating: "`", count: max(3, Self.longestBacktickRun(command) + 1))
                        lines += ["- \(line[..<space])", "", "  \(fence)sh", "  \(command)", "  \(fence)"]
                    } else {
                        lines.append("- \(cell(line))")
                    }
                }
                lines.append("")
            }
        }
        if let baseline = report.baseline, !baseline.fixed.isEmpty {
            lines += ["", "## Fixed since the baseline", ""] + baseline.fixed.map { "- \(code($0))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for a table cell or list item: line breaks gone, no raw HTML, and no Markdown (a verifier's reason
    /// cannot put a link, an image, emphasis, a heading or an @mention into a PR comment or job summary).
    private func cell(_ text: String) -> String {
        DisplayText.markdownInert(DisplayText.safe(text).replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;"))
    }

    /// An inline code span that holds `text` as it is: fenced by more backticks than any run inside, on one line.
    private func code(_ text: String) -> String {
        let flat = DisplayText.safe(text).replacingOccurrences(of: "|", with: "\\|")
        let fence = String(repeating: "`", count: Self.longestBacktickRun(flat) + 1)
        let padded = flat.hasPrefix("`") || flat.hasSuffix("`") ? " \(flat) " : flat
        return fence + padded + fence
    }

    static func longestBacktickRun(_ text: String) -> Int {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}
