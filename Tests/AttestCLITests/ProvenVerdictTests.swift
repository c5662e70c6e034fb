import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import AttestVerifiers
import Foundation
import Testing

/// Verifiers built to be wrong in one way each. A pass is evidence: the run reports each as exactly what it is
/// (findings on the controls, refusals unconfirmed or masked, crashes), never a pass it cannot back.
@Suite struct ProvenVerdictTests {
    /// Refuses every step, naming no rule.
    struct RefusesEverything: AttestationVerifier {
        var name: String { "test:refuses-everything" }
        func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
            testCase.steps.map { _ in Verdict(.reject, reason: "refused") }
        }
    }

    /// The reference verifier, except that it refuses every TPM registration, valid or not, naming no rule: a
    /// verifier whose list of TPM manufacturers lacks the forged one.
    struct RefusesTPM: AttestationVerifier {
        let reference: ReferenceVerifier
        var name: String { "test:refuses-tpm" }
        /// `fmt` then `tpm` as CBOR text strings, as every attestation object of the catalogue writes them.
        static let tpmFormat: [UInt8] = [0x63] + Array("fmt".utf8) + [0x63] + Array("tpm".utf8)

        func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
            var verdicts = try await reference.verdicts(for: testCase, profile: profile)
            for (index, step) in testCase.steps.enumerated() where step.kind == .webAuthnRegistration {
                if Self.contains(step.inputs[.attestationObject] ?? [], Self.tpmFormat) {
                    verdicts[index] = Verdict(.reject, reason: "TPM manufacturer not listed")
                }
            }
            return verdicts
        }

        static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
            guard bytes.count >= needle.count else { return false }
            return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
        }
    }

    /// The reference verifier, naming `rule` for every refusal.
    struct NamesOneRule: AttestationVerifier {
        let reference: ReferenceVerifier
        let rule: RuleID
        var name: String { "test:names-\(rule)" }
        func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
            try await reference.verdicts(for: testCase, profile: profile).map { verdict in
                verdict.outcome == .reject ? Verdict(.reject, reason: verdict.reason, rule: rule, status: verdict.status) : verdict
            }
        }
    }

    @Test(arguments: BuiltinCatalogue.profiles.map(\.name))
    func aVerifierThatRefusesEverythingGetsNoPass(profileName: String) async throws {
        let profile = try #require(BuiltinCatalogue.profile(named: profileName))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let report = await Runner(profile: profile, verifier: RefusesEverything()).run(cases, seed: 1, jobs: 2)
        #expect(report.results.allSatisfy { $0.status != .pass }, "\(report.results.filter { $0.status == .pass }.map(\.caseId))")
        #expect(report.exitCode == 1)
        // A case with a step to be accepted is a finding there; a refusal with nothing before it to accept is
        // unconfirmed (its control was refused too).
        for (testCase, result) in zip(cases, report.results) {
            let expected = testCase.steps.map { $0.expectedVerdict(under: profile) }
            let status: CaseResult.Status = expected.contains(.accept) ? .finding : expected.contains(.either) ? .acceptable : .unconfirmed
            #expect(result.status == status, "\(result.summary)")
            if result.status == .unconfirmed {
                #expect(result.control?.caseId == testCase.control && result.control?.status == .finding)
            }
        }
        let families = Set(report.unconfirmed.compactMap(\.family))
        // Every profile with a one-step family has unconfirmed refusals to announce.
        if profile.families.contains(where: { [.appAttest, .androidKey, .webAuthn].contains($0) }) { #expect(!families.isEmpty) }
        for family in families {
            #expect(report.controlNotes.contains { $0.hasPrefix("refuses every valid \(family.rawValue) case") }, "\(report.controlNotes)")
        }
    }

    @Test func aVerifierThatRefusesValidTPMStatementsHasItsTPMNegativesUnconfirmed() async throws {
        let profile = Profile.webAuthnL3
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let reference = ReferenceVerifier(profile: profile)
        let report = await Runner(profile: profile, verifier: RefusesTPM(reference: reference)).run(cases, seed: 1, jobs: 2)
        let byId = Dictionary(uniqueKeysWithValues: report.results.map { ($0.caseId, $0) })
        let tpmControls = Set(cases.filter { $0.rule == nil && $0.id.contains(".tpm") }.map(\.id))
        #expect(tpmControls.count >= 2)
        for control in tpmControls { #expect(byId[control]?.status == .finding) }
        let tpmNegatives = cases.filter { $0.control.map(tpmControls.contains) == true }
        #expect(tpmNegatives.count >= 10)
        for testCase in tpmNegatives {
            // Refused at their TPM registration: unconfirmed, or a finding where that registration was to be accepted.
            let status = try #require(byId[testCase.id]?.status)
            #expect(status == .unconfirmed || status == .finding, "\(testCase.id): \(status)")
        }
        #expect(tpmNegatives.contains { byId[$0.id]?.status == .unconfirmed })
        // Every other case is judged as the reference judges it, its passes proven by reason and control.
        let others = report.results.filter { !tpmControls.contains($0.caseId) && !tpmNegatives.map(\.id).contains($0.caseId) }
        #expect(others.allSatisfy { $0.status == .pass || $0.status == .acceptable }, "\(others.filter { $0.status != .pass }.map(\.summary))")
        #expect(report.controlNotes.contains { $0.hasPrefix("control webauthn.valid.tpm is finding: ") }, "\(report.controlNotes)")
    }

    @Test func aRefusalNamingAnotherRuleIsMasked() async throws {
        let profile = Profile.appleAppAttest
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let named = RuleID("appattest.nonce")
        let verifier = NamesOneRule(reference: ReferenceVerifier(profile: profile), rule: named)
        let report = await Runner(profile: profile, verifier: verifier).run(cases, seed: 1, jobs: 2)
        for (testCase, result) in zip(cases, report.results) {
            switch testCase.rule {
            case nil: #expect(result.status == .pass && result.proof == .outcome)
            case named?: #expect(result.status == .pass && result.proof == .reasonAndControl, "\(result.summary)")
            case let rule?:
                #expect(result.status == .masked, "\(result.summary)")
                #expect(result.message?.contains(named.rawValue) == true && result.message?.contains(rule.rawValue) == true)
            }
        }
        #expect(!report.masked.isEmpty && report.exitCode == 0)
        // The report says so in every format.
        for format in ReportFormat.allCases {
            let text = try format.render(report)
            #expect(text.contains("masked"), "\(format)")
        }
    }

    @Test func theReferenceVerifierProvesEveryRefusalByReasonAndControl() async throws {
        for profile in BuiltinCatalogue.profiles {
            let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
            let report = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(cases, seed: 1, jobs: 2)
            #expect(report.unconfirmed.isEmpty && report.masked.isEmpty && report.crashes.isEmpty, "\(profile.name)")
            for (testCase, result) in zip(cases, report.results) {
                // A case whose verdict the specification (or the profile's edition of it) leaves to the relying
                // party is recorded, not passed.
                if testCase.steps.contains(where: { $0.expectedVerdict(under: profile) == .either }) {
                    #expect(result.status == .acceptable && result.expected == .either, "\(result.summary)")
                    continue
                }
                #expect(result.status == .pass, "\(result.summary)")
                #expect(result.proof == (testCase.needsControl(under: profile) ? .reasonAndControl : .outcome), "\(result.caseId)")
            }
        }
    }

    /// A refusal whose control is not in the run proves nothing: it is unconfirmed, naming the missing control.
    @Test func aRefusalWithoutItsControlInTheRunIsUnconfirmed() async throws {
        let profile = Profile.appleAppAttest
        let negative = try #require(try BuiltinCatalogue.cases(for: profile, seed: 1).first { $0.rule != nil })
        let report = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run([negative], seed: 1)
        #expect(report.results.first?.status == .unconfirmed)
        #expect(report.results.first?.message?.contains("\(negative.control ?? "?") was not run") == true)
        // Case.withControls adds it back.
        let all = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let withControl = Case.withControls([negative], from: all)
        #expect(withControl.map(\.id) == [try #require(negative.control), negative.id])
        let proven = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(withControl, seed: 1)
        #expect(proven.results.allSatisfy { $0.status == .pass })
    }

    /// A verdict-protocol server that answers 500 on every malformed case: crashes, never rejections.
    @Test func aServerAnswering500OnMalformedEvidenceCrashes() async throws {
        let (process, port) = try HTTPVerifierTests.startHostileServer()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let profile = Profile.appleAppAttest
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let client = HTTPVerifier(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)/malformed500")), timeout: 5)
        let report = await Runner(profile: profile, verifier: client).run(cases, seed: 1, jobs: 2)
        for (testCase, result) in zip(cases, report.results) {
            #expect(result.status == (testCase.rule == nil ? .pass : .crash), "\(result.summary)")
        }
        #expect(report.crashes.count == cases.filter { $0.rule != nil }.count)
        #expect(report.exitCode == 1)
        let console = try ReportFormat.console.render(report)
        #expect(console.contains("FAIL: \(report.crashes.count) crashes"), "\(console.suffix(400))")
    }

    /// An exec adapter that dies of SIGSEGV on the nonce cases: each is a crash naming the signal, its control still
    /// judged (added to the filtered run), and the run fails.
    @Test func anExecAdapterKilledBySIGSEGVCrashes() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = directory.appendingPathComponent("segv-adapter.sh")
        try """
        input=$(cat)
        case "$input" in *'"id":"appattest.nonce.'*|*'"id" : "appattest.nonce.'*) kill -SEGV $$ ;; esac
        printf '%s' "$input" | '\(CommandLineTests.binary.path)' exec-reference
        """.write(to: adapter, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("report.json")
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "exec:sh \(adapter.path)",
                                              "--filter", "appattest.nonce.*", "--format", "json", "--out", out.path)
        #expect(result.status == 1, "\(result.stderr)")
        let report = try RunReport.load(from: out)
        let control = try #require(report.results.first { $0.rule == nil })
        #expect(control.caseId == "appattest.valid.attestation-and-assertions" && control.status == .pass)
        let nonce = report.results.filter { $0.caseId.hasPrefix("appattest.nonce.") }
        #expect(nonce.count >= 3)
        for result in nonce {
            #expect(result.status == .crash, "\(result.summary)")
            #expect(result.message?.contains("signal 11 (SIGSEGV)") == true, "\(result.summary)")
        }
        #expect(report.results.count == nonce.count + 1)
    }
}

