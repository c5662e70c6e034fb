import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestEvidence
import Foundation
import AttestServer
import Testing
import AttestVerifiers

/// Each shipped API map end to end against `serve`'s emulation of the same map on loopback: the ceremony with
/// server-issued challenges (and ids, users, tokens) agrees with the catalogue on every case of the map's family
/// (but the cases the API has no route for), documented statuses come back through the map, and a server with one
/// injected bug (the reference verifier without one rule) is caught by exactly that rule's case (on a sample).
@Suite struct APIMapLiveTests {
    static let apis = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("apis")

    static func map(_ name: String) throws -> APIMap {
        let map = try APIMap.load(contentsOf: apis.appendingPathComponent("\(name).json"))
        try MapDriver.validate(map)
        return map
    }

    struct API: Sendable {
        let profile: String
        let sample: [String]
        let injectedBug: RuleID
        let caughtBy: String
        /// Statuses the server answers that must come back through the driver.
        var statuses: [String: String] = [:]
        /// Cases with a step kind the API has no route for: unsupported with that reason (documented in the map's
        /// description), never a harness error.
        var noRoute: Set<String> = []
    }

    static let shipped: [String: API] = [
        "civiq": API(profile: "per-request-device-attestation",
                     sample: ["request.valid.ios", "request.valid.android", "request.binding.path.other-endpoint",
                              "request.accountToken.expired-account-token", "request.sessionToken.known.unknown"],
                     injectedBug: .requestPath, caughtBy: "request.binding.path.other-endpoint",
                     statuses: ["request.accountToken.expired-account-token": "401"]),
        "striga": API(profile: "device-bound-passkey-import",
                      sample: ["import.valid.ios", "import.valid.android", "import.challenge.known.replayed",
                               "import.challenge.consumedOnFailure.retry-after-failure", "import.proof.signature.other-key"],
                      injectedBug: .importChallengeConsumedOnFailure, caughtBy: "import.challenge.consumedOnFailure.retry-after-failure",
                      statuses: ["import.proof.signature.other-key": "100012 PROOF"],
                      noRoute: ["import.passkeyCap.fifth-registered-before-complete", "import.credentialId.unique.ordinary-passkey"]),
        "fido": API(profile: "webauthn-l3",
                    sample: ["webauthn.valid.packed", "webauthn.valid.apple-synced-counter-zero", "webauthn.signCount.nonzero-then-zero",
                             "webauthn.assertion.owner.other-user", "webauthn.credentialId.unique.second-registration"],
                    injectedBug: .webAuthnSignCount, caughtBy: "webauthn.signCount.nonzero-then-zero",
                    noRoute: ["webauthn.assertion.credential.deleted"]),
    ]

