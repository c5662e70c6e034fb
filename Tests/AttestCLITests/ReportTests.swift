import AttestCatalogue
import AttestConformance
import Foundation
import Testing

/// Reports a CI gate trusts: baselines whose exit status, console, JUnit and SARIF agree; formats valid against
/// their published schemas; findings that explain themselves; and a usage error for a baseline of another profile.
@Suite struct ReportTests {
    // MARK: The baseline matrix

    /// One case's status in the baseline (nil: absent) and now, and what every format must then say.
    struct Row: CustomStringConvertible {
        let before: CaseResult.Status?
        let now: CaseResult.Status
        let state: CaseResult.BaselineState?
        let exit: Int32
        var description: String { "\(before?.rawValue ?? "absent") -> \(now.rawValue)" }
    }

    static let matrix: [Row] = [
        Row(before: nil, now: .pass, state: nil, exit: 0),
        Row(before: .pass, now: .pass, state: nil, exit: 0),
        Row(before: .finding, now: .pass, state: .fixed, exit: 0),
        Row(before: .error, now: .pass, state: .fixed, exit: 0),
        Row(before: nil, now: .finding, state: .new, exit: 1),
        Row(before: .pass, now: .finding, state: .new, exit: 1),
        Row(before: .finding, now: .finding, state: .known, exit: 0),
        Row(before: .hang, now: .finding, state: .known, exit: 0),
        Row(before: .error, now: .finding, state: .new, exit: 1),
        Row(before: .pass, now: .hang, state: .new, exit: 1),
        Row(before: nil, now: .error, state: .new, exit: 2),
        Row(before: .pass, now: .error, state: .new, exit: 2),
        Row(before: .error, now: .error, state: .known, exit: 0),
        Row(before: .finding, now: .error, state: .new, exit: 2),
        Row(before: .pass, now: .unsupported, state: nil, exit: 0),
        Row(before: .finding, now: .unsupported, state: nil, exit: 0),
    ]

    static let rule = Rule("demo.rule", "The demo check holds.", level: .should, quote: "it SHOULD hold",
                           source: "RFC 0000 §1", bugClass: .binding)

    static func report(_ status: CaseResult.Status?, id: String = "demo.rule.case") -> RunReport {
        var results: [CaseResult] = [CaseResult(caseId: "demo.valid", rule: nil, importance: .high, status: .pass, step: nil,
                                                expected: nil, actual: nil, message: nil)]
        if let status {
            var result = CaseResult(caseId: id, rule: "demo.rule", importance: .high, status: status, step: 0,
                                    expected: status == .finding ? .reject : nil,
                                    actual: status == .finding ? Verdict(.accept) : nil,
                                    message: status == .error ? "the adapter crashed" : status == .hang ? "no answer within 1 s" : nil)
            result.description = "A demo case."
            result.reproduce = ["attest-harness forge --case \(id) --seed 1 --out x"]
            results.append(result)
        }
        var report = RunReport(verifier: "exec:demo", profile: "demo", seed: 1, results: results, catalogue: "0.3.0+000000000000")
        report.rules = [rule]
        report.startedAt = Date(timeIntervalSince1970: 1_780_000_000)
        report.durationSeconds = 1.5
        report.host = "ci-runner"
        return report
    }

