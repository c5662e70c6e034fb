import AttestCatalogue
import AttestConformance
import AttestEvidence
import Foundation
import AttestServer
import Testing
import AttestVerifiers

/// Each live driver end to end against `serve`'s emulation of its API on loopback: the ceremony with
/// server-issued challenges (and ids, users, tokens) agrees with the catalogue on a sample of cases, documented
/// statuses come back through the driver, and a server with one injected bug (the reference verifier without one
/// rule) is caught by exactly that rule's case.
@Suite struct LiveDriverTests {
    struct API: Sendable {
        let profile: String
        let serve: @Sendable (Profile) throws -> VerdictServer
        let driver: @Sendable (URL) -> any AttestationVerifier
        let sample: [String]
        let injectedBug: RuleID
        let caughtBy: String
        /// Statuses the server answers that must come back through the driver.
        var statuses: [String: String] = [:]
    }

    static let apis: [String: API] = [
        "civiq": API(profile: "per-request-device-attestation", serve: { try VerdictServer(profile: $0, civiqSeed: 1) },
                     driver: { CiviqDriver(baseURL: $0, seed: 1) },
                     sample: ["request.valid.ios", "request.valid.android", "request.binding.path.other-endpoint",
                              "request.accountToken.expired-account-token", "request.sessionToken.known.unknown"],
                     injectedBug: .requestPath, caughtBy: "request.binding.path.other-endpoint",
                     statuses: ["request.accountToken.expired-account-token": "401"]),
        "striga": API(profile: "device-bound-passkey-import", serve: { try VerdictServer(profile: $0, strigaSeed: 1) },
                      driver: { StrigaDriver(baseURL: $0, seed: 1, timeout: 20, authorization: "test") },
                      sample: ["import.valid.ios", "import.valid.android", "import.challenge.known.replayed",
                               "import.challenge.consumedOnFailure.retry-after-failure", "import.proof.signature.other-key"],
                      injectedBug: .importChallengeConsumedOnFailure, caughtBy: "import.challenge.consumedOnFailure.retry-after-failure",
                      statuses: ["import.proof.signature.other-key": "100012 PROOF"]),
        "fido": API(profile: "webauthn-l3", serve: { try VerdictServer(profile: $0, fidoSeed: 1) },
                    driver: { FidoDriver(baseURL: $0, seed: 1) },
                    sample: ["webauthn.valid.packed", "webauthn.valid.apple-synced-counter-zero", "webauthn.signCount.nonzero-then-zero",
                             "webauthn.assertion.owner.other-user", "webauthn.credentialId.unique.second-registration"],
                    injectedBug: .webAuthnSignCount, caughtBy: "webauthn.signCount.nonzero-then-zero"),
    ]

    static func run(_ api: API, serverProfile: (Profile) -> Profile) async throws -> RunReport {
        let profile = try #require(BuiltinCatalogue.profile(named: api.profile))
        let server = try api.serve(serverProfile(profile))
        defer { server.stop() }
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { api.sample.contains($0.id) }
        #expect(cases.count == api.sample.count)
        return await Runner(profile: profile, verifier: api.driver(URL(string: "http://127.0.0.1:\(server.port)")!)).run(cases, seed: 1)
    }

    @Test(arguments: apis.keys.sorted())
    func liveCeremonyAgreesWithTheCatalogue(api: String) async throws {
        let entry = Self.apis[api]!
        let report = try await Self.run(entry) { $0 }
        #expect(report.exitCode == 0, "\(report.results.filter { $0.status != .pass }.map(\.summary))")
        for (caseId, status) in entry.statuses {
            #expect(report.results.first { $0.caseId == caseId }?.actual?.status == status)
        }
    }

    @Test(arguments: apis.keys.sorted())
    func anInjectedServerBugIsCaught(api: String) async throws {
        let entry = Self.apis[api]!
        let report = try await Self.run(entry) { $0.without(entry.injectedBug) }
        #expect(report.findings.map(\.caseId) == [entry.caughtBy])
    }

    /// The command line end to end: `attest-harness serve --api civiq` as a child process, driven by
    /// `attest-harness run --verifier civiq+http://...` as another.
    @Test func serveAndRunAsProcesses() throws {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["serve", "--profile", "per-request-device-attestation", "--port", "0", "--api", "civiq"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let url = HTTPVerifierTests.firstLine(out)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let result = try CommandLineTests.run("run", "--profile", "per-request-device-attestation", "--verifier", "civiq+" + url,
                                              "--filter", "request.valid.*")
        #expect(result.status == 0, "\(result.stdout.suffix(300))")
        #expect(result.stdout.contains("2 cases: 2 passed, 0 findings, 0 errors"))
    }
}
