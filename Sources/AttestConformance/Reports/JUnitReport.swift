/// JUnit XML, one testcase per case with its rule as the class name, for CI dashboards.
struct JUnitReport {
    let report: RunReport
    let rules: [Rule]

    var text: String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(#"<testsuites name="attest-harness" tests="\#(report.results.count)" failures="\#(report.findings.count)" errors="\#(report.errors.count)">"#)
        for group in RuleGroup.groups(report, rules: rules) {
            let failures = group.results.filter { $0.status == .finding || $0.status == .hang }.count
            let errors = group.results.filter { $0.status == .error }.count
            lines.append(#"  <testsuite name="\#(escape(group.title))" tests="\#(group.results.count)" failures="\#(failures)" errors="\#(errors)">"#)
            for result in group.results {
                let open = #"    <testcase classname="\#(escape(group.title))" name="\#(escape(result.caseId))""#
                switch result.status {
                case .pass:
                    lines.append(open + "/>")
                case .finding, .hang:
                    lines.append(open + ">")
                    lines.append(#"      <failure message="\#(escape(result.summary))" type="\#(result.status.rawValue)"/>"#)
                    lines.append("    </testcase>")
                case .error:
                    lines.append(open + ">")
                    lines.append(#"      <error message="\#(escape(result.summary))" type="harness"/>"#)
                    lines.append("    </testcase>")
                case .unsupported:
                    lines.append(open + ">")
                    lines.append(#"      <skipped message="\#(escape(result.summary))"/>"#)
                    lines.append("    </testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters even escaped.
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20, !"\t\n\r".contains(character) {
                    out += "?"
                } else {
                    out.append(character)
                }
            }
        }
        return out
    }
}
