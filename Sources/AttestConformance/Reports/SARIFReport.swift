import Foundation

/// SARIF 2.1.0 (OASIS, https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), for GitHub code scanning
/// and other dashboards. Rules carry their statement, level and clause; each failing case is a result located at the
/// case id (a logical location) and at a file: the one the user names, else the case's evidence file written beside
/// the report (`SARIFArtifacts`), else the case under the `ATTEST_HARNESS_CASES` base, with a stable fingerprint. A crash is a failing result like a finding; an unconfirmed or
/// masked refusal is a `review` result (level `none`): the run backs neither a pass nor a finding. Against a baseline, results say `new` or `unchanged`, and
/// fixed cases appear as `absent` passes. Harness errors are tool execution notifications: the run did not judge
/// those cases, and `executionSuccessful` is false when one counts.
///
/// Levels: a MUST finding is an `error`, a SHOULD a `warning`, a POLICY a `note`; a valid case refused is an error.
struct SARIFReport {
    let report: RunReport
    /// The file (and line) of the verifier under test every result points at, when the user names one.
    var location: SARIFLocation? = nil
    /// The evidence files results point at when no `location` is named (`--sarif-artifacts`).
    var artifacts: SARIFArtifacts? = nil

    static let informationURI = "https://github.com/attest-harness/attest-harness"
    /// A pseudo-rule for valid cases refused: every conforming verifier accepts them.
    static let validRule = Rule("valid", "A valid case is accepted: its evidence breaks no rule.", level: .must,
                                source: "the family's specification (the case description says which flow)", bugClass: .policy)

