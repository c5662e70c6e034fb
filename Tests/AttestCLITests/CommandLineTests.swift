import AttestConformance
import AttestCrypto
import Foundation
import Testing

/// The `attest-harness` binary end to end, as CI and users run it.
@Suite struct CommandLineTests {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The binary sits beside the test bundle in the build folder.
    static let binary: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("attest-harness").path),
              directory.pathComponents.count > 1 {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("attest-harness")
    }()

    static func run(_ arguments: String...) throws -> Result { try run(arguments) }

    static func run(_ arguments: [String]) throws -> Result {
        try launch(binary, arguments)
    }

    /// Runs `executable` with `arguments` and NO_COLOR (plus `environment`), collecting stdout and stderr.
    static func launch(_ executable: URL, _ arguments: [String], environment extra: [String: String] = [:],
                       in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment.merging(extra) { _, new in new }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain stderr on another thread while reading stdout, so neither pipe can fill and block the child.
        let stderrBox = PipeReader(err)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = stderrBox.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// stderr without the progress lines a run prints when stderr is not a terminal (`--progress auto`).
    static func diagnostics(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { line in
            !(line.hasPrefix("attest-harness run: ") && line.contains(" cases, ") && line.contains(" elapsed"))
        }
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("attest-harness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func referenceVerifierPassesAndAMutantHasFindings() throws {
        let clean = try Self.run("run", "--verifier", "builtin:reference", "--profile", "apple-app-attest")
        #expect(clean.status == 0)
        #expect(clean.stdout.contains("0 findings, 0 errors"))
        let mutant = try Self.run("run", "--verifier", "builtin:reference-without:appattest.assertion.counter",
                                  "--profile", "apple-app-attest")
        #expect(mutant.status == 1)
        #expect(mutant.stdout.contains("FAIL appattest.assertion.counter"))
        #expect(mutant.stdout.contains("appattest.assertion.counter.equal [appattest.assertion.counter] step 2: expected reject, got accept"))
    }

    @Test func reportFormatsAndBaseline() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let baseline = directory.appendingPathComponent("baseline.json").path
        let first = try Self.run("run", "--verifier", "builtin:reference-without:appattest.nonce", "--profile", "apple-app-attest",
                                 "--format", "json", "--out", baseline)
        #expect(first.status == 1 && first.stdout.isEmpty)
        let report = try RunReport.load(from: URL(fileURLWithPath: baseline))
        #expect(report.findings.count == 5 && report.findings.allSatisfy { $0.rule == "appattest.nonce" })
        #expect(report.harnessVersion == HarnessVersion.current)

        // The same findings again: all known, exit 0. Another rule's findings: new, exit 1.
        let same = try Self.run("run", "--verifier", "builtin:reference-without:appattest.nonce", "--profile", "apple-app-attest",
                                "--baseline", baseline)
        #expect(same.status == 0)
        #expect(same.stdout.contains("against the baseline: 0 new, 5 known, 0 fixed"), "\(same.stdout.suffix(400))")
        let worse = try Self.run("run", "--verifier", "builtin:reference-without:appattest.keyId", "--profile", "apple-app-attest",
                                 "--baseline", baseline)
        #expect(worse.status == 1)
        #expect(worse.stdout.contains("against the baseline: 1 new, 0 known, 5 fixed"), "\(worse.stdout.suffix(400))")

        let junit = try Self.run("run", "--verifier", "builtin:reference-without:appattest.keyId", "--profile", "apple-app-attest",
                                 "--format", "junit")
        #expect(junit.stdout.hasPrefix("<?xml"))
        #expect(junit.stdout.contains(#"<testsuite name="appattest.keyId" package="attest-harness.apple-app-attest""#))
        #expect(junit.stdout.contains(#"tests="1" failures="1" errors="0" skipped="0""#))
        #expect(junit.stdout.contains(#"<failure message="appattest.keyId.spki-hash [appattest.keyId] step 0: expected reject, got accept" type="finding MUST">"#))
        let markdown = try Self.run("run", "--verifier", "builtin:reference", "--profile", "apple-app-attest",
                                    "--format", "markdown", "--filter", "appattest.nonce.*")
        #expect(markdown.status == 0)
        #expect(markdown.stdout.contains("| `appattest.nonce` | MUST | 5 | 0 |"), "\(markdown.stdout)")
        #expect(!markdown.stdout.contains("appattest.keyId"))
    }

    @Test func listForgeRootsAndVectors() throws {
        let list = try Self.run("list", "--profile", "apple-app-attest", "--format", "json")
        #expect(list.status == 0)
        let entries = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(entries.count == 41)
        #expect(entries.filter { $0["rule"] == nil }.count == 1)
        #expect(entries.allSatisfy { ($0["expected"] as? String) == ($0["rule"] == nil ? "accept" : "reject") })

        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let forge = try Self.run("forge", "--case", "appattest.assertion.counter.equal", "--out", directory.path)
        #expect(forge.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files.contains("case.json") && files.contains("1-attestation.attestationObject.cbor")
                && files.contains("3-assertion.assertion.cbor") && files.contains("trust-anchor-1.pem"))
        let description = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("case.json")))
        #expect(((description as? [String: Any])?["expected"] as? [String: [String]])?["apple-app-attest"] == ["accept", "accept", "reject"])

        let rootsRun = try Self.run("roots", "--out", directory.appendingPathComponent("roots").path)
        #expect(rootsRun.status == 0)
        let anchor = try String(contentsOf: directory.appendingPathComponent("roots/app-attest-root.pem"), encoding: .utf8)
        #expect(anchor == (try String(contentsOf: directory.appendingPathComponent("trust-anchor-1.pem"), encoding: .utf8)))
        #expect(try X509Certificate.parseChain(pem: anchor).first?.subject.contains("CN=TEST App Attestation Root CA") == true)
        let roots = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("roots").path).sorted()
        #expect(roots == ["android-ec-root.pem", "android-rsa-root.pem", "android-software-root.pem", "android-status.json",
                          "app-attest-root.pem", "play-integrity-decryption-key.txt", "play-integrity-verification-key.pem",
                          "webauthn-apple-root.pem", "webauthn-fido-attestation-root.pem", "webauthn-safetynet-root.pem"])
        // Each file is written, and said, once, though several families share the Android roots.
        let said = rootsRun.stderr.split(separator: "\n").filter { $0.hasPrefix("attest-harness roots: wrote ") }
        #expect(said.count == roots.count && Set(said).count == said.count, "\(rootsRun.stderr)")

        let vectors = try Self.run("vectors", "--out", directory.appendingPathComponent("vectors").path, "--seed", "1")
        #expect(vectors.status == 0)
        let fresh = try Data(contentsOf: directory.appendingPathComponent("vectors/app-attest.json"))
        let committed = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../vectors/app-attest.json"))
        #expect(fresh == committed)
    }

    @Test(arguments: [
        [String](), ["bogus"], ["run"], ["run", "--profile", "apple-app-attest"],
        ["run", "--profile", "nope", "--verifier", "builtin:reference"],
        ["run", "--profile", "apple-app-attest", "--verifier", "builtin:reference-without:nope"],
        ["run", "--profile", "apple-app-attest", "--verifier", "exec:"],
        ["run", "--profile", "apple-app-attest", "--verifier", "http://"], ["run", "--profile", "apple-app-attest", "--verifier", "ftp://x"],
        ["run", "--profile", "apple-app-attest", "--verifier", "builtin:reference", "--timeout", "0"],
        ["run", "--profile", "apple-app-attest", "--verifier", "builtin:reference", "--format", "pdf"],
        ["run", "--profile", "apple-app-attest", "--verifier", "builtin:reference", "--seed", "-1"],
        ["run", "--profile", "apple-app-attest", "--verifier", "builtin:reference", "--jobs", "0"],
        ["run", "--profile", "apple-app-attest", "--verifier", "builtin:reference", "--baseline", "/nonexistent.json"],
        ["run", "--profile", "apple-app-attest", "--verifier", "builtin:reference", "--filter", "nothing*"],
        ["run", "--profile", "/nonexistent/profile.json", "--verifier", "builtin:reference"],
        ["list", "--format", "xml"], ["list", "--family", "tpm"], ["list", "--seed", "abc"], ["list", "extra"],
        ["list", "--unknown"], ["forge", "--case", "nope", "--out", "/tmp/x"], ["forge", "--out", "/tmp/x"],
        ["roots"], ["vectors", "--out"],
    ])
    func malformedInputGivesOneLineAndStatusTwo(arguments: [String]) throws {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let err = Pipe()
        let out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(stdout.isEmpty)
        #expect(stderr.hasPrefix("attest-harness ") && stderr.hasSuffix("\n") && stderr.dropLast().contains("\n") == false,
                "\(stderr)")
    }

    @Test(arguments: ["list", "forge", "roots", "vectors", "run"])
    func everyCommandHasHelp(command: String) throws {
        let help = try Self.run(command, "--help")
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: ") && help.stdout.contains("USAGE: attest-harness \(command)"))
        let top = try Self.run("--help")
        #expect(top.status == 0 && top.stdout.contains("  \(command) "))
        // `help <command>` is that command's help, not the global one.
        let named = try Self.run("help", command)
        #expect(named.status == 0 && named.stdout == help.stdout)
    }

    /// `--fail-on` gates by level and outcome: POLICY findings alone pass a MUST gate, a MUST finding fails it, and
    /// the reports still list every finding.
    /// `list --api MAP` says which cases the map can deliver to a live server and why not, from the map alone.
    @Test func listSaysWhichCasesAMapCanDeliver() throws {
        let fido = APIMapLiveTests.apis.appendingPathComponent("fido.json").path
        let list = try Self.run("list", "--profile", "webauthn-l3", "--api", fido, "--format", "json")
        #expect(list.status == 0, "\(list.stderr)")
        let entries = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        func delivery(_ id: String) -> [String: Any]? { entries.first { $0["id"] as? String == id }?["throughMap"] as? [String: Any] }
        #expect(!entries.isEmpty && entries.allSatisfy { $0["throughMap"] != nil })
        #expect(delivery("webauthn.valid.packed")?["deliverable"] as? Bool == true)
        #expect(delivery("webauthn.valid.packed")?["reason"] == nil)
        #expect((delivery("webauthn.assertion.credential.deleted")?["reason"] as? String)?.contains("webauthn.deletion") == true)
        #expect((delivery("webauthn.credential.json.registration-missing-id")?["reason"] as? String)?.contains("credentialJSON") == true)
        #expect(delivery("webauthn.valid.allow-credentials")?["deliverable"] as? Bool == false)
        let table = try Self.run("list", "--profile", "webauthn-l3", "--api", fido)
        #expect(table.stdout.contains("map: yes") && table.stdout.contains("map: no ("))
        let withoutProfile = try Self.run("list", "--api", fido)
        #expect(withoutProfile.status == 2 && withoutProfile.stderr.contains("--api goes with --profile"), "\(withoutProfile.stderr)")

        // A map that states its site's policy lists the cases a run through it judges, with that policy's
        // expectations: the Django site asks for no attestation, so the unattested registration is one it must
        // accept and a packed statement's faults are left to it (every case was listed as undeliverable, forged
        // under the built-in profile and judged under the site's).
        let site = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/DeployedServers/django-passkeys/api-map.json").path
        let sited = try Self.run("list", "--profile", "webauthn-l3", "--api", site, "--format", "json")
        #expect(sited.status == 0, "\(sited.stderr)")
        let siteEntries = try JSONSerialization.jsonObject(with: Data(sited.stdout.utf8)) as? [[String: Any]] ?? []
        let deliverable = siteEntries.filter { ($0["throughMap"] as? [String: Any])?["deliverable"] as? Bool == true }
        #expect(deliverable.count > 200, "\(deliverable.count) of \(siteEntries.count) deliverable")
        let none = siteEntries.first { $0["id"] as? String == "webauthn.valid.none" }
        #expect(none?["expected"] as? String == "accept" && (none?["throughMap"] as? [String: Any])?["deliverable"] as? Bool == true)
        #expect(siteEntries.first { $0["id"] as? String == "webauthn.attestation.signature.packed-other-data" }?["expected"] as? String == "either")
    }

    @Test func failOnGatesByLevel() throws {
        let policyOnly = ["run", "--verifier", "builtin:reference-without:appattest.cbor.trailingBytes", "--profile", "apple-app-attest"]
        let ungated = try Self.run(policyOnly)
        #expect(ungated.status == 1 && ungated.stdout.contains("2 POLICY"), "\(ungated.stdout.suffix(300))")
        let gated = try Self.run(policyOnly + ["--fail-on", "MUST"])
        #expect(gated.status == 0, "\(gated.stdout.suffix(300))")
        #expect(gated.stdout.contains("PASS: nothing fails the gate (--fail-on MUST); 2 other findings or errors reported"), "\(gated.stdout.suffix(300))")
        #expect(gated.stdout.contains("appattest.cbor.trailingBytes.attestation-object"), "the findings are still listed")
        #expect(try Self.run(policyOnly + ["--fail-on", "MUST,POLICY"]).status == 1)
        let must = try Self.run(["run", "--verifier", "builtin:reference-without:appattest.nonce", "--profile", "apple-app-attest",
                                 "--fail-on", "MUST"])
        #expect(must.status == 1 && must.stdout.contains("(--fail-on MUST)"), "\(must.stdout.suffix(300))")
        let bad = try Self.run(policyOnly + ["--fail-on", "MUTS"])
        #expect(bad.status == 2 && bad.stderr.contains("(did you mean MUST?)"), "\(bad.stderr)")
    }

    /// The bash completion script, sourced into a real bash, completes commands, each command's options and the
    /// values of --profile and --fail-on; the zsh and fish scripts are written from the same lists.
    @Test func bashCompletionCompletesCommandsOptionsAndValues() throws {
        let script = try Self.run("completions", "bash")
        #expect(script.status == 0, "\(script.stderr)")
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("attest-harness.bash")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let probe = try Self.launch(URL(fileURLWithPath: "/bin/bash"), ["--norc", "-c", """
                source '\(file.path)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _attest_harness
                printf '%s\\n' "${COMPREPLY[@]}"
                """])
            return probe.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["attest-harness", "ru"]) == ["run"])
        #expect(try complete(["attest-harness", "run", "--fail"]) == ["--fail-on"])
        #expect(try complete(["attest-harness", "run", "--profile", "webauthn-l"]) == ["webauthn-l3", "webauthn-l2"])
        #expect(try complete(["attest-harness", "run", "--fail-on", "P"]) == ["POLICY"])
        #expect(try complete(["attest-harness", "help", "ser"]) == ["serve"])
        for shell in ["zsh", "fish"] {
            let other = try Self.run("completions", shell)
            #expect(other.status == 0 && other.stdout.contains("fail-on") && other.stdout.contains("webauthn-l3"), "\(shell)")
        }
        let bad = try Self.run("completions", "bsh")
        #expect(bad.status == 2 && bad.stderr.contains("(did you mean bash?)"), "\(bad.stderr)")
    }

    /// `--quiet` leaves stderr to errors; `--color always|never` overrides the terminal check (a CI log that renders
    /// ANSI colour, or a terminal that should get none).
    @Test func quietAndColorDoWhatTheySay() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let noisy = try Self.run("roots", "--out", directory.appendingPathComponent("a").path)
        #expect(noisy.status == 0 && !noisy.stderr.isEmpty)
        let quiet = try Self.run("roots", "--out", directory.appendingPathComponent("b").path, "--quiet")
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let run = ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest", "--progress", "always"]
        let quietRun = try Self.run(run + ["--quiet"])
        #expect(quietRun.status == 0 && quietRun.stderr.isEmpty && quietRun.stdout.contains("PASS"), "\(quietRun.stderr)")
        #expect(try Self.run(run + ["--quiet", "--color", "always"]).stdout.contains("\u{1B}["))
        #expect(!(try Self.run(run + ["--quiet", "--color", "never"]).stdout.contains("\u{1B}[")))
        let bad = try Self.run(run + ["--color", "sometimes"])
        #expect(bad.status == 2 && bad.stderr.contains("bad --color"), "\(bad.stderr)")
    }

    /// A mistyped command, option or profile gets the likely word back, on the one error line.
    @Test func mistypesGetADidYouMean() throws {
        for (arguments, suggestion) in [(["rn"], "(did you mean run?)"), (["help", "lsit"], "(did you mean list?)"),
                                        (["list", "--profle", "x"], "(did you mean --profile?)"),
                                        (["list", "--profile", "webauthn-l33"], "(did you mean webauthn-l3?)"), (["list", "--profile", "webauthn-l2x"], "(did you mean webauthn-l2?)")] {
            let result = try Self.run(arguments)
            #expect(result.status == 2 && result.stderr.contains(suggestion), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        let far = try Self.run("zzzzzzzz")
        #expect(far.status == 2 && !far.stderr.contains("did you mean"), "\(far.stderr)")
    }

    @Test func versionIsPrinted() throws {
        let version = try Self.run("--version")
        #expect(version.status == 0)
        #expect(version.stdout == "attest-harness \(HarnessVersion.current)\n")
        #expect(try Self.run("-V").stdout == version.stdout)
        #expect(HarnessVersion.current.split(separator: ".").count == 3)
    }

    @Test func badProfileFileIsAUsageError() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("profile.json")
        try Data("{\"name\": 3}".utf8).write(to: path)
        let result = try Self.run("run", "--profile", path.path, "--verifier", "builtin:reference")
        #expect(result.status == 2 && result.stderr.contains("is not a valid profile"))

        // A user profile that drops a rule expects those cases to be accepted.
        let profile = """
        {"name": "lenient-nonce", "families": ["app-attest"], "parameters": {"teamId": "A1B2C3D4E5",
         "bundleId": "dev.attest-harness.example", "environment": "production"},
         "rules": ["appattest.keyId", "appattest.fmt"]}
        """
        try Data(profile.utf8).write(to: path)
        let custom = try Self.run("run", "--profile", path.path, "--verifier", "builtin:reference", "--format", "json")
        #expect(custom.status == 0)

        // Read strictly: a mistyped rule (which would silently stop being enforced), a rule of another family, an
        // unknown family or member is refused, naming it.
        for (edit, says) in [(#""appattest.keyId""#, #""appattest.keyID" is not a rule of its families (app-attest) (did you mean appattest.keyId?)"#),
                             (#""appattest.fmt""#, #""webauthn.signCount" is not a rule of its families (app-attest)"#),
                             (#""families": ["app-attest"]"#, #"unknown family "app-atest""#),
                             (#""rules":"#, #"unknown member "rule" (did you mean rules?)"#),
                             (#""teamId""#, #"unknown parameter "teamID" (did you mean teamId?)"#),
                             (#""name": "lenient-nonce","#, #"/name is named twice in its object"#)] {
            let replacement = [#""appattest.keyId""#: #""appattest.keyID""#, #""appattest.fmt""#: #""webauthn.signCount""#,
                               #""families": ["app-attest"]"#: #""families": ["app-atest"]"#, #""rules":"#: #""rule":"#,
                               #""teamId""#: #""teamID""#, #""name": "lenient-nonce","#: #""name": "lenient-nonce", "name": "strict","#][edit] ?? edit
            try Data(profile.replacingOccurrences(of: edit, with: replacement).utf8).write(to: path)
            let refused = try Self.run("list", "--profile", path.path)
            #expect(refused.status == 2 && refused.stderr.contains(says), "\(refused.stderr)")
        }
    }

    /// `run --cases FILE` reads anyone's suite: a negative case none of whose steps breaks its rule is a usage
    /// error naming the case, never the precondition trap the catalogue's own cases are held to (it used to stop
    /// the process with SIGILL).
    @Test func aSuiteCaseWithoutItsBreakingStepIsAUsageError() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("vectors/step-up.json")
        var suite = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: vectors)) as? [String: Any])
        var cases = try #require(suite["cases"] as? [[String: Any]])
        let index = try #require(cases.firstIndex { $0["rule"] != nil })
        cases[index]["steps"] = try #require(cases[index]["steps"] as? [[String: Any]]).map { $0.filter { $0.key != "breaks" } }
        suite["cases"] = cases
        let path = directory.appendingPathComponent("suite.json")
        try JSONSerialization.data(withJSONObject: suite).write(to: path)
        let result = try Self.run("run", "--cases", path.path, "--profile", "step-up-signing", "--verifier", "builtin:reference")
        #expect(result.status == 2, "\(result.stderr.prefix(400))")
        let id = try #require(cases[index]["id"] as? String)
        #expect(result.stderr.contains("is not a vectors suite") && result.stderr.contains("case \(id) breaks"), "\(result.stderr.prefix(400))")
        #expect(!result.stderr.contains("Program crashed"))

        // Nor can a suite have no case (a run judging nothing would report conformant), a case twice, or a rule or
        // family this harness does not have (no profile would expect it refused); nor be larger than 32 MiB.
        let original = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: vectors)) as? [String: Any])
        let first = try #require((original["cases"] as? [[String: Any]])?.first { $0["rule"] != nil })
        var unknownRule = first
        unknownRule["rule"] = "stepup.no.such.rule"
        unknownRule["steps"] = (first["steps"] as? [[String: Any]] ?? []).map { step in
            step["breaks"] == nil ? step : step.merging(["breaks": "stepup.no.such.rule"]) { $1 }
        }
        for (edit, says) in [(["cases": [] as [Any]], "has no cases"), (["cases": [first, first]], "has case \(first["id"] ?? "") twice"),
                             (["cases": [unknownRule]], "breaks stepup.no.such.rule, which is no rule of this harness"),
                             (["family": "zzz"], "of family zzz, which this harness does not have")] {
            try JSONSerialization.data(withJSONObject: original.merging(edit) { $1 }).write(to: path)
            let refused = try Self.run("run", "--cases", path.path, "--profile", "step-up-signing", "--verifier", "builtin:reference")
            #expect(refused.status == 2 && refused.stderr.contains(says), "\(says): \(refused.stderr.prefix(400))")
            #expect(refused.stderr.split(separator: "\n").count == 1)
        }
        try Data(count: 33 << 20).write(to: path)
        let large = try Self.run("run", "--cases", path.path, "--profile", "step-up-signing", "--verifier", "builtin:reference")
        #expect(large.status == 2 && large.stderr.contains("larger than 32 MiB"), "\(large.stderr.prefix(300))")
    }
}

/// Reads a pipe to its end on a background thread.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