/// The Python exec helper: an adapter names its library's verification errors and maps their messages to rules;
/// anything else it raises is a crash, never a refusal. The shipped adapters document their tables.
@Suite struct PythonHelperReasonTests {
    static let root = ExampleServerTests.root

    @Test func refusalsNameRulesAndOtherExceptionsCrash() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = directory.appendingPathComponent("adapter.py")
        // One case per child: the case id is read first, then the helper runs on the same document.
        try """
        import io, json, sys
        sys.path.insert(0, \(String(reflecting: Self.root.appendingPathComponent("vectors/python").path)))
        from attest_harness_vectors.exec_adapter import run

        class Refused(Exception):
            pass

        document = sys.stdin.buffer.read()
        name = json.loads(document)["cases"][0]["id"]

        def verify(kind, inputs, context, state):
            if ".valid." in name:
                return None
            if ".nonce." in name:
                raise Refused("the nonce does not match")
            if ".aaguid." in name:
                raise TypeError("'NoneType' object is not subscriptable")
            raise Refused("something else")

        run("helper-test", verify, refusals=(Refused,), rules=[(Refused, r"nonce does not match", "appattest.nonce")],
            stdin=io.BytesIO(document))
        """.write(to: adapter, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("report.json")
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "exec:python3 \(adapter.path)",
                                              "--filter", "appattest.[na][oa]*", "--format", "json", "--out", out.path)
        #expect(result.status == 1, "\(result.stderr)")
        let report = try RunReport.load(from: out)
        let nonce = report.results.filter { $0.caseId.hasPrefix("appattest.nonce.") }
        let aaguid = report.results.filter { $0.caseId.hasPrefix("appattest.aaguid.") }
        let others = report.results.filter { $0.rule != nil && !nonce.contains($0) && !aaguid.contains($0) }
        #expect(!nonce.isEmpty && !aaguid.isEmpty && !others.isEmpty)
        #expect(nonce.allSatisfy { $0.status == .pass && $0.proof == .reasonAndControl && $0.actual?.rule == "appattest.nonce" })
        #expect(aaguid.allSatisfy { $0.status == .crash && $0.message?.contains("TypeError") == true }, "\(aaguid.map(\.summary))")
        #expect(others.allSatisfy { $0.status == .pass && $0.proof == .control && $0.actual?.rule == nil }, "\(others.map(\.summary))")
    }

    /// Each shipped adapter's README lists every rule its table maps (the rows a maintainer reads to check a verdict).
    @Test(arguments: ["py_webauthn", "python_fido2", "pyattest"])
    func everyAdapterReadmeListsItsRuleTable(adapter: String) throws {
        let folder = Self.root.appendingPathComponent("scripts/adapters/\(adapter)")
        let source = try String(contentsOf: folder.appendingPathComponent("adapter.py"), encoding: .utf8)
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(source.contains("refusals=REFUSALS, rules=RULES"))
        let rules = source.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #""[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+"\),$"#, options: .regularExpression) else { return nil }
            return String(line[range].dropFirst().dropLast(3))
        }
        #expect(rules.count >= 5, "\(rules)")
        for rule in rules { #expect(readme.contains("| `\(rule)` |"), "\(adapter) README lacks \(rule)") }
    }
}