    var text: String {
        get throws {
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self) + "\n"
        }
    }

    var document: [String: Any] {
        let failing = report.results.filter { $0.status.isFinding || $0.status == .crash }
        let unproven = report.unproven
        let fixed = report.results.filter { $0.baseline == .fixed }
        var rules = report.rules
        if (failing + fixed).contains(where: { $0.rule == nil }) { rules.insert(Self.validRule, at: 0) }
        let index = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })

        var results: [[String: Any]] = failing.map { result($0, ruleIndex: index[result: $0]) }
        // A refusal the run cannot back is for a person to review: neither a pass nor a failure.
        results += unproven.map { result in
            var entry = self.result(result, ruleIndex: index[result: result])
            entry["kind"] = "review"
            entry["level"] = "none"
            return entry
        }
        results += fixed.map { result in
            var entry = self.result(result, ruleIndex: index[result: result])
            entry["kind"] = "pass"
            entry["level"] = "none"
            entry["baselineState"] = "absent"
            entry["message"] = ["text": "\(result.caseId): fixed since the baseline (it failed there and passes now)."]
            return entry
        }
        let errors = report.errors
        var invocation: [String: Any] = [
            "executionSuccessful": report.exitCode != 2,
            "exitCode": Int(report.exitCode),
            "toolExecutionNotifications": errors.map { error -> [String: Any] in
                [
                    "level": error.baseline == .known ? "warning" : "error",
                    "message": ["text": error.summary],
                    "locations": [location(error)],
                    "properties": ["caseId": error.caseId, "baselineState": error.baseline?.rawValue ?? "none"],
                ]
            },
            "properties": properties(),
        ]
        if let startedAt = report.startedAt {
            invocation["startTimeUtc"] = Self.timestamp(startedAt)
            if let duration = report.durationSeconds, duration.isFinite, (0...1e7).contains(duration) {
                invocation["endTimeUtc"] = Self.timestamp(startedAt.addingTimeInterval(duration))
            }
        }
        if let host = report.host { invocation["machine"] = host }
        var driver: [String: Any] = [
            "name": "attest-harness",
            "informationUri": Self.informationURI,
            "rules": rules.map(descriptor),
        ]
        if let version = report.harnessVersion {
            driver["version"] = version
            driver["semanticVersion"] = version
        }
        let run: [String: Any] = [
            "tool": ["driver": driver],
            "automationDetails": ["id": "attest-harness/\(report.profile)/"],
            "originalUriBaseIds": ["ATTEST_HARNESS_CASES": ["description": ["text": "Cases of the attest-harness catalogue, by family and case id (`attest-harness forge --case ID` writes one)."]]],
            "invocations": [invocation],
            "results": results,
            "columnKind": "unicodeCodePoints",
        ]
        return [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        ]
    }

    private func properties() -> [String: Any] {
        var properties: [String: Any] = ["verifier": report.verifier, "profile": report.profile, "seed": String(report.seed),
                                         "summary": report.tally]
        if let catalogue = report.catalogue { properties["catalogue"] = catalogue }
        return properties
    }

    private func descriptor(_ rule: Rule) -> [String: Any] {
        var help = "\(rule.statement)\n\nLevel: \(rule.level.rawValue). Clause: \(rule.source)."
        if let quote = rule.quote { help += " \"\(quote)\"" }
        if let owner = rule.ownerVerifier { help += "\n\nPlatform owner's verifier: \(owner)" }
        var descriptor: [String: Any] = [
            "id": rule.id.rawValue,
            "shortDescription": ["text": rule.statement],
            "fullDescription": ["text": "[\(rule.level.rawValue)] \(rule.statement) (\(rule.source))"],
            "help": ["text": help],
            "defaultConfiguration": ["level": Self.level(rule.level)],
            "properties": [
                "level": rule.level.rawValue, "source": rule.source, "quote": rule.quote ?? "",
                "ownerVerifier": rule.ownerVerifier ?? "",
                "bugClass": rule.bugClass.rawValue, "tags": ["attestation", "security", rule.level.rawValue, rule.bugClass.rawValue],
                // GitHub code scanning ranks security alerts by this score (0.1 to 10): a spec violation high, a
                // SHOULD medium, a profile's hardening choice low.
                "security-severity": Self.securitySeverity(rule.level),
            ] as [String: Any],
        ]
        // The clause's public document, where the rule's source names one.
        if let url = RuleDocumentation.url(forSource: rule.source) { descriptor["helpUri"] = url }
        return descriptor
    }

    /// `security-severity` by level: MUST 8.0 (high), SHOULD 5.0 (medium), POLICY 3.0 (low).
    static func securitySeverity(_ level: RuleLevel) -> String {
        switch level {
        case .must: "8.0"
        case .should: "5.0"
        case .policy: "3.0"
        }
    }

    private func result(_ result: CaseResult, ruleIndex: Int?) -> [String: Any] {
        let level = report.level(of: result)
        var entry: [String: Any] = [
            "ruleId": result.rule?.rawValue ?? Self.validRule.id.rawValue,
            "kind": "fail",
            "level": Self.level(level),
            "message": ["text": ([result.summary] + result.explanation(in: report)).joined(separator: "\n")],
            "locations": [location(result)],
            "partialFingerprints": ["attestHarnessCase/v1": result.caseId],
            "properties": [
                "status": result.status.rawValue, "level": level.rawValue, "description": result.description ?? "",
                "expected": result.expectedText, "actual": result.actualText, "step": result.step ?? 0,
                "reproduce": result.reproduce ?? [], "requests": result.requests ?? [],
                "control": result.control?.caseId ?? "", "controlStatus": result.control?.status?.rawValue ?? "",
            ] as [String: Any],
        ]
        if let ruleIndex { entry["ruleIndex"] = ruleIndex }
        if let state = result.baseline { entry["baselineState"] = state == .known ? "unchanged" : state == .new ? "new" : "absent" }
        return entry
    }

    /// The file the user named (`--sarif-location`), else the case's evidence file (`--sarif-artifacts`), else the
    /// case under `ATTEST_HARNESS_CASES`; always with a region, which GitHub code scanning needs to annotate a line.
    private func location(_ result: CaseResult) -> [String: Any] {
        let artifact: [String: Any] = location.map { ["uri": $0.path.split(separator: "/").map { Self.uriSegment(String($0)) }.joined(separator: "/")] }
            ?? artifacts.map { ["uri": $0.uri(for: result.caseId)] }
            ?? ["uri": Self.uriSegment(result.family?.rawValue ?? "case") + "/" + Self.uriSegment(result.caseId), "uriBaseId": "ATTEST_HARNESS_CASES"]
        return [
            "physicalLocation": ["artifactLocation": artifact, "region": ["startLine": location?.line ?? 1]] as [String: Any],
            "logicalLocations": [["fullyQualifiedName": result.caseId, "name": result.caseId, "kind": "test"]],
        ]
    }

    /// `text` as one percent-encoded URI path segment (RFC 3986 unreserved characters kept).
    static func uriSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "case"
    }

    static func level(_ level: RuleLevel) -> String {
        switch level {
        case .must: "error"
        case .should: "warning"
        case .policy: "note"
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

private extension Dictionary where Key == RuleID, Value == Int {
    subscript(result result: CaseResult) -> Int? { self[result.rule ?? SARIFReport.validRule.id] }
}
