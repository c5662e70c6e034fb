import AttestConformance
import Foundation
import Testing

/// `scripts/ci-gate`, the script the GitHub Action's steps run (and GitLab or Jenkins call directly), run here as a
/// runner would: with `ATTEST_HARNESS_BIN` pointing at the debug binary beside this test bundle (so nothing is
/// installed or built), and `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` pointing at temporary files. Also reads
/// `action.yml` line by line (no YAML parser): it runs the script, and every variable the script reads is passed
/// from a declared input.
@Suite struct CIGateScriptTests {
    /// The repository root: this file is `Tests/AttestCLITests/CIGateScriptTests.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts").appendingPathComponent("ci-gate")
    static let action = root.appendingPathComponent("action.yml")
    /// One run of 41 cases and a few renderings take seconds; this only bounds a hung script.
    static let timeout: TimeInterval = 300

    /// File names in the output directory and the `$GITHUB_OUTPUT` key naming each.
    static let reports = [("report.json", "report-json"), ("attest-harness.sarif", "report-sarif"),
                          ("attest-harness.junit.xml", "report-junit"), ("attest-harness.html", "report-html"),
                          ("attest-harness.md", "report-markdown")]

    struct Gate {
        let status: Int32
        let stdout: String
        let stderr: String
        /// `$GITHUB_OUTPUT` read as GitHub reads it: `key=value` lines, the last value of a key winning.
        let outputs: [String: String]
        let summary: String
        /// The default output directory, `attest-harness-report` in the working directory.
        let directory: URL

        func report(_ name: String) -> Data? { try? Data(contentsOf: directory.appendingPathComponent(name)) }
        func text(_ name: String) -> String { report(name).map { String(decoding: $0, as: UTF8.self) } ?? "" }
    }

