import Catalogue
import Conformance
import Foundation
import Server
import Testing
import Verifiers

/// The striga+http driver end to end against `serve`'s passkey import emulation on loopback: server-issued
/// challenges and challenge ids, fresh users and credential ids per case, the API's error codes as statuses; and an
/// injected server bug, a server that frees the challenge of a failed import, is caught.
@Suite struct StrigaDriverTests {
    static let profile = BuiltinCatalogue.profile(named: "device-bound-passkey-import")!
    static let selected = ["import.valid.ios", "import.valid.android", "import.challenge.known.replayed",
                           "import.challenge.consumedOnFailure.retry-after-failure", "import.proof.signature.other-key"]

    static func run(serverProfile: Profile) throws -> RunReport {
        let server = try VerdictServer(profile: serverProfile, strigaSeed: 1)
        defer { server.stop() }
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1).filter { selected.contains($0.id) }
        #expect(cases.count == selected.count)
        let driver = StrigaDriver(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, seed: 1, timeout: 20, authorization: "test")
        return Runner(profile: profile, verifier: driver).run(cases, seed: 1)
    }

    @Test func liveCeremonyAgreesWithTheCatalogue() throws {
        let report = try Self.run(serverProfile: Self.profile)
        #expect(report.exitCode == 0, "\(report.results.filter { $0.status != .pass }.map(\.summary))")
        #expect(report.results.first { $0.caseId == "import.proof.signature.other-key" }?.actual?.status == "100012 PROOF")
    }

    @Test func aServerThatFreesAFailedImportsChallengeIsCaught() throws {
        let report = try Self.run(serverProfile: Self.profile.without(.importChallengeConsumedOnFailure))
        #expect(report.findings.map(\.caseId) == ["import.challenge.consumedOnFailure.retry-after-failure"])
    }
}
