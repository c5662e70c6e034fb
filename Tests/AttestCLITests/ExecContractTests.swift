import AttestCatalogue
import AttestConformance
import Foundation
import Testing

/// `exec:` verifiers end to end: the reference verifier behind the contract, the ten-line example adapter, and
/// children that hang, crash, lie or flood.
@Suite struct ExecContractTests {
    static var harness: String { CommandLineTests.binary.path }

    @Test func referenceBehindTheContractPassesAndItsMutantIsCaught() throws {
        for profile in ["apple-app-attest", "android-key-attestation"] {
            let clean = try CommandLineTests.run("run", "--profile", profile, "--verifier", "exec:\(Self.harness) exec-reference")
            #expect(clean.status == 0 && clean.stdout.contains(" 0 findings, 0 errors"), "\(profile): \(clean.stdout.suffix(200))")
        }
        let mutant = try CommandLineTests.run("run", "--profile", "android-key-attestation", "--format", "json", "--verifier",
                                              "exec:\(Self.harness) exec-reference --without android.origin")
        #expect(mutant.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(mutant.stdout.utf8)) as? [String: Any]
        let findings = (report?["results"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "finding" }
        #expect(findings.count == 2 && findings.allSatisfy { $0["rule"] as? String == "android.origin" })
    }

    @Test func theExampleAdapterRunsAndTrustsEverything() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../vectors/exec-adapter-example.py").standardizedFileURL.path
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "exec:python3 \(example)")
        #expect(result.status == 1)
        #expect(result.stdout.contains("41 cases: 1 passed, 40 findings, 0 errors"))
    }

    /// An adapter that cannot judge a step answers `unsupported`: the case is reported apart, with the adapter's
    /// reason, never as a pass or a finding, and the exit status ignores it; in JUnit it is a skipped testcase.
    @Test func unsupportedIsAnAnswerNotAVerdict() throws {
        let script = #"import json,sys; s=json.load(sys.stdin); print(json.dumps({"format":"attest-harness-exec-results/1","harness":"x","results":[{"id":c["id"],"verdicts":[{"outcome":"unsupported","reason":"no tpm verifier"} for _ in c["steps"]]} for c in s["cases"]]}))"#
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unsupported-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = directory.appendingPathComponent("adapter.py")
        try script.write(to: adapter, atomically: true, encoding: .utf8)
        let console = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--filter", "webauthn.valid.*",
                                               "--verifier", "exec:python3 \(adapter.path)")
        let valid = try BuiltinCatalogue.cases(for: .webAuthnL3, seed: 1).filter { $0.id.hasPrefix("webauthn.valid.") }.count
        #expect(valid >= 3)
        #expect(console.status == 0, "\(console.stdout)")
        #expect(console.stdout.contains("\(valid) cases: 0 passed, 0 findings, 0 errors, \(valid) unsupported"), "\(console.stdout)")
        #expect(console.stdout.contains("unsupported: step 0: no tpm verifier"))
        let junit = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--filter", "webauthn.valid.*", "--format", "junit",
                                             "--verifier", "exec:python3 \(adapter.path)")
        #expect(junit.stdout.components(separatedBy: "<skipped ").count == valid + 1, "\(junit.stdout)")
        #expect(junit.stdout.contains(#"failures="0""#))
    }

    @Test(arguments: [
        ("sleep 30", Int32(1), "HANG"),
        ("false", Int32(2), "exited with status 1"),
        ("echo garbage", Int32(2), "the results document is not valid: it is not valid JSON"),
        ("true", Int32(2), "true wrote no results document on stdout"),
        (#"printf '{"harness":"x","results":[]}'"#, Int32(2), "the results document is not valid: member /format is missing"),
        ("head -c 20000000 /dev/zero", Int32(2), "larger than the limit"),
        (#"printf '{"format":"attest-harness-exec-results/1","harness":"x","results":[{"id":"other","verdicts":[]}]}'"#,
         Int32(2), "no entry for case"),
    ])
    func hostileChildrenEndInAClearResult(command: String, status: Int32, message: String) throws {
        let started = Date()
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--filter", "appattest.valid.*",
                                              "--timeout", "2", "--verifier", "exec:\(command)")
        #expect(result.status == status, "\(result.stdout)")
        #expect(result.stdout.contains(message), "\(result.stdout)")
        // Exit 2 says why in one line on stderr, without the decoder's internals.
        if status == 2 {
            #expect(result.stderr.contains("cases got no verdict (harness errors, every case)") && result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stdout.contains("CodingKeys") && !result.stdout.contains("DecodingError"), "\(result.stdout)")
        }
        // Bounded by the timeout, not by the child.
        #expect(Date().timeIntervalSince(started) < 20)
    }

    /// An adapter that counts its processes and hangs on any suite holding `hangOn`, else hands the suite to the
    /// reference verifier.
    static func countingAdapter(in directory: URL, hangOn: String?) throws -> (command: String, count: () -> Int) {
        let counter = directory.appendingPathComponent("processes")
        let script = directory.appendingPathComponent("adapter.sh")
        try """
        #!/bin/sh
        echo x >> '\(counter.path)'
        suite=$(mktemp)
        cat > "$suite"
        \(hangOn.map { "if grep -q '\"\($0)\"' \"$suite\"; then rm -f \"$suite\"; exec sleep 30; fi" } ?? "")
        '\(Self.harness)' exec-reference < "$suite"
        status=$?
        rm -f "$suite"
        exit $status
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return (script.path, { ((try? String(contentsOf: counter, encoding: .utf8)) ?? "").split(separator: "\n").count })
    }

    /// Suite mode: one process judges the whole suite, with the same results as one process per case.
    @Test func suiteModeStartsOneProcessForTheSuite() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = try Self.countingAdapter(in: directory, hangOn: nil)
        let perCase = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "exec:" + adapter.command,
                                               "--format", "json", "--progress", "never")
        #expect(perCase.status == 0)
        #expect(adapter.count() == 41 + 1, "one per case, and the start-up probe")
        let suite = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "exec:" + adapter.command,
                                             "--format", "json", "--progress", "never", "--exec-suite", "64")
        #expect(suite.status == 0, "\(suite.stdout.suffix(400))")
        #expect(adapter.count() == 42 + 1 + 1, "the probe and one process for all 41 cases")
        let a = try RunReport.decode(Data(perCase.stdout.utf8)), b = try RunReport.decode(Data(suite.stdout.utf8))
        #expect(a.results.map { [$0.caseId, $0.status.rawValue] } == b.results.map { [$0.caseId, $0.status.rawValue] })
        let bad = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "builtin:reference", "--exec-suite", "8")
        #expect(bad.status == 2 && bad.stderr.contains("--exec-suite goes with an exec: verifier"))
    }

    /// A suite process that hangs is stopped at the timeout and its cases retried one per process: the hanging
    /// case is a HANG, every other case is judged.
    @Test func aHangInSuiteModeCostsOnlyItsCase() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = try Self.countingAdapter(in: directory, hangOn: "appattest.nonce.31-bytes")
        let started = Date()
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "exec:" + adapter.command,
                                              "--format", "json", "--progress", "never", "--exec-suite", "64", "--timeout", "3")
        #expect(result.status == 1, "\(result.stderr)")
        let report = try RunReport.decode(Data(result.stdout.utf8))
        #expect(report.results.filter { $0.status == .hang }.map(\.caseId) == ["appattest.nonce.31-bytes"])
        #expect(report.results.filter { $0.status == .pass }.count == 40)
        #expect(adapter.count() == 1 + 1 + 41, "the probe, the suite, then one per case")
        #expect(Date().timeIntervalSince(started) < 60)
    }
}
