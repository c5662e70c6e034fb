import AttestCatalogue
import AttestConformance
import AttestVerifiers
import Foundation
import Testing

/// The forge is right, not only self-consistent: registrations in every forged attestation format, and credentials
/// of the algorithms each library implements (PSS among them), are accepted by
/// two independent libraries (py_webauthn and python-fido2, pinned in scripts/adapters/requirements.txt) through
/// the exec adapters scripts/compare runs, with our test roots and the case's time injected; python-fido2's own
/// MDS3 code reads and verifies the forged metadata BLOB. Each format's
/// broken statement is refused by the same library, so an adapter that accepted everything would fail here.
@Suite(.serialized) struct ThirdPartyAcceptanceTests {
    static let root = ExampleServerTests.root

    static func adapter(_ name: String) throws -> ExecVerifier {
        let python = try PythonEnvironment.python(venv: root.appendingPathComponent(".build/adapters-venv"),
                                                  requirements: root.appendingPathComponent("scripts/adapters/requirements.txt"))
        return ExecVerifier(command: "\(python.path) \(root.appendingPathComponent("scripts/adapters/\(name)/adapter.py").path)",
                            timeout: 120)
    }

    /// Per library: the valid cases it must accept and one broken case per format it must refuse.
    static let expectations: [(library: String, accepted: [String], refused: [String])] = [
        ("py_webauthn",
         ["webauthn.valid.packed", "webauthn.valid.fido-u2f", "webauthn.valid.tpm", "webauthn.valid.tpm-ecc",
          "webauthn.valid.tpm-name-sha384", "webauthn.valid.android-safetynet", "webauthn.valid.android-key",
          "webauthn.valid.es512", "webauthn.valid.rs384", "webauthn.valid.ps256", "webauthn.valid.ps512"],
         ["webauthn.attestation.signature.fido-u2f-other-data", "webauthn.tpm.certInfo.tpm-extra-data",
          "webauthn.safetynet.nonce.safetynet-other-data", "webauthn.safetynet.timestamp.safetynet-stale"]),
        ("python_fido2",
         ["webauthn.valid.packed", "webauthn.valid.fido-u2f", "webauthn.valid.tpm", "webauthn.valid.tpm-ecc",
          "webauthn.valid.tpm-name-sha384", "webauthn.valid.android-safetynet", "webauthn.valid.es384", "webauthn.valid.ps256",
          "webauthn.valid.metadata"],
         ["webauthn.attestation.signature.fido-u2f-other-data", "webauthn.tpm.certInfo.tpm-extra-data",
          "webauthn.safetynet.nonce.safetynet-other-data", "webauthn.safetynet.ctsProfileMatch.safetynet-cts-failed",
          "webauthn.metadata.signature.blob-other-key", "webauthn.metadata.revoked.revoked"]),
    ]

    @Test(arguments: [0, 1])
    func everyForgedFormatIsAcceptedByAnIndependentLibrary(index: Int) async throws {
        let expectation = Self.expectations[index]
        let wanted = Set(expectation.accepted + expectation.refused)
        let catalogue = try BuiltinCatalogue.cases(for: .webAuthnL3, seed: 1)
        let selected = catalogue.filter { wanted.contains($0.id) }
        #expect(selected.count == wanted.count, "missing cases: \(wanted.subtracting(selected.map(\.id)).sorted())")
        // With their controls, so that each refusal is proven by the library's acceptance of its valid twin.
        let cases = Case.withControls(selected, from: catalogue)
        let report = await Runner(profile: .webAuthnL3, verifier: try Self.adapter(expectation.library)).run(cases, seed: 1)
        #expect(report.errors.isEmpty, "\(report.errors.map(\.summary))")
        for id in expectation.accepted + expectation.refused {
            let result = report.results.first { $0.caseId == id }
            #expect(result?.status == .pass, "\(expectation.library) \(id): \(result.map { "\($0.status) \($0.message ?? "")" } ?? "no result")")
        }
    }
}

