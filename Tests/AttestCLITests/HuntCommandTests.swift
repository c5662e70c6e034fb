import Foundation
import Testing

/// `hunt` end to end: a bounded hunt of the reference against a mutant with its origin rule removed writes a
/// resumable directory whose clusters point at the origin, `hunt report` renders them, and `run --cases` replays a
/// cluster's suite with the same disagreement (the reference passes it, the mutant has the finding).
@Suite struct HuntCommandTests {
    @Test func aHuntFindsTheRemovedRuleAndItsClustersReplay() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("hunt").path
        let arguments = ["hunt", "--verifier", "builtin:reference", "--verifier", "builtin:reference-without:webauthn.clientData.origin",
                         "--profile", "webauthn-l3", "--out", out, "--mutants", "300", "--quiet"]
        let first = try CommandLineTests.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("clientDataJSON.origin"))
        let state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/hunt.json"))) as? [String: Any])
        let tried = try #require(state["mutantsTried"] as? Int)
        #expect(tried >= 300)
        // Resumed, not restarted.
        let second = try CommandLineTests.run(arguments)
        #expect(second.status == 0)
        let resumed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/hunt.json"))) as? [String: Any])
        #expect((resumed["mutantsTried"] as? Int ?? 0) >= tried + 300)
        // Another configuration in the same directory is refused.
        let other = try CommandLineTests.run(["hunt", "--verifier", "builtin:reference", "--verifier", "builtin:reference",
                                              "--profile", "webauthn-l3", "--out", out, "--mutants", "10"])
        #expect(other.status == 2)

        let report = try CommandLineTests.run(["hunt", "report", out, "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let clusters = try #require(document["clusters"] as? [[String: Any]])
        #expect(!clusters.isEmpty)
        #expect(clusters.allSatisfy { ($0["field"] as? String)?.hasSuffix("clientDataJSON.origin") == true })
        // The triage page: every cluster, each with its decoded evidence against the valid case, the origin shown
        // as the value that changed.
        let page = try CommandLineTests.run(["hunt", "report", out, "--format", "html"])
        #expect(page.status == 0, "\(page.stderr)")
        for cluster in clusters {
            let id = try #require(cluster["id"] as? String)
            #expect(page.stdout.contains("<h3><code>\(id)</code>"), "\(id) has no section")
        }
        #expect(page.stdout.components(separatedBy: #"<ul class="tree diff">"#).count - 1 == clusters.count, "one evidence diff per cluster")
        #expect(page.stdout.contains(#"<span class="key">origin</span> <del class="value">https://"#), "the origin is a changed value")
        #expect(page.stdout.contains(#"content="default-src 'none'"#) && !page.stdout.contains("<script src"))
        let suite = out + "/" + (try #require(clusters.first?["suite"] as? String))
        let reference = try CommandLineTests.run(["run", "--cases", suite, "--profile", "webauthn-l3", "--verifier", "builtin:reference", "--quiet"])
        #expect(reference.status == 0, "\(reference.stdout)")
        let mutant = try CommandLineTests.run(["run", "--cases", suite, "--profile", "webauthn-l3", "--quiet",
                                               "--verifier", "builtin:reference-without:webauthn.clientData.origin"])
        #expect(mutant.status == 1, "\(mutant.stdout)")
        #expect(mutant.stdout.contains("1 finding"))
        // The finding's reproduce line replays it from the suite file (forge cannot make a hunt's mutant), and does
        // (a cluster id's `~` is quoted for the shell).
        let id = try #require(clusters.first?["id"] as? String)
        #expect(mutant.stdout.contains("reproduce: attest-harness run --verifier builtin:reference-without:webauthn.clientData.origin --profile webauthn-l3 --cases '\(suite)' --filter 'hunt.\(id)'"),
                "\(mutant.stdout)")
        #expect(!mutant.stdout.contains("forge --case hunt."), "\(mutant.stdout)")
        let alone = try CommandLineTests.run(["run", "--verifier", "builtin:reference-without:webauthn.clientData.origin", "--profile", "webauthn-l3",
                                              "--cases", suite, "--filter", "hunt.\(id)", "--quiet"])
        #expect(alone.status == 1 && alone.stdout.contains("1 finding"), "\(alone.stdout)")
    }

    @Test(arguments: [["--time", "0s"], ["--time", "5x"], ["--shard", "2/2"], ["--mutants", "0"]])
    func badBudgetsAreUsageErrors(extra: [String]) throws {
        let result = try CommandLineTests.run(["hunt", "--verifier", "builtin:reference", "--verifier", "builtin:reference",
                                               "--profile", "webauthn-l3", "--out", "/tmp/attest-harness-hunt-never"] + extra)
        #expect(result.status == 2)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/attest-harness-hunt-never/hunt.json"))
    }

    /// A profile with no family a hunt mutates is refused in one line before any directory is made.
    @Test func aProfileWithNothingToHuntIsOneLine() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("hunt").path
        // Every built-in profile has a family to hunt, and so does every family; a user profile with none is refused
        // when it is read, before the hunt looks at it.
        let profile = directory.appendingPathComponent("empty.json")
        try Data(#"{"name": "empty", "description": "no family", "families": [], "rules": [], "parameters": {}}"#.utf8).write(to: profile)
        let result = try CommandLineTests.run(["hunt", "--verifier", "builtin:reference", "--verifier", "builtin:reference",
                                               "--profile", profile.path, "--out", out, "--mutants", "5"])
        #expect(result.status == 2)
        #expect(result.stderr == "attest-harness hunt: profile file \(profile.path) is not a valid profile: \"families\" is empty; families: app-attest, android-key, webauthn, passkey-import, per-request, step-up\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
