import Foundation

/// JUnit XML, valid against Jenkins' schema (the xunit plugin's junit-10.xsd) and, but for the root's totals, Ant's JUnit
/// XSD: a `<testsuites>` root with the run's totals (`name`, `tests`, `failures`, `errors`, `time`: the attributes
/// Jenkins' schema gives it; Ant's gives it none, so scripts/validate-reports checks Ant's without them),
/// one `<testsuite>` per rule (with `package`, `id`, `timestamp`, `hostname` and `time`), `<properties>` first and
/// `<system-out>`/`<system-err>` last, and at most one of `<failure>`, `<error>` or `<skipped>` per test case.
///
/// The counts agree with the exit status: `failures` and `errors` count what fails the gate; a finding or error the
/// baseline already had is `<skipped>` as known, an unsupported, unconfirmed or masked case `<skipped>` with its reason
/// (none of them is a pass: the run cannot back it), a crash a `<failure>` like a finding, and a case fixed
/// since the baseline passes with the fact in its suite's `<system-out>`. Each failure's body explains it.
struct JUnitReport {
    let report: RunReport

    var text: String {
        let timestamp = Self.timestamp(report.startedAt ?? Date(timeIntervalSince1970: 0))
        let host = escape(report.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost")
        let groups = RuleGroup.groups(report)
        // The totals on the root, as Jenkins' schema allows and GitLab, gotestsum and junitparser read them.
        let totalFailures = report.results.filter(Self.isFailure).count
        let totalErrors = report.results.filter(Self.isError).count
        let totalTime = report.results.reduce(0) { $0 + ($1.durationSeconds ?? 0) }
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#,
                     #"<testsuites name="attest-harness \#(escape(report.profile))" tests="\#(report.results.count)" failures="\#(totalFailures)" errors="\#(totalErrors)" time="\#(Self.seconds(totalTime))">"#]
        for (index, group) in groups.enumerated() {
            let errors = group.results.filter(Self.isError).count
            let failures = group.results.filter(Self.isFailure).count
            let skipped = group.results.filter { $0.status == .unsupported || $0.status == .acceptable || $0.status.isUnproven || ($0.status.isFailure && $0.baseline == .known) }.count
            let time = group.results.reduce(0) { $0 + ($1.durationSeconds ?? 0) }
            lines.append(#"  <testsuite name="\#(escape(group.title))" package="attest-harness.\#(escape(report.profile))" id="\#(index)" timestamp="\#(timestamp)" hostname="\#(host)" tests="\#(group.results.count)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)" time="\#(Self.seconds(time))">"#)
            lines.append("    <properties>")
            var properties = [("profile", report.profile), ("verifier", report.verifier), ("seed", String(report.seed)),
                              ("catalogue", report.catalogue ?? ""), ("harnessVersion", report.harnessVersion ?? "")]
            if let rule = group.rule {
                properties += [("level", rule.level.rawValue), ("statement", rule.statement), ("clause", rule.source)]
            }
            for (name, value) in properties {
                lines.append(#"      <property name="\#(name)" value="\#(escape(value))"/>"#)
            }
            lines.append("    </properties>")
            for result in group.results {
                // classname `profile.rule`: two profiles' reports in one Jenkins job stay apart.
                let open = #"    <testcase name="\#(escape(result.caseId))" classname="\#(escape(report.profile + "." + group.title))" time="\#(Self.seconds(result.durationSeconds ?? 0))""#
                let body = escape(result.explanation(in: report).joined(separator: "\n"))
                switch (result.status, result.baseline) {
                case (.pass, _):
                    lines.append(open + "/>")
                case (.finding, .known), (.hang, .known), (.crash, .known), (.error, .known):
                    lines.append(open + ">")
                    lines.append(#"      <skipped message="\#(escape("known in the baseline: " + result.summary))"/>"#)
                    lines.append("    </testcase>")
                case (.finding, _), (.hang, _), (.crash, _):
                    lines.append(open + ">")
                    lines.append(#"      <failure message="\#(escape(result.summary))" type="\#(result.status.rawValue) \#(report.level(of: result).rawValue)">\#(body)</failure>"#)
                    lines.append("    </testcase>")
                case (.error, _):
                    lines.append(open + ">")
                    lines.append(#"      <error message="\#(escape(result.summary))" type="harness">\#(body)</error>"#)
                    lines.append("    </testcase>")
                case (.unsupported, _), (.unconfirmed, _), (.masked, _), (.acceptable, _):
                    lines.append(open + ">")
                    lines.append(#"      <skipped message="\#(escape(result.summary))"/>"#)
                    lines.append("    </testcase>")
                }
            }
            let fixed = group.fixed.map { "fixed since the baseline: \($0.caseId)" }
            lines.append("    <system-out>\(escape(fixed.joined(separator: "\n")))</system-out>")
            lines.append("    <system-err></system-err>")
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A `<failure>`: a finding, hang or crash the gate counts (not one the baseline already had).
    static func isFailure(_ result: CaseResult) -> Bool { (result.status.isFinding || result.status == .crash) && result.baseline != .known }
    /// An `<error>`: a harness error the gate counts.
    static func isError(_ result: CaseResult) -> Bool { result.status == .error && result.baseline != .known }

    /// `2026-12-01T10:00:00`: UTC, without a zone, as Ant's schema demands.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }

    /// Seconds with three decimals, no grouping: valid as Ant's `xs:decimal` and Jenkins' time pattern.
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value.isFinite ? min(max(0, value), 1e9) : 0) }

    /// Text for an attribute or element content. Line breaks become character references (`&#10;`), which an XML
    /// reader reads back as the same characters: the file has no line a verifier's text or a profile's name begins,
    /// so none can be a CI log's workflow command (`::error::...`) when the report is printed.
    private func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": out += "&#\(scalar.value);"
            default:
                // XML 1.0 forbids most control characters and the non-characters U+FFFE and U+FFFF, even escaped.
                if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0xfffe || scalar.value == 0xffff {
                    out += "?"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