    struct GateTimedOut: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `bash scripts/ci-gate ARGUMENTS` in `work` with `environment` over this process's environment, minus any
    /// `ATTEST_HARNESS_*` or `GITHUB_*` variable of the machine running the tests.
    static func gate(_ environment: [String: String], arguments: [String] = [], in work: URL) throws -> Gate {
        let githubOutput = work.appendingPathComponent("github-output.txt")
        let summary = work.appendingPathComponent("step-summary.md")
        let stdoutFile = work.appendingPathComponent("stdout.txt")
        let stderrFile = work.appendingPathComponent("stderr.txt")
        for file in [githubOutput, summary, stdoutFile, stderrFile] {
            try Data().write(to: file)
        }

        var base = ProcessInfo.processInfo.environment
        for key in base.keys where key.hasPrefix("ATTEST_HARNESS_") || key.hasPrefix("GITHUB_") {
            base[key] = nil
        }
        base["NO_COLOR"] = "1"
        base["ATTEST_HARNESS_BIN"] = CommandLineTests.binary.path
        base["GITHUB_OUTPUT"] = githubOutput.path
        base["GITHUB_STEP_SUMMARY"] = summary.path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + arguments
        process.currentDirectoryURL = work
        process.environment = base.merging(environment) { _, new in new }
        // Files, not pipes: nothing to drain, and a child left behind cannot hold the test up.
        let out = try FileHandle(forWritingTo: stdoutFile)
        let err = try FileHandle(forWritingTo: stderrFile)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()

        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning {
            process.terminate()
            let grace = Date().addingTimeInterval(5)
            while process.isRunning && Date() < grace { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw GateTimedOut(description: "scripts/ci-gate did not finish within \(Int(timeout)) s; killed")
        }
        process.waitUntilExit()

        func read(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
        var outputs: [String: String] = [:]
        for line in read(githubOutput).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            outputs[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return Gate(status: process.terminationStatus, stdout: read(stdoutFile), stderr: read(stderrFile),
                    outputs: outputs, summary: read(summary),
                    directory: work.appendingPathComponent("attest-harness-report"))
    }

    static func resolved(_ path: String?) -> String? {
        path.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
    }

    /// The SARIF log's `runs`, or nil when the file is not a SARIF 2.1.0 JSON document.
    static func sarifRuns(_ data: Data?) -> [[String: Any]]? {
        guard let data, let log = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              log["version"] as? String == "2.1.0" else { return nil }
        return log["runs"] as? [[String: Any]]
    }

    // MARK: Runs

    @Test func referenceVerifierPassesAndEveryReportIsWritten() throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let gate = try Self.gate(["ATTEST_HARNESS_PROFILE": "apple-app-attest", "ATTEST_HARNESS_VERIFIER": "builtin:reference",
                                  "ATTEST_HARNESS_FORMATS": "sarif,junit,html,markdown"], in: work)
        #expect(gate.status == 0, "\(gate.stderr)")
        #expect(gate.outputs["exit-code"] == "0", "\(gate.outputs)")
        for (name, key) in Self.reports {
            #expect(!(gate.report(name) ?? Data()).isEmpty, "\(name) is missing or empty; stderr: \(gate.stderr)")
            #expect(Self.resolved(gate.outputs[key]) == Self.resolved(gate.directory.appendingPathComponent(name).path),
                    "\(key) = \(gate.outputs[key] ?? "nil")")
        }
        #expect(gate.outputs["report-console"] == nil)
        #expect(Self.resolved(gate.outputs["output-directory"]) == Self.resolved(gate.directory.path))
        #expect(gate.outputs["artifact-name"] == "attest-harness-apple-app-attest")

        #expect(Self.sarifRuns(gate.report("attest-harness.sarif"))?.isEmpty == false, "not SARIF 2.1.0 with a run")
        let junit = gate.text("attest-harness.junit.xml")
        #expect(junit.hasPrefix("<?xml") && junit.contains("<testsuites"), "\(junit.prefix(300))")
        #expect(!junit.contains("<failure"))
        let html = gate.text("attest-harness.html").lowercased()
        #expect(html.contains("<!doctype html") || html.contains("<html"), "\(html.prefix(300))")
        // The job summary: a heading of ours, then the markdown report itself.
        let markdown = gate.text("attest-harness.md")
        #expect(gate.summary.contains("apple-app-attest") && gate.summary.contains(markdown), "\(gate.summary.prefix(500))")
        // The console report goes to the job log.
        #expect(gate.stdout.contains("0 findings"), "\(gate.stdout.prefix(500))")
    }

    @Test func aMutantFailsTheGateWithExitOne() throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let gate = try Self.gate(["ATTEST_HARNESS_PROFILE": "apple-app-attest",
                                  "ATTEST_HARNESS_VERIFIER": "builtin:reference-without:appattest.nonce"], in: work)
        #expect(gate.status == 1, "\(gate.stderr)")
        #expect(gate.outputs["exit-code"] == "1", "\(gate.outputs)")
        // The default formats: sarif, junit, html, markdown.
        for (name, key) in Self.reports {
            #expect(!(gate.report(name) ?? Data()).isEmpty, "\(name) is missing or empty; stderr: \(gate.stderr)")
            #expect(gate.outputs[key] != nil, "no \(key) in \(gate.outputs)")
        }
        let runs = Self.sarifRuns(gate.report("attest-harness.sarif"))
        #expect((runs?.first?["results"] as? [Any])?.isEmpty == false, "no SARIF results")
        #expect(gate.text("attest-harness.sarif").contains("appattest.nonce"))
        // Each SARIF result points at its case's evidence file in the output directory, relative to the working
        // directory (the repository root code scanning resolves it against), and the file is there.
        let results = (runs?.first?["results"] as? [[String: Any]]) ?? []
        let uris = results.compactMap { result in
            (((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        }
        #expect(uris.count == 5 && uris.allSatisfy { $0.hasPrefix("attest-harness-report/attest-harness-evidence/appattest.nonce.") }, "\(uris)")
        for uri in uris {
            let text = (try? String(contentsOf: work.appendingPathComponent(uri), encoding: .utf8)) ?? ""
            #expect(text.contains("decoded evidence:"), "\(uri): \(text.prefix(200))")
        }
        #expect(gate.text("attest-harness.junit.xml").contains("<failure"))
        #expect(gate.summary.contains("appattest.nonce"), "\(gate.summary.prefix(500))")
    }

    @Test func aBaselineLetsKnownFindingsPassAndNewOnesFail() throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let first = try Self.gate(["ATTEST_HARNESS_PROFILE": "apple-app-attest", "ATTEST_HARNESS_FORMATS": "",
                                   "ATTEST_HARNESS_VERIFIER": "builtin:reference-without:appattest.nonce",
                                   "ATTEST_HARNESS_OUTPUT_DIRECTORY": "baseline"], in: work)
        #expect(first.status == 1, "\(first.stderr)")
        let baseline = work.appendingPathComponent("baseline").appendingPathComponent("report.json")
        #expect(FileManager.default.fileExists(atPath: baseline.path))
        #expect(first.outputs["report-sarif"] == nil, "no format was asked for: \(first.outputs)")

        // The same findings: no regression. Command-line options instead of variables, a relative baseline path.
        let same = try Self.gate([:], arguments: ["--profile", "apple-app-attest", "--baseline", "baseline/report.json",
                                                  "--verifier", "builtin:reference-without:appattest.nonce"], in: work)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.outputs["exit-code"] == "0")
        #expect(same.summary.contains("baseline"))
        // Another rule's findings are new.
        let worse = try Self.gate(["ATTEST_HARNESS_PROFILE": "apple-app-attest", "ATTEST_HARNESS_BASELINE": baseline.path,
                                   "ATTEST_HARNESS_VERIFIER": "builtin:reference-without:appattest.keyId"], in: work)
        #expect(worse.status == 1, "\(worse.stderr)")
        #expect(worse.outputs["exit-code"] == "1")

        // A baseline inside the output directory it is compared in (a reused workspace) is read, not deleted
        // first; extra arguments on several lines (a YAML block) all count.
        let reused = try Self.gate(["ATTEST_HARNESS_PROFILE": "apple-app-attest", "ATTEST_HARNESS_FORMATS": "",
                                    "ATTEST_HARNESS_VERIFIER": "builtin:reference-without:appattest.nonce",
                                    "ATTEST_HARNESS_OUTPUT_DIRECTORY": "baseline", "ATTEST_HARNESS_BASELINE": "baseline/report.json",
                                    "ATTEST_HARNESS_EXTRA_ARGS": "--jobs 1\n--timeout 7"], in: work)
        #expect(reused.status == 0, "\(reused.stderr)")
        let rerun = try RunReport.load(from: baseline)
        #expect(rerun.baseline?.known.count == 5)
        #expect(rerun.results.first { $0.status == .finding }?.reproduce?.last?.contains("--timeout 7") == true,
                "the second line of extra arguments reached the run")
    }