    static func run(_ name: String, _ api: API, everyCase: Bool = false, serverProfile: (Profile) -> Profile) async throws -> RunReport {
        let profile = try #require(BuiltinCatalogue.profile(named: api.profile))
        let map = try Self.map(name)
        let server = try VerdictServer(profile: serverProfile(profile), api: map, seed: 1)
        defer { server.stop() }
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
            .filter { everyCase ? $0.family == map.family : api.sample.contains($0.id) }
        #expect(everyCase || cases.count == api.sample.count)
        let transport = HTTPMapTransport(baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), timeout: 20)
        let driver = MapDriver(map: map, transport: transport, seed: 1, environment: ["ATTEST_HARNESS_AUTHORIZATION": "test"])
        return await Runner(profile: profile, verifier: driver).run(cases, seed: 1)
    }

    @Test(arguments: shipped.keys.sorted())
    func liveCeremonyAgreesWithTheCatalogue(api: String) async throws {
        let entry = try #require(Self.shipped[api])
        let report = try await Self.run(api, entry, everyCase: true) { $0 }
        #expect(report.results.count > 30)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.summary))")
        // Cases that configure the relying party themselves (webauthn's metadata BLOB) cannot run against a server
        // configured once, nor can cases whose fault lives in the credential's JSON envelope when the map builds its
        // own envelope from the other inputs (fido.json does), nor cases whose assertion options are the case's own
        // (allowCredentials: a server writes its own): they, and only they, are unsupported.
        let profile = try #require(BuiltinCatalogue.profile(named: entry.profile))
        let carried = Set(BuiltinCatalogue.rules.filter { !$0.carriedBy.isEmpty }.map(\.id))
        let undeliverable = Set(try BuiltinCatalogue.cases(for: profile, seed: 1).filter {
            !BuiltinCatalogue.perCaseConfiguration(family: $0.family, parameters: $0.context.parameters, profile: profile.parameters).isEmpty
                || $0.rule.map(carried.contains) == true || $0.steps.contains { $0.inputs[.allowCredentials] != nil }
        }.map(\.id))
        #expect(Set(report.unsupported.map(\.caseId)) == undeliverable.union(entry.noRoute))
        #expect(api != "fido" || undeliverable.count >= 40)
        #expect(report.errors.isEmpty, "\(report.errors.map(\.summary))")
        for id in entry.noRoute {
            #expect(report.results.first { $0.caseId == id }?.message?.contains("has no route for that step kind") == true)
        }
        for (caseId, status) in entry.statuses {
            #expect(report.results.first { $0.caseId == caseId }?.actual?.status == status)
        }
    }

    @Test(arguments: shipped.keys.sorted())
    func anInjectedServerBugIsCaught(api: String) async throws {
        let entry = try #require(Self.shipped[api])
        let report = try await Self.run(api, entry) { $0.without(entry.injectedBug) }
        #expect(report.findings.map(\.caseId) == [entry.caughtBy])
    }

    /// Every map we ship (apis/, and the py_webauthn example and the two Django sites under Examples/), against its
    /// own emulation on loopback (what `serve --api MAP` answers) under its profile, derived from its stated policy
    /// where it has one: every case of its family passes or is left unsupported with its reason (no finding, no
    /// error; logins, sign-ups, CSRF and state tokens and credential JSON all emulated), at --jobs 4 where the map's
    /// accounts allow it; and the in-process emulation `--dry-run` answers with, one case at a time, agrees case by
    /// case.
    static let shippedMaps: [(path: String, profile: String)] = [
        ("apis/fido.json", "webauthn-l3"), ("apis/civiq.json", "per-request-device-attestation"),
        ("apis/striga.json", "device-bound-passkey-import"), ("Examples/PythonWebAuthnServer/api-map.json", "webauthn-l3"),
        ("Examples/DeployedServers/django-passkeys/api-map.json", "webauthn-l3"),
        ("Examples/DeployedServers/django-otp-webauthn/api-map.json", "webauthn-l3"),
    ]

    @Test(arguments: shippedMaps.indices)
    func everyShippedMapPassesAgainstItsOwnEmulation(index: Int) async throws {
        let (path, profileName) = Self.shippedMaps[index]
        let map = try APIMap.load(contentsOf: Self.apis.deletingLastPathComponent().appendingPathComponent(path))
        try MapDriver.validate(map)
        let base = try #require(BuiltinCatalogue.profile(named: profileName))
        let profile = try map.policy.map { try BuiltinCatalogue.profile(base, following: $0.stated, family: map.family) } ?? base
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { $0.family == map.family }
        let environment = ["ATTEST_SITE_PASSWORD": "emulated password", "ATTEST_HARNESS_AUTHORIZATION": "test"]
        let server = try VerdictServer(profile: profile, api: map, seed: 1)
        defer { server.stop() }
        let transport = HTTPMapTransport(baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), timeout: 20)
        // Side by side where the map allows it (fresh accounts per simulated user), one at a time otherwise.
        let driver = MapDriver(map: map, transport: transport, seed: 1, environment: environment)
        #expect(driver.concurrentCaseLimit == (map.accounts == nil ? 1 : map.accounts?.pool.map { max(1, $0.count / 2) }), "\(path)")
        let live = await Runner(profile: profile, verifier: driver).run(cases, seed: 1, jobs: 4)
        #expect(live.findings.isEmpty, "\(path): \(live.findings.map(\.summary))")
        #expect(live.errors.isEmpty, "\(path): \(live.errors.map(\.summary))")
        #expect(live.results.filter { $0.status == .pass }.count > 30, "\(path)")
        let dry = await Runner(profile: profile, verifier: MapDriver(map: map, transport: try InProcessMapServer(map: map, profile: profile, seed: 1, name: "http://localhost"),
                                                                     seed: 1, environment: environment)).run(cases, seed: 1)
        let statuses = { (report: RunReport) in Dictionary(report.results.map { ($0.caseId, $0.status) }, uniquingKeysWith: { first, _ in first }) }
        #expect(statuses(dry) == statuses(live), "\(path)")
    }

    /// The command line end to end: `attest-harness serve --api apis/civiq.json` as a child process, driven by
    /// `attest-harness run --verifier http://... --api apis/civiq.json` as another.
    @Test func serveAndRunAsProcesses() throws {
        let server = try ServerProcess(CommandLineTests.binary, ["serve", "--profile", "per-request-device-attestation", "--port", "0",
                                                                 "--api", Self.apis.appendingPathComponent("civiq.json").path])
        defer { server.stop() }
        let url = server.firstLine
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let result = try CommandLineTests.run("run", "--profile", "per-request-device-attestation", "--verifier", url,
                                              "--api", Self.apis.appendingPathComponent("civiq.json").path, "--filter", "request.valid.*")
        #expect(result.status == 0, "\(result.stdout.suffix(300))")
        #expect(result.stdout.contains("2 cases: 2 passed, 0 findings, 0 errors"))
    }

    /// `profile show NAME` prints each built-in profile as a file that, given back as `--profile`, expects what the
    /// built-in one does; `profile derive` asks a site (here the django-passkeys map's emulation) for its options and
    /// writes the profile a run through its map judges by, which lists the same cases with the same expectations.
    @Test func profileShowRoundTripsAndDeriveWritesTheSitesProfile() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("profile.json").path
        for profile in BuiltinCatalogue.profiles.map(\.name) {
            #expect(try CommandLineTests.run("profile", "show", profile, "--out", file).status == 0)
            let shown = try CommandLineTests.run("list", "--profile", file, "--format", "json")
            let builtin = try CommandLineTests.run("list", "--profile", profile, "--format", "json")
            #expect(shown.status == 0 && shown.stdout == builtin.stdout, "\(profile)")
        }
        let map = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/DeployedServers/django-passkeys/api-map.json").path
        let server = try ServerProcess(CommandLineTests.binary, ["serve", "--profile", "webauthn-l3", "--port", "0", "--api", map])
        defer { server.stop() }
        let derived = try CommandLineTests.launch(CommandLineTests.binary, ["profile", "derive", "--api", map, "--verifier", server.firstLine, "--out", file],
                                                  environment: ["ATTEST_SITE_PASSWORD": "pw"])
        #expect(derived.status == 0, "\(derived.stderr)")
        let profile = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        #expect(profile?["name"] as? String == "webauthn-l3+site")
        #expect((profile?["parameters"] as? [String: String])?["attestation"] == "none")
        #expect((profile?["leftToRelyingParty"] as? [String])?.contains("webauthn.attestation.signature") == true)
        let again = try CommandLineTests.run("list", "--profile", file, "--format", "json")
        #expect(again.status == 0, "\(again.stderr)")
        let sited = try CommandLineTests.run("list", "--profile", "webauthn-l3", "--api", map, "--format", "json")
        func expectations(_ text: String) throws -> [String: String] {
            let entries = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: entries.compactMap { entry in
                (entry["id"] as? String).map { ($0, entry["expected"] as? String ?? "") }
            })
        }
        let fromFile = try expectations(again.stdout), fromMap = try expectations(sited.stdout)
        #expect(fromFile["webauthn.valid.none"] == "accept" && fromFile.count > 200)
        #expect(fromFile == fromMap)
    }

    /// A finding through an API map carries the case's requests as curl lines, rendered from the map, so that a
    /// team replays exactly what the harness sent.
    @Test func findingsThroughAMapCarryTheirRequests() throws {
        let civiq = Self.apis.appendingPathComponent("civiq.json").path
        let server = try ServerProcess(CommandLineTests.binary, ["serve", "--profile", "per-request-device-attestation", "--port", "0",
                                                                 "--api", civiq, "--without", "request.binding.path"])
        defer { server.stop() }
        let url = server.firstLine
        let result = try CommandLineTests.run("run", "--profile", "per-request-device-attestation", "--verifier", url,
                                              "--api", civiq, "--filter", "request.binding.path.*", "--format", "json")
        #expect(result.status == 1, "\(result.stderr)")
        let report = try RunReport.decode(Data(result.stdout.utf8))
        let finding = try #require(report.findings.first)
        let requests = try #require(finding.requests)
        #expect(requests.count >= 2, "\(requests)")
        #expect(requests.allSatisfy { $0.hasPrefix("curl -X ") && $0.contains("'\(url)/") }, "\(requests)")
        #expect(finding.reproduce?.last?.contains("--api \(civiq)") == true, "\(finding.reproduce ?? [])")
    }
}
