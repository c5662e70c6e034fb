import Catalogue
import Conformance
import Foundation
import Server
import Testing
import Verifiers

/// The civiq+http driver end to end against `serve`'s Civiq-style emulation on loopback: the live ceremony
/// (server-issued challenges, re-forged evidence, server-issued session tokens) agrees with the catalogue, and an
/// injected server bug, a server that does not bind the path, is caught.
@Suite struct CiviqDriverTests {
    static let profile = BuiltinCatalogue.profile(named: "per-request-device-attestation")!
    static let selected = ["request.valid.ios", "request.valid.android", "request.binding.path.other-endpoint",
                           "request.accountToken.expired-account-token", "request.sessionToken.known.unknown"]

    static func run(serverProfile: Profile) throws -> RunReport {
        let server = try VerdictServer(profile: serverProfile, civiqSeed: 1)
        defer { server.stop() }
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { selected.contains($0.id) }
        #expect(cases.count == selected.count)
        let driver = CiviqDriver(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, seed: 1, timeout: 10)
        return Runner(profile: profile, verifier: driver).run(cases, seed: 1)
    }

    @Test func liveCeremonyAgreesWithTheCatalogue() throws {
        let report = try Self.run(serverProfile: Self.profile)
        #expect(report.exitCode == 0, "\(report.results.filter { $0.status != .pass }.map(\.summary))")
        // The 401 of the account-token case came back as an HTTP status.
        #expect(report.results.first { $0.caseId == "request.accountToken.expired-account-token" }?.actual?.status == "401")
    }

    @Test func aServerThatDoesNotBindThePathIsCaught() throws {
        let report = try Self.run(serverProfile: Self.profile.without(.requestPath))
        #expect(report.findings.map(\.caseId) == ["request.binding.path.other-endpoint"])
    }
}