/// pyattest behind the per-request API (scripts/adapters/pyattest/README.md): the iOS ceremony and its signed requests
/// pass, and the Android one crashes on the nonce's missing padding (binascii.Error, not a PyAttestException), the
/// confirmed bug docs/results.md lists; an adapter that gave up on Android, or that answered the crash as a refusal,
/// would fail here.
@Suite struct PyattestPerRequestTests {
    @Test func iosPassesAndAndroidCrashesOnTheUnpaddedNonce() async throws {
        let profile = try #require(BuiltinCatalogue.profile(named: "per-request-device-attestation"))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { $0.id.hasPrefix("request.valid.") }
        #expect(cases.map(\.id).sorted() == ["request.valid.android", "request.valid.ios"])
        let report = await Runner(profile: profile, verifier: try ThirdPartyAcceptanceTests.adapter("pyattest")).run(cases, seed: 1)
        let ios = try #require(report.results.first { $0.caseId == "request.valid.ios" })
        #expect(ios.status == .pass, "\(ios.summary)")
        let android = try #require(report.results.first { $0.caseId == "request.valid.android" })
        #expect(android.status == .crash && android.step == 1 && android.summary.contains("Incorrect padding"), "\(android.summary)")
    }
}

/// A rule left out of a library's results must be left out by the library's own documentation: every `outOfScope`
/// entry of an adapter cites the pinned library's docs or code as `(library: FILE:LINE[-LINE], ...)`, and each cited
/// file exists in the installed package with the cited lines in it (or the entry cites an https URL).
@Suite struct OutOfScopeCitationTests {
    @Test func everyExclusionCitesTheLibrarysOwnDocumentation() throws {
        let python = try PythonEnvironment.python(venv: ThirdPartyAcceptanceTests.root.appendingPathComponent(".build/adapters-venv"),
                                                  requirements: ThirdPartyAcceptanceTests.root.appendingPathComponent("scripts/adapters/requirements.txt"))
        let venv = python.deletingLastPathComponent().deletingLastPathComponent()
        let lib = venv.appendingPathComponent("lib")
        let sitePackages = try #require(try FileManager.default.contentsOfDirectory(atPath: lib.path).first { $0.hasPrefix("python3") })
        let packages = lib.appendingPathComponent(sitePackages).appendingPathComponent("site-packages")
        let adapters = ThirdPartyAcceptanceTests.root.appendingPathComponent("scripts/adapters")
        let names = try FileManager.default.contentsOfDirectory(atPath: adapters.path).filter {
            FileManager.default.fileExists(atPath: adapters.appendingPathComponent("\($0)/adapter.json").path)
        }
        #expect(names.count >= 3)
        let citation = try Regex(#"\(library: ([^()]+)\)"#)
        var checked = 0
        for name in names.sorted() {
            let data = try Data(contentsOf: adapters.appendingPathComponent("\(name)/adapter.json"))
            let adapter = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var excluded = adapter["outOfScope"] as? [String: String] ?? [:]
            // A library judged by a WebAuthn level says so in its own documentation, and the cited line names that
            // level's Recommendation.
            let profiles = adapter["profiles"] as? [String] ?? []
            if let judged = profiles.first(where: { $0 == "webauthn-l2" || $0 == "webauthn-l3" }) {
                let recommendation = judged == "webauthn-l2" ? "www.w3.org/TR/webauthn-2" : "www.w3.org/TR/webauthn-3"
                let level = adapter["documentedLevel"] as? String
                #expect(level?.contains("(library: ") == true, "\(name) is judged by \(judged) without citing the level it documents")
                if let location = level?.firstMatch(of: citation)?.output[1].substring.map(String.init),
                   let file = location.split(separator: ":").first,
                   let line = location.split(separator: ":").last.flatMap({ Int($0) }),
                   let text = try? String(contentsOf: packages.appendingPathComponent(String(file)), encoding: .utf8) {
                    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                    #expect(line <= lines.count && lines[line - 1].contains(recommendation), "\(name): \(location) does not name \(judged)'s Recommendation")
                } else {
                    Issue.record("\(name): the documentedLevel citation does not resolve to a file and line of the installed package")
                }
                excluded["(documented level)"] = level
            }
            for (rule, reason) in excluded.sorted(by: { $0.key < $1.key }) {
                guard let match = reason.firstMatch(of: citation), let cited = match.output[1].substring else {
                    #expect(reason.contains("https://"), "\(name) \(rule): no citation of the library's documentation in \"\(reason)\"")
                    continue
                }
                for reference in cited.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    // FILE:LINE or FILE:LINE-LINE, then optionally words naming what is there.
                    let location = reference.split(separator: " ").first.map(String.init) ?? reference
                    let parts = location.split(separator: ":")
                    guard parts.count == 2, let last = parts[1].split(separator: "-").last.flatMap({ Int($0) }) else {
                        Issue.record("\(name) \(rule): \"\(reference)\" is not FILE:LINE")
                        continue
                    }
                    let file = packages.appendingPathComponent(String(parts[0]))
                    let text = try? String(contentsOf: file, encoding: .utf8)
                    #expect(text != nil, "\(name) \(rule): \(parts[0]) is not in the installed package")
                    let lines = text?.split(separator: "\n", omittingEmptySubsequences: false).count ?? 0
                    #expect(lines >= last, "\(name) \(rule): \(parts[0]) has \(lines) lines, the citation reaches \(last)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 20)
    }
}

/// Every confirmed library bug in docs/results.md points at the library's own code: the cited file of the pinned
/// package exists, holds the cited lines, and the cited lines hold the code the entry quotes.
@Suite struct ConfirmedBugCitationTests {
    @Test func everyConfirmedBugCitesCodeThatIsThere() throws {
        let python = try PythonEnvironment.python(venv: ThirdPartyAcceptanceTests.root.appendingPathComponent(".build/adapters-venv"),
                                                  requirements: ThirdPartyAcceptanceTests.root.appendingPathComponent("scripts/adapters/requirements.txt"))
        let lib = python.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib")
        let version = try #require(try FileManager.default.contentsOfDirectory(atPath: lib.path).first { $0.hasPrefix("python3") })
        let packages = lib.appendingPathComponent(version).appendingPathComponent("site-packages")
        let data = try Data(contentsOf: ThirdPartyAcceptanceTests.root.appendingPathComponent("scripts/adapters/confirmed-bugs.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let bugs = try #require(document["bugs"] as? [[String: Any]])
        #expect(bugs.count >= 5)
        let results = try String(contentsOf: ThirdPartyAcceptanceTests.root.appendingPathComponent("docs/results.md"), encoding: .utf8)
        for bug in bugs {
            let cite = try #require(bug["cite"] as? String), excerpt = try #require(bug["excerpt"] as? String)
            let cases = try #require(bug["cases"] as? [String], "\(cite) lists no cases")
            #expect(!cases.isEmpty && (bug["what"] as? String)?.isEmpty == false, "\(cite)")
            let parts = cite.split(separator: ":")
            try #require(parts.count == 2, "\(cite) is not FILE:LINE[-LINE]")
            let range = parts[1].split(separator: "-").compactMap { Int($0) }
            let first = try #require(range.first), last = range.last ?? first
            let text = try String(contentsOf: packages.appendingPathComponent(String(parts[0])), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            try #require(first >= 1 && last <= lines.count && first <= last, "\(cite): the file has \(lines.count) lines")
            let cited = lines[(first - 1)...(last - 1)].joined(separator: "\n")
            #expect(cited.contains(excerpt), "\(cite) does not hold \"\(excerpt)\"")
            #expect(results.contains("`\(cite)`"), "docs/results.md does not list \(cite) (run scripts/compare)")
        }
    }
}

/// docs/results.md is a list a maintainer can act on: every finding and crash it reports in a library carries the
/// cause read in that library's code (`(cause: FILE:LINE)`, from scripts/adapters/confirmed-bugs.json, whose entries
/// ConfirmedBugCitationTests checks against the installed packages), and no finding waits with its cause unread.
@Suite struct FindingCauseTests {
    @Test func everyFindingAndCrashOfTheResultsNamesItsCause() throws {
        let results = try String(contentsOf: ThirdPartyAcceptanceTests.root.appendingPathComponent("docs/results.md"), encoding: .utf8)
        let data = try Data(contentsOf: ThirdPartyAcceptanceTests.root.appendingPathComponent("scripts/adapters/confirmed-bugs.json"))
        let bugs = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["bugs"] as? [[String: Any]])
        let cites = Set(bugs.compactMap { $0["cite"] as? String })
        var failing = 0
        for line in results.split(separator: "\n") where line.hasPrefix("| `") && (line.contains("**finding**") || line.contains("**crash**")) {
            failing += 1
            guard let range = line.range(of: "(cause: `") else {
                Issue.record("no cause: \(line.prefix(160))")
                continue
            }
            let cite = line[range.upperBound...].prefix { $0 != "`" }
            #expect(cites.contains(String(cite)), "\(cite) is not an entry of confirmed-bugs.json")
        }
        #expect(failing >= 100, "\(failing) finding and crash rows")
        #expect(!results.contains("Findings whose cause is not yet read"))
        // A case id an entry lists is one the catalogue has (or a hunt cluster, described in words).
        let listed = try CommandLineTests.run("list", "--format", "json")
        let ids = Set(((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
        #expect(ids.count > 400)
        for bug in bugs {
            for id in bug["cases"] as? [String] ?? [] where !id.contains(" ") { #expect(ids.contains(id), "\(id) is no catalogue case") }
        }
    }
}