    /// Wrong inputs are exit 2 with a message naming the fault, before anything runs.
    @Test(arguments: [
        (["ATTEST_HARNESS_FORMATS": "sarif,pdf"], "pdf"),
        (["ATTEST_HARNESS_BASELINE": "no-such-baseline.json"], "no-such-baseline.json"),
        (["ATTEST_HARNESS_SEED": "twelve"], "twelve"),
        (["ATTEST_HARNESS_EXTRA_ARGS": "--jobs 2 --format console"], "--format"),
        (["ATTEST_HARNESS_PROFILE": ""], "profile"),
    ])
    func badInputsExitTwo(environment: [String: String], named: String) throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let gate = try Self.gate(["ATTEST_HARNESS_PROFILE": "apple-app-attest"].merging(environment) { _, new in new },
                                 in: work)
        #expect(gate.status == 2, "\(gate.stderr)")
        #expect(gate.outputs["exit-code"] == "2", "\(gate.outputs)")
        #expect(gate.stderr.contains(named), "\(gate.stderr)")
        #expect(gate.report("report.json") == nil, "nothing may run on bad inputs")
    }

    /// Building (no prebuilt binary): the toolchain on PATH is stated and checked before anything is installed or
    /// built; one too old, or not the swift-version asked for, is exit 2 in one line.
    @Test(arguments: [
        ("Swift version 5.10 (swift-5.10-RELEASE)", "", "needs Swift 6.0 or later"),
        ("swift-driver version: 1.115 Apple Swift version 6.0.3 (swiftlang-6.0.3.1.10 clang-1600.0.30.1)", "6.1", "not the Swift 6.1 asked for"),
        ("Swift version 6.1 (swift-6.1-RELEASE)", "six", "bad Swift version"),
        ("no version here", "", "of no version it states"),
    ])
    func theToolchainIsCheckedBeforeTheBuild(says: String, wanted: String, named: String) throws {
        let work = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let bin = work.appendingPathComponent("fake-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let swift = bin.appendingPathComponent("swift")
        // A swift that only answers --version and logs any other call (a build must never start).
        try """
        #!/bin/bash
        if [ "$1" = --version ]; then echo "\(says)"; exit 0; fi
        echo "swift $*" >> "\(work.path)/swift-calls"; exit 1
        """.write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let gate = try Self.gate(["ATTEST_HARNESS_PROFILE": "apple-app-attest", "ATTEST_HARNESS_BIN": "", "PATH": path,
                                  "ATTEST_HARNESS_SWIFT_VERSION": wanted], in: work)
        #expect(gate.status == 2, "\(gate.stderr)")
        #expect(gate.stderr.contains(named), "\(gate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("swift-calls").path), "nothing was built")
        #expect(!gate.stderr.contains("scripts/setup"), "nothing was installed: \(gate.stderr)")
    }

    // MARK: action.yml

    /// Names made of `prefix` and the characters in `allowed` that follow it, wherever the prefix occurs.
    static func names(after prefix: String, in text: String, allowed: (Character) -> Bool) -> Set<String> {
        var found: Set<String> = []
        var rest = text[...]
        while let range = rest.range(of: prefix) {
            let name = rest[range.upperBound...].prefix(while: allowed)
            if !name.isEmpty { found.insert(String(name)) }
            rest = rest[range.upperBound...]
        }
        return found
    }

    @Test func actionRunsTheScriptWithEveryVariableFromADeclaredInput() throws {
        let action = try String(contentsOf: Self.action, encoding: .utf8)
        let script = try String(contentsOf: Self.script, encoding: .utf8)
        let lines = action.components(separatedBy: "\n")

        #expect(action.contains("using: composite"))
        #expect(action.contains("scripts/ci-gate"))
        #expect(action.contains("uses: github/codeql-action/upload-sarif@"))
        #expect(action.contains("uses: actions/upload-artifact@"))

        // The top-level `inputs:` block: one key per line indented by exactly two spaces, its fields below it.
        let start = try #require(lines.firstIndex(of: "inputs:"), "no top-level inputs: in action.yml")
        let block = lines[(start + 1)...].prefix { $0.isEmpty || $0.hasPrefix(" ") || $0.hasPrefix("#") }
        func isKey(_ line: String) -> Bool { line.hasPrefix("  ") && !line.hasPrefix("   ") && line.hasSuffix(":") }
        let inputs = block.filter(isKey).map { String($0.dropFirst(2).dropLast()) }
        func field(_ input: String, _ name: String) -> String? {
            guard let index = block.firstIndex(of: "  \(input):") else { return nil }
            for line in block[(index + 1)...] {
                if isKey(line) { break }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("\(name):") {
                    return trimmed.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
                }
            }
            return nil
        }
        #expect(Set(inputs).isSuperset(of: ["profile", "verifier", "baseline", "formats", "filter", "seed", "extra-args",
                                            "output-directory", "upload-sarif"]), "\(inputs)")
        #expect(Set(inputs).count == inputs.count, "an input declared twice: \(inputs)")
        #expect(field("profile", "required") == "true")
        #expect(field("verifier", "default") == "builtin:reference")
        #expect(field("formats", "default") == "sarif,junit,html,markdown")
        #expect(field("output-directory", "default") == "attest-harness-report")
        #expect(field("upload-sarif", "default") == "true")
        for input in inputs {
            #expect(field(input, "description") != nil, "input \(input) has no description")
        }

        // Every `ATTEST_HARNESS_*` the script reads is set in the gate step from an input, and nothing else is.
        var passed: [String: String] = [:]
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("ATTEST_HARNESS_"), let colon = trimmed.firstIndex(of: ":") else { continue }
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard value.hasPrefix("${{ inputs."), value.hasSuffix(" }}") else {
                Issue.record("\(trimmed): not set from an input")
                continue
            }
            passed[String(trimmed[..<colon])] = String(value.dropFirst("${{ inputs.".count).dropLast(" }}".count))
        }
        let isVariableCharacter: (Character) -> Bool = { $0.isUppercase || $0.isNumber || $0 == "_" }
        let read = Self.names(after: "ATTEST_HARNESS_", in: script, allowed: isVariableCharacter)
            .map { "ATTEST_HARNESS_" + $0 }
        #expect(Set(read) == Set(passed.keys), "the script reads \(read.sorted()); action.yml passes \(passed.keys.sorted())")
        #expect(Set(passed.values).isSubset(of: inputs), "undeclared inputs: \(Set(passed.values).subtracting(inputs))")

        // Every input action.yml uses is declared, and every declared input is used.
        let isInputCharacter: (Character) -> Bool = { $0.isLowercase || $0.isNumber || $0 == "-" }
        let used = Self.names(after: "inputs.", in: action, allowed: isInputCharacter)
        #expect(used == Set(inputs), "used but not declared: \(used.subtracting(inputs)); declared but unused: \(Set(inputs).subtracting(used))")

        // Every output of the gate step action.yml reads is one the script (or the step itself, status) writes.
        let written: Set<String> = ["status", "exit-code", "output-directory", "artifact-name", "report-json",
                                    "report-sarif", "report-junit", "report-html", "report-markdown", "report-console"]
        let gateOutputs = Self.names(after: "steps.gate.outputs.", in: action, allowed: isInputCharacter)
        #expect(gateOutputs.isSubset(of: written), "unknown gate outputs: \(gateOutputs.subtracting(written))")
        for key in ["exit-code", "output-directory", "artifact-name", "report-json"] {
            #expect(script.contains("output \(key) "), "the script never writes \(key)")
        }
        #expect(script.contains(#"output "report-$format""#))
        #expect(action.contains(#"echo "status=$status" >> "$GITHUB_OUTPUT""#))
    }
}
