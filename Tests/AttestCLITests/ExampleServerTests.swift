import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestVerifiers
import Foundation
import Testing

/// A map written from scratch as a user would: `Examples/PythonWebAuthnServer` is a py_webauthn server with its own
/// routes, JSON and cookie sessions (installed from PyPI into a virtualenv under .build), and its `api-map.json`
/// shares nothing with ours but the format. The whole webauthn-l2 profile runs through that map against that
/// server, and its findings are py_webauthn's known results in docs/results.md (written by scripts/compare from the
/// library's exec adapter), except where the server's own code does what the adapter leaves to its caller: it keeps
/// each challenge in the client's session and uses it once.
@Suite(.serialized) struct ExampleServerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let example = root.appendingPathComponent("Examples/PythonWebAuthnServer")
    /// The rules the example's own code handles (the adapter's outOfScope says the caller must): it keeps each
    /// challenge in the client's session, uses it once, and looks the credential up by the id the client sent.
    static let handledByTheServer: Set<RuleID> = [.webAuthnChallengeSession, .webAuthnChallengeSingleUse, .webAuthnCredential]

    /// The virtualenv's python, made and filled from the example's pinned requirements when missing.
    static func python() throws -> URL {
        try PythonEnvironment.python(venv: root.appendingPathComponent(".build/example-server-venv"),
                                     requirements: example.appendingPathComponent("requirements.txt"))
    }

    /// The case ids whose py_webauthn cell in docs/results.md is a disagreement: not "ok" (a pass, whatever backs it),
    /// and not a crash inside the library, which the example server answers with a 400 like any exception it
    /// catches. Rows of rules where every case agrees are not listed there.
    static func knownDisagreements(library: String) throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("docs/results.md"), encoding: .utf8)
        var column: Int?
        var ids = Set<String>()
        for line in text.split(separator: "\n").map(String.init) {
            let cells = line.replacingOccurrences(of: "\\|", with: "¦").split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("| case |") { column = cells.firstIndex(of: library) }
            guard line.hasPrefix("| `"), let column, column < cells.count else { continue }
            if !cells[column].hasPrefix("ok"), !cells[column].hasPrefix("**crash**") {
                ids.insert(cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
            }
        }
        return ids
    }

    @Test func theWebAuthnProfileThroughTheExampleMapFindsWhatTheLibraryIsKnownFor() async throws {
        let python = try Self.python()
        // py_webauthn documents WebAuthn Level 2, and docs/results.md judges it by that level.
        let profile = Profile.webAuthnL2
        // The server is configured once, from the profile: cases that configure the relying party themselves (a
        // metadata BLOB, which it has no place for; an attestation policy of their own) are left out.
        let allCases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let cases = allCases.filter {
            BuiltinCatalogue.perCaseConfiguration(family: $0.family, parameters: $0.context.parameters, profile: profile.parameters).isEmpty
        }
        #expect(cases.count < allCases.count)
        let context = try #require(cases.first?.context)
        let parameters = context.parameters
        let config: [String: Any] = [
            "rpId": parameters["rpId"] ?? "", "rpName": "attest-harness example",
            "origins": (parameters["origins"] ?? "").split(separator: ",").map(String.init),
            "algorithms": (parameters["algorithms"] ?? "").split(separator: ",").compactMap { Int($0) },
            "userVerification": parameters["userVerification"] ?? "preferred", "attestation": parameters["attestation"] ?? "none",
            "trustAnchors": context.trustAnchors,
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("example-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configFile = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: config).write(to: configFile)

        let server = try ServerProcess(python, [Self.example.appendingPathComponent("server.py").path, "--config", configFile.path,
                                                "--port", "0"])
        defer { server.stop() }
        let line = server.firstLine
        let url = try #require(URL(string: String(line.dropFirst("listening on ".count))), "the server said \(line)")

        let map = try APIMap.load(contentsOf: Self.example.appendingPathComponent("api-map.json"))
        try MapDriver.validate(map)
        let driver = MapDriver(map: map, transport: HTTPMapTransport(baseURL: url, timeout: 30), seed: 1)
        let report = await Runner(profile: profile, verifier: driver).run(cases, seed: 1)

        #expect(report.errors.isEmpty, "\(report.errors.map(\.summary))")
        // Only what the map can deliver is compared: a step kind it has no route for (a credential deletion), or
        // assertion options of the case's own (allowCredentials), are unsupported through any map.
        let deliverable = cases.filter { (try? driver.undeliverable($0, profile: profile)) == .some(nil) }
        let deliverableIds = Set(deliverable.map(\.id))
        #expect(deliverable.count < cases.count)
        #expect(report.results.filter { !deliverableIds.contains($0.caseId) }.allSatisfy { $0.status == .unsupported })
        let known = try Self.knownDisagreements(library: "py_webauthn").intersection(deliverableIds)
        #expect(!known.isEmpty)
        let handled = Set(deliverable.filter { $0.rule.map(Self.handledByTheServer.contains) ?? false }.map(\.id))
        #expect(!handled.isEmpty)
        let found = Set(report.results.filter { $0.status != .pass && deliverableIds.contains($0.caseId) }.map(\.caseId))
        #expect(found == known.subtracting(handled), "found but not known: \(found.subtracting(known).sorted()); known but not found: \(known.subtracting(handled).subtracting(found).sorted())")
        // py_webauthn accepts the forged fido-u2f, tpm and android-safetynet registrations: the forge is right, not
        // only self-consistent.
        for id in ["webauthn.valid.fido-u2f", "webauthn.valid.tpm", "webauthn.valid.tpm-ecc", "webauthn.valid.android-safetynet"] {
            #expect(report.results.first { $0.caseId == id }?.status == .pass, "\(id)")
        }
        // The session-binding and reused-challenge cases ran live and the server's sessions refused them.
        for id in handled { #expect(report.results.first { $0.caseId == id }?.status == .pass, "\(id)") }
    }
}