    @Test(arguments: matrix) func baselineMatrix(_ row: Row) throws {
        let report = Self.report(row.now).compared(with: Self.report(row.before))
        let result = try #require(report.results.last)
        #expect(result.baseline == row.state)
        #expect(report.exitCode == row.exit)
        let summary = try #require(report.baseline)
        #expect(summary.new == (row.state == .new ? [result.caseId] : []))
        #expect(summary.known == (row.state == .known ? [result.caseId] : []))
        #expect(summary.fixed == (row.state == .fixed ? [result.caseId] : []))

        // The console says what the exit status says.
        let console = try ReportFormat.console.render(report)
        #expect(console.contains("against the baseline: \(summary.new.count) new, \(summary.known.count) known, \(summary.fixed.count) fixed"))
        #expect(console.contains(row.exit == 0 ? "PASS:" : row.exit == 1 ? "FAIL:" : "ERROR:"), "\(console)")
        if row.state == .fixed { #expect(console.contains("Fixed since the baseline (1):")) }

        // JUnit counts only what fails the gate; known is skipped with the reason; fixed is said.
        let junit = try ReportFormat.junit.render(report)
        let suite = try #require(junit.split(separator: "\n").first { $0.contains(#"<testsuite name="demo.rule""#) })
        #expect(suite.contains(#"failures="\#(row.exit == 1 ? 1 : 0)""#), "\(suite)")
        // Test cases are classed by profile and rule, so two profiles' reports in one Jenkins job stay apart.
        #expect(junit.contains(#"classname="\#(report.profile).demo.rule""#), "\(junit)")
        #expect(suite.contains(#"errors="\#(row.exit == 2 ? 1 : 0)""#), "\(suite)")
        let skipped = (row.state == .known || row.now == .unsupported) ? 1 : 0
        #expect(suite.contains(#"skipped="\#(skipped)""#), "\(suite)")
        // The root carries the run's totals, the gate's counts as the suites have them.
        let root = try #require(junit.split(separator: "\n").first { $0.hasPrefix("<testsuites") })
        #expect(root.contains(#"tests="\#(report.results.count)" failures="\#(row.exit == 1 ? 1 : 0)" errors="\#(row.exit == 2 ? 1 : 0)""#), "\(root)")
        #expect(root.contains(#"name="attest-harness \#(report.profile)""#), "\(root)")
        #expect(junit.contains("known in the baseline: ") == (row.state == .known))
        #expect(junit.contains("fixed since the baseline: demo.rule.case") == (row.state == .fixed))

        // SARIF: findings are results with their baseline state; harness errors make the run unsuccessful.
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(ReportFormat.sarif.render(report).utf8)) as? [String: Any])
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        // Rules carry GitHub's security-severity, by level.
        let descriptors = ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
        for descriptor in descriptors {
            let properties = descriptor["properties"] as? [String: Any] ?? [:]
            let expected = ["MUST": "8.0", "SHOULD": "5.0", "POLICY": "3.0"][properties["level"] as? String ?? ""]
            #expect(expected != nil && properties["security-severity"] as? String == expected, "\(descriptor)")
        }
        let states = results.compactMap { $0["baselineState"] as? String }
        switch (row.now, row.state) {
        case (.finding, .new), (.hang, .new): #expect(states == ["new"])
        case (.finding, .known): #expect(states == ["unchanged"])
        case (.pass, .fixed): #expect(states == ["absent"])
        default: #expect(states.isEmpty)
        }
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == (row.exit != 2))
        #expect(invocation["exitCode"] as? Int == Int(row.exit))
    }

    @Test func aBaselineOfAnotherProfileOrCatalogueIsRefused() throws {
        let baseline = Self.report(.finding)
        #expect(throws: BaselineMismatch.self) { try baseline.checkBaseline(profile: "other", catalogue: "0.3.0+000000000000") }
        #expect(throws: BaselineMismatch.self) { try baseline.checkBaseline(profile: "demo", catalogue: "0.3.0+111111111111") }
        try baseline.checkBaseline(profile: "demo", catalogue: "0.3.0+000000000000")
        // A document without format or of another format version is no baseline.
        #expect(throws: BaselineMismatch.self) { try RunReport.decode(Data(#"{"verifier":"x","profile":"demo","seed":1,"results":[]}"#.utf8)) }
        var json = try ReportFormat.json.render(baseline)
        json = json.replacingOccurrences(of: #""formatVersion" : 1"#, with: #""formatVersion" : 99"#)
        #expect(throws: BaselineMismatch.formatVersion(found: 99, expected: RunReport.currentFormatVersion)) { try RunReport.decode(Data(json.utf8)) }
    }

    /// The CLI end to end: a baseline of another profile is exit 2 before any case, unless asked; a mutant against
    /// a clean baseline fails with its new findings named in every format.
    @Test func baselineOnTheCommandLine() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = directory.appendingPathComponent("clean.json").path
        let made = try CommandLineTests.run("run", "--verifier", "builtin:reference", "--profile", "apple-app-attest",
                                            "--format", "json", "--out", clean)
        #expect(made.status == 0)

        let otherProfile = try CommandLineTests.run("run", "--verifier", "builtin:reference-without:android.attestationChallenge",
                                                    "--profile", "android-key-attestation", "--baseline", clean)
        #expect(otherProfile.status == 2)
        #expect(otherProfile.stderr.contains("the baseline ran under profile apple-app-attest, this run under android-key-attestation"), "\(otherProfile.stderr)")
        #expect(!otherProfile.stdout.contains("cases:"))
        let anyway = try CommandLineTests.run("run", "--verifier", "builtin:reference-without:android.attestationChallenge",
                                              "--profile", "android-key-attestation", "--baseline", clean, "--baseline-any-profile")
        #expect(anyway.status == 1)
        #expect(anyway.stdout.contains("against the baseline: "))

        let mutant = directory.appendingPathComponent("mutant.json").path
        let failed = try CommandLineTests.run("run", "--verifier", "builtin:reference-without:appattest.nonce", "--profile", "apple-app-attest",
                                              "--baseline", clean, "--format", "json", "--out", mutant)
        #expect(failed.status == 1)
        let report = try RunReport.load(from: URL(fileURLWithPath: mutant))
        #expect(report.baseline?.new.count == 5 && report.baseline?.known == [] && report.baseline?.fixed == [])
        #expect(report.catalogue?.hasPrefix(HarnessVersion.current + "+") == true)
        for format in ["console", "markdown", "junit", "sarif", "html"] {
            let rendered = try CommandLineTests.run("report", mutant, "--format", format)
            #expect(rendered.status == 0, "\(format): \(rendered.stderr)")
            for text in ["appattest.nonce.31-bytes", "The nonce OCTET STRING holds the first 31 bytes of the nonce.",
                         "SHA-256(authData || SHA-256(challenge))", "MUST",
                         "attest-harness forge --case appattest.nonce.31-bytes --seed 1 --profile apple-app-attest --out appattest.nonce.31-bytes"] {
                // Markdown escapes its punctuation in table cells and list items alike: compared as a reader sees it.
                let shown = format == "markdown" ? Self.asRead(rendered.stdout) : rendered.stdout
                #expect(shown.contains(text), "\(format) lacks \(text)")
            }
            if format == "html" {
                // Against a baseline, the page filters by it: a card per state linking to its cases, and each case marked.
                #expect(rendered.stdout.contains(##"href="#baseline=new" data-filter="baseline=new"><span class="number" id="count-new">5</span>"##))
                #expect(rendered.stdout.contains(#"<select id="filter-baseline">"#))
                #expect(rendered.stdout.components(separatedBy: #"data-baseline="new""#).count - 1 == 5)
            }
        }
    }

    // MARK: Schemas

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// JSON against docs/report.schema.json, JUnit against Jenkins' and Ant's XSDs, SARIF against the OASIS
    /// 2.1.0 schema, with the validators from PyPI (scripts/validate-reports); for two profiles, with and without a
    /// baseline, findings and passes.
    @Test func reportsValidateAgainstTheirSchemas() throws {
        let python = try PythonEnvironment.python(venv: Self.root.appendingPathComponent(".build/report-validation-venv"),
                                                  requirements: Self.root.appendingPathComponent("scripts/report-validation-requirements.txt"))
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var json: [String] = [], junit: [String] = [], sarif: [String] = []
        let runs: [(String, String, String?)] = [
            ("apple-app-attest", "builtin:reference", nil),
            ("apple-app-attest", "builtin:reference-without:appattest.nonce", "apple-app-attest-0.json"),
            ("webauthn-l3", "builtin:reference-without:webauthn.signCount", nil),
        ]
        for (index, (profile, verifier, baseline)) in runs.enumerated() {
            let out = directory.appendingPathComponent("\(profile)-\(index).json").path
            var arguments = ["run", "--verifier", verifier, "--profile", profile, "--format", "json", "--out", out, "--progress", "never"]
            if let baseline { arguments += ["--baseline", directory.appendingPathComponent(baseline).path] }
            let result = try CommandLineTests.run(arguments)
            #expect(result.status == (verifier == "builtin:reference" ? 0 : 1), "\(result.stderr)")
            json.append(out)
            for format in ["junit", "sarif"] {
                let file = out + "." + format
                let rendered = try CommandLineTests.run("report", out, "--format", format, "--out", file)
                #expect(rendered.status == 0, "\(rendered.stderr)")
                if format == "junit" { junit.append(file) } else { sarif.append(file) }
            }
            if verifier != "builtin:reference" {
                // Results located at evidence files (relative URIs without a base) are SARIF too.
                let file = "\(profile)-\(index).artifacts.sarif"
                let rendered = try CommandLineTests.launch(CommandLineTests.binary, ["report", out, "--format", "sarif", "--out", file], in: directory)
                #expect(rendered.status == 0, "\(rendered.stderr)")
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(profile)-\(index).artifacts-evidence").path))
                sarif.append(directory.appendingPathComponent(file).path)
            }
        }
        let validation = try CommandLineTests.launch(python, [Self.root.appendingPathComponent("scripts/validate-reports").path,
                                                              "--json-schema", Self.root.appendingPathComponent("docs/report.schema.json").path,
                                                              "--json"] + json + ["--junit"] + junit + ["--sarif"] + sarif)
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        // One line per file and schema: JUnit files against two.
        let passed = validation.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count
        #expect(passed == json.count + 2 * junit.count + sarif.count, "\(validation.stdout)")

        // The validators catch what they should: JUnit without hostname fails Ant's schema.
        let broken = directory.appendingPathComponent("broken.junit.xml")
        let text = try String(contentsOfFile: junit[0], encoding: .utf8).replacingOccurrences(of: #"hostname=""#, with: #"host=""#)
        try text.write(to: broken, atomically: true, encoding: .utf8)
        let refused = try CommandLineTests.launch(python, [Self.root.appendingPathComponent("scripts/validate-reports").path, "--junit", broken.path])
        #expect(refused.status == 1, "\(refused.stdout)")
    }

    // MARK: HTTP verifiers

    /// A finding against an HTTP verifier carries the request as a curl line.
    @Test func httpFindingsCarryTheirRequest() throws {
        let server = try ServerProcess(CommandLineTests.binary, ["serve", "--profile", "apple-app-attest", "--port", "0", "--without", "appattest.keyId"])
        defer { server.stop() }
        let url = server.firstLine
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", url, "--filter", "appattest.keyId.*")
        #expect(result.status == 1)
        #expect(result.stdout.contains("request: curl -sS -X POST \(url)/v1/cases -H 'Content-Type: application/json' --data-binary @appattest.keyId.spki-hash/request.json"),
                "\(result.stdout)")
        // And forge writes that request.json.
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let forged = try CommandLineTests.run("forge", "--case", "appattest.keyId.spki-hash", "--seed", "1", "--profile", "apple-app-attest",
                                              "--out", directory.path)
        #expect(forged.status == 0)
        let request = try Data(contentsOf: directory.appendingPathComponent("request.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: request) as? [String: Any])
        #expect((object["cases"] as? [[String: Any]])?.first?["id"] as? String == "appattest.keyId.spki-hash")
    }

    // MARK: Progress

    /// Not a terminal (a CI log): lines at the start, every 10% and at the end, with findings and an ETA; `never`:
    /// nothing; `always`: the live line, redrawn in place.
    @Test func progressInALogAndOnATerminal() throws {
        let arguments = ["run", "--verifier", "builtin:reference-without:appattest.nonce", "--profile", "apple-app-attest"]
        let auto = try CommandLineTests.run(arguments)
        let lines = auto.stderr.split(separator: "\n")
        #expect(lines.first == "attest-harness run: 0/41 cases, 0 findings, 0 s elapsed, ETA --", "\(auto.stderr)")
        #expect(lines.last?.hasPrefix("attest-harness run: 41/41 cases, 5 findings, ") == true, "\(auto.stderr)")
        #expect(lines.last?.hasSuffix(", done") == true)
        #expect(lines.contains { $0.contains(" ETA ") && !$0.contains("ETA --") }, "\(auto.stderr)")
        #expect((3...13).contains(lines.count), "\(auto.stderr)")
        #expect(!auto.stderr.contains("\u{1B}"))

        let never = try CommandLineTests.run(arguments + ["--progress", "never"])
        #expect(never.status == 1 && never.stderr.isEmpty, "\(never.stderr)")
        let always = try CommandLineTests.run(arguments + ["--progress", "always"])
        #expect(always.stderr.contains("\r\u{1B}[Kattest-harness run: forging the apple-app-attest catalogue"))
        #expect(always.stderr.contains("\r\u{1B}[Kattest-harness run: 41/41 cases, 5 findings"))
        #expect(always.stderr.hasSuffix("\r\u{1B}[K"), "the live line is cleared at the end")
        let bad = try CommandLineTests.run(arguments + ["--progress", "sometimes"])
        #expect(bad.status == 2 && bad.stderr.contains("bad --progress"))
    }

    // MARK: Hostile verifier text

    /// Markdown text as a reader sees it rendered: its backslash escapes resolved and the zero-width spaces that
    /// keep GitHub from linking gone.
    static func asRead(_ markdown: String) -> String {
        var out = "", escaped = false
        for character in markdown {
            if escaped {
                if !(character.isASCII && character.isPunctuation || character.isASCII && character.isSymbol) { out.append("\\") }
                out.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character != "\u{200B}" {
                out.append(character)
            }
        }
        return out
    }

    /// Markdown, the format of PR comments and job summaries, renders nothing a verifier writes: no link, no image,
    /// no @mention or issue reference, no emphasis, no heading, no HTML; the words still read the same.
    @Test func verifierTextIsInertMarkdown() throws {
        let reason = "see [the fixed build](https://evil.example/fix) ![PASS](badge.svg) cc @org/security **all checks passed** #12 <b>x</b> www.evil.example _x_ `code`"
        let result = CaseResult(caseId: "demo.rule.case", rule: "demo.rule", importance: .high, status: .finding, step: 0,
                                expected: .reject, actual: Verdict(.accept, reason: reason), message: nil)
        var report = RunReport(verifier: "exec:demo", profile: "demo", seed: 1, results: [result])
        report.rules = [Self.rule]
        let markdown = try ReportFormat.markdown.render(report)
        for live in ["[the fixed build](", "![PASS]", "](https://", "**all", "@org", "#12", "<b>", "https://evil", "www.evil", "_x_", "`code`"] {
            #expect(!markdown.contains(live), "markdown renders \(live)")
        }
        #expect(Self.asRead(markdown).contains(reason.replacingOccurrences(of: "<b>x</b>", with: "&lt;b&gt;x&lt;/b&gt;")), "\(markdown)")
    }

    /// A verifier's reason cannot start a line in a CI log (a GitHub workflow command), move the terminal, break
    /// JUnit, or run a command from a copied markdown line; megabytes of it are cut.
    @Test func verifierTextIsShownNotObeyed() throws {
        var result = CaseResult(caseId: "demo.rule.case", rule: "demo.rule", importance: .high, status: .finding, step: 0,
                                expected: .reject, actual: Verdict(.accept, reason: "ok\n::error title=spoofed::PASS\u{1B}[2J\r\u{FFFF}\u{202E}"),
                                message: nil)
        result.reproduce = ["attest-harness run --verifier 'exec:./adapter `;touch /tmp/pwned;`' --filter demo.rule.case"]
        var report = RunReport(verifier: "exec:demo", profile: "demo", seed: 1, results: [result])
        report.rules = [Self.rule]
        for format in ReportFormat.allCases where format != .json {
            let text = try format.render(report)
            #expect(!text.split(separator: "\n", omittingEmptySubsequences: false).contains { $0.hasPrefix("::") }, "\(format)")
            #expect(!text.contains("\u{1B}[2J") && !text.contains("\r") && !text.contains("\u{FFFF}") && !text.contains("\u{202E}"), "\(format)")
            #expect((format == .markdown ? Self.asRead(text) : text).contains("\\u{a}::error"), "\(format) shows the line break as an escape")
        }
        // Names that come from a user's files (a profile's name, a suite's case and rule ids) are as untrusted: JUnit
        // wrote their line breaks raw, so a printed report could carry a workflow command.
        var named = RunReport(verifier: "exec:demo", profile: "p\r\n::error::profile", seed: 1, results: [
            CaseResult(caseId: "c\n::error::case", rule: "r\n::error::rule", importance: .high, status: .finding, step: 0,
                       expected: .reject, actual: Verdict(.accept), message: nil)])
        named.rules = [Self.rule]
        for format in ReportFormat.allCases where format != .json {
            let text = try format.render(named)
            #expect(!text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).contains { $0.hasPrefix("::") }, "\(format)")
        }
        // Markdown fences the command with more backticks than it holds, so a copy runs what the report says.
        let markdown = try ReportFormat.markdown.render(report)
        #expect(markdown.contains("  ```sh\n  attest-harness run --verifier 'exec:./adapter `;touch /tmp/pwned;`' --filter demo.rule.case\n  ```"),
                "\(markdown)")
        // JSON keeps the raw text, cut at the limit.
        let long = RunReport(verifier: "v", profile: "p", seed: 1, results: [
            CaseResult(caseId: "c", rule: nil, importance: .high, status: .finding, step: 0, expected: .accept,
                       actual: Verdict(.reject, reason: String(repeating: "x", count: 100_000)), message: nil),
        ]).boundingVerifierText(to: RunReport.verifierTextLimit)
        #expect(long.results[0].actual?.reason?.count == RunReport.verifierTextLimit + "…[cut]".count)
    }

    /// A run that judged nothing is exit 2 even when the baseline had the same breakage.
    @Test func aRunThatJudgedNothingIsAnErrorWhateverTheBaseline() {
        let broken = Self.report(.error)
        var onlyErrors = broken
        onlyErrors.results = broken.results.map { result in
            CaseResult(caseId: result.caseId, rule: result.rule, importance: result.importance, status: .error, step: nil,
                       expected: nil, actual: nil, message: "the adapter crashed")
        }
        let compared = onlyErrors.compared(with: onlyErrors)
        #expect(compared.baseline?.known.count == 2 && compared.exitCode == 2)
    }

    /// A profile file with other parameters (another app) is another catalogue: its baselines do not compare.
    @Test func theCatalogueFingerprintCoversTheProfileParameters() throws {
        let profile = Profile.appleAppAttest
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        var other = profile
        other.parameters["appId"] = "ZZZZZZZZZZ.example.other"
        #expect(BuiltinCatalogue.version(of: cases, under: profile) != BuiltinCatalogue.version(of: cases, under: other))
        #expect(BuiltinCatalogue.version(of: cases, under: profile) == BuiltinCatalogue.version(of: cases, under: profile))
    }
}

/// SARIF results GitHub code scanning can annotate: each points at a file and line, the one the user names with
/// `--sarif-location` (the verifier's own code), else the case under the ATTEST_HARNESS_CASES base at line 1.
@Suite struct SARIFLocationTests {
    static func locations(_ stdout: String) throws -> [[String: Any]] {
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let results = try #require((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        return results.compactMap { ($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any] }
    }

    @Test func resultsPointAtTheNamedFileAndLine() throws {
        let mutant = "builtin:reference-without:appattest.assertion.counter"
        let named = try CommandLineTests.run("run", "--verifier", mutant, "--profile", "apple-app-attest", "--format", "sarif",
                                             "--sarif-location", "Sources/Verifier/App Attest.swift:42", "--progress", "never")
        #expect(named.status == 1, "\(named.stderr)")
        let pointed = try Self.locations(named.stdout)
        #expect(!pointed.isEmpty)
        for location in pointed {
            #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "Sources/Verifier/App%20Attest.swift")
            #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 42)
        }
        let plain = try CommandLineTests.run("run", "--verifier", mutant, "--profile", "apple-app-attest", "--format", "sarif", "--progress", "never")
        for location in try Self.locations(plain.stdout) {
            #expect((location["artifactLocation"] as? [String: Any])?["uriBaseId"] as? String == "ATTEST_HARNESS_CASES")
            #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 1)
        }
    }

    /// The default beside a relative `--out`: every located result (findings, crashes, unproven, harness errors) points
    /// at a regular file that exists after the run, whose line 1 names the case and which holds its decoded evidence;
    /// the same run writes the same bytes. `report` writes the same files from a saved JSON report.
    @Test func resultsPointAtEvidenceFilesThatExist() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("reports"), withIntermediateDirectories: true)
        let mutant = "builtin:reference-without:appattest.nonce"
        var written: [String: Data] = [:]
        for attempt in 0..<2 {
            let run = try CommandLineTests.launch(CommandLineTests.binary, ["run", "--verifier", mutant, "--profile", "apple-app-attest", "--format", "sarif",
                                                                            "--out", "reports/gate.sarif", "--progress", "never"], in: directory)
            #expect(run.status == 1, "\(run.stderr)")
            let sarif = try String(contentsOf: directory.appendingPathComponent("reports/gate.sarif"), encoding: .utf8)
            let pointed = try Self.locations(sarif)
            #expect(pointed.count == 5)
            var files: [String: Data] = [:]
            for location in pointed {
                let uri = try #require((location["artifactLocation"] as? [String: Any])?["uri"] as? String)
                #expect(uri.hasPrefix("reports/gate-evidence/appattest.nonce.") && uri.hasSuffix(".txt"), "\(uri)")
                #expect((location["artifactLocation"] as? [String: Any])?["uriBaseId"] == nil)
                #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 1)
                let file = directory.appendingPathComponent(try #require(uri.removingPercentEncoding))
                let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
                #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(uri) is a regular file")
                let text = try String(contentsOf: file, encoding: .utf8)
                let caseId = String(file.deletingPathExtension().lastPathComponent)
                #expect(text.hasPrefix("\(caseId): finding under appattest.nonce"), "\(text.prefix(200))")
                #expect(text.contains("decoded evidence:") && text.contains("X.509 certificate") && text.contains("attest-harness forge --case \(caseId)"))
                files[uri] = try Data(contentsOf: file)
            }
            let listed = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("reports/gate-evidence").path)
            #expect(listed.count == 5, "one file per located case and nothing else: \(listed)")
            if attempt == 0 { written = files } else { #expect(files == written, "the same run writes the same evidence files") }
        }

        // From a saved JSON report, into a directory named on the command line (made with its parents).
        let saved = try CommandLineTests.launch(CommandLineTests.binary, ["run", "--verifier", mutant, "--profile", "apple-app-attest", "--format", "json",
                                                                          "--out", "reports/gate.json", "--progress", "never"], in: directory)
        #expect(saved.status == 1)
        let rendered = try CommandLineTests.launch(CommandLineTests.binary, ["report", "reports/gate.json", "--format", "sarif",
                                                                             "--sarif-artifacts", "scan/evidence/", "--out", "/dev/null"], in: directory)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let again = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("scan/evidence").path).sorted()
        #expect(again == written.keys.map { String($0.split(separator: "/").last ?? "") }.sorted())
        for name in again {
            let bytes = try Data(contentsOf: directory.appendingPathComponent("scan/evidence/\(name)"))
            #expect(bytes == written["reports/gate-evidence/\(name)"], "report writes what run wrote: \(name)")
        }
    }

    /// A case id from a hostile suite never names another directory, and a long one still fits a file name.
    @Test func evidenceFileNamesStayInTheirDirectory() throws {
        for id in ["../../etc/passwd", "a/b", "..", "", String(repeating: "é", count: 300)] {
            let name = SARIFArtifacts.fileName(for: id)
            #expect(!name.contains("/") && name != ".." && name != "." && name.utf8.count <= 255, "\(name)")
        }
        #expect(SARIFArtifacts.fileName(for: String(repeating: "a", count: 300)) != SARIFArtifacts.fileName(for: String(repeating: "a", count: 299) + "b"))
    }

    @Test(arguments: [["--format", "sarif", "--sarif-artifacts", "/tmp/evidence"], ["--format", "sarif", "--sarif-artifacts", "a/../../b"],
                      ["--format", "json", "--sarif-artifacts", "evidence"], ["--format", "sarif", "--sarif-artifacts", "evidence", "--sarif-location", "a.swift"],
                      ["--format", "sarif", "--sarif-artifacts", "file.txt"], ["--format", "sarif", "--out", "file-evidence.sarif"]])
    func anArtifactsDirectoryThatCannotBeIsRefusedBeforeTheRun(arguments: [String]) throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A regular file where the directory would go (named, or the default beside `--out file-evidence.sarif`).
        try Data("keep".utf8).write(to: directory.appendingPathComponent("file.txt"))
        try Data("keep".utf8).write(to: directory.appendingPathComponent("file-evidence-evidence"))
        let result = try CommandLineTests.launch(CommandLineTests.binary, ["run", "--verifier", "builtin:reference-without:appattest.nonce",
                                                                           "--profile", "apple-app-attest", "--progress", "never"] + arguments, in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--sarif-artifacts"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["file-evidence-evidence", "file.txt"], "nothing written")
        #expect(try String(contentsOf: directory.appendingPathComponent("file.txt"), encoding: .utf8) == "keep")
    }

    @Test(arguments: [["--format", "sarif", "--sarif-location", "/etc/passwd"], ["--format", "sarif", "--sarif-location", "a/../../b:3"],
                      ["--format", "sarif", "--sarif-location", "a.swift:0"], ["--format", "json", "--sarif-location", "a.swift"]])
    func aLocationThatIsNoRepositoryPathIsAUsageError(arguments: [String]) throws {
        let result = try CommandLineTests.run(["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--sarif-location"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
