import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestServer
import AttestVerifiers
import Foundation
import Testing

/// The options checks: what a server issues in its options, judged over every options response a map run sees.
@Suite struct OptionsCheckTests {
    static let caseIds: Set<String> = ["webauthn.valid.packed", "webauthn.valid.none", "webauthn.valid.second-passkey"]

    static func cases() throws -> [Case] {
        try BuiltinCatalogue.cases(for: .webAuthnL3, seed: 1).filter { caseIds.contains($0.id) }
    }

    /// apis/fido.json against its own emulation (a site that issues 32-byte challenges and user ids, echoes the
    /// attestation preference and lists a user's credentials): every check is judged and met, each pass backed by
    /// what it observed; the second passkey's options are what excludeCredentials is judged on.
    @Test func theEmulationMeetsEveryCheck() async throws {
        let map = try APIMapLiveTests.map("fido")
        #expect(map.observesOptions)
        let driver = MapDriver(map: map, transport: try InProcessMapServer(map: map, profile: .webAuthnL3, seed: 1, name: "http://localhost"), seed: 1)
        let report = await Runner(profile: .webAuthnL3, verifier: driver).run(try Self.cases(), seed: 1)
        #expect(report.results.count == 3 && report.findings.isEmpty && report.errors.isEmpty, "\(report.results.map(\.summary))")
        // valid.none configures the relying party itself, which a map cannot: unsupported, and nothing sent.
        #expect(report.results.first { $0.caseId == "webauthn.valid.none" }?.status == .unsupported)
        let results = driver.optionsLog.results
        #expect(results.map(\.caseId) == OptionsCheck.allCases.map(\.caseId))
        for result in results {
            #expect(result.status == .pass && result.proof == .observed, "\(result.summary)")
            #expect(result.rule.map { rule in OptionsCheck.rules.contains { $0.id == rule } } == true)
        }
        let exclude = try #require(results.first { $0.rule == OptionsCheck.excludeCredentials.rule })
        #expect(exclude.message == "1 options response judged, every one meets it", "\(exclude.message ?? "")")
        // valid.packed's registration and two assertions, valid.second-passkey's two registrations and assertion.
        #expect(driver.optionsLog.all.map { "\($0.caseId) \($0.step)" } == ["webauthn.valid.packed 0", "webauthn.valid.packed 1", "webauthn.valid.packed 2",
                                                                           "webauthn.valid.second-passkey 0", "webauthn.valid.second-passkey 1",
                                                                           "webauthn.valid.second-passkey 2"])
    }

    /// Rewrites the emulation's options as a careless site would: registration options with a 65-byte user id, no
    /// excludeCredentials and attestation "enterprise" whatever was asked; assertion options with one 8-byte
    /// challenge for everyone and userVerification "discouraged".
    struct CarelessSite: MapTransport {
        let inner: InProcessMapServer
        var name: String { inner.name }
        static let userId = Base64URL.encode([UInt8](repeating: 7, count: 65))

        func send(_ request: RenderedRequest) async throws -> MapResponse {
            let response = try await inner.send(request)
            guard var json = response.json else { return response }
            switch request.target {
            case "/attestation/options":
                json = json.setting("/user/id", to: .string(Self.userId)).setting("/attestation", to: .string("enterprise"))
                    .setting("/excludeCredentials", to: .array([]))
            case "/assertion/options":
                json = json.setting("/challenge", to: .string(Base64URL.encode(Array("8 bytes!".utf8))))
                    .setting("/userVerification", to: .string("discouraged"))
            default:
                return response
            }
            return MapResponse(status: response.status, headers: response.headers, body: Array(json.serialized))
        }
    }

    @Test func aCarelessSiteBreaksEveryCheckAndTheFindingSaysWhere() async throws {
        let map = try APIMapLiveTests.map("fido")
        let inner = try InProcessMapServer(map: map, profile: .webAuthnL3, seed: 1, name: "http://localhost")
        let driver = MapDriver(map: map, transport: CarelessSite(inner: inner), seed: 1)
        _ = await Runner(profile: .webAuthnL3, verifier: driver).run(try Self.cases(), seed: 1)
        let results = Dictionary(uniqueKeysWithValues: driver.optionsLog.results.map { ($0.rule, $0) })
        for check in OptionsCheck.allCases {
            let result = try #require(results[check.rule])
            #expect(result.status == .finding && result.proof == nil, "\(result.summary)")
            #expect(result.summary.hasPrefix("\(check.caseId) [\(check.rule.rawValue)]: webauthn.valid."), "\(result.summary)")
        }
        #expect(results[OptionsCheck.challengeLength.rule]?.message?.hasSuffix("the challenge is 8 bytes") == true)
        #expect(results[OptionsCheck.challengeFresh.rule]?.message?.contains("was issued before to another session, by webauthn.valid.") == true)
        #expect(results[OptionsCheck.userIdLength.rule]?.message?.hasSuffix("user.id is 65 bytes") == true)
        #expect(results[OptionsCheck.excludeCredentials.rule]?.message?.contains("webauthn.valid.second-passkey step 1 (attestation options): excludeCredentials lists 0, leaving out 1 credential") == true,
                "\(results[OptionsCheck.excludeCredentials.rule]?.message ?? "")")
        #expect(results[OptionsCheck.userVerificationEcho.rule]?.message?.contains("the request asked for userVerification \"required\" and the options say \"discouraged\"") == true,
                "\(results[OptionsCheck.userVerificationEcho.rule]?.message ?? "")")
        #expect(results[OptionsCheck.attestationEcho.rule]?.message?.contains("the request asked for attestation \"direct\" and the options say \"enterprise\"") == true,
                "\(results[OptionsCheck.attestationEcho.rule]?.message ?? "")")
    }

    /// Nothing observed is never a pass: each check is unsupported and says why.
    @Test func nothingObservedIsUnsupported() {
        for result in OptionsCheck.results([]) {
            #expect(result.status == .unsupported && result.proof == nil && result.message?.isEmpty == false, "\(result.summary)")
        }
        // One response judges the length checks but not freshness, which needs two.
        let one = OptionsObservation(caseId: "c", session: "c main", step: 0, kind: StepKind.webAuthnAssertion, exchange: "options",
                                     options: .object(["challenge": .string(Base64URL.encode([UInt8](repeating: 1, count: 16)))]),
                                     requestBody: [], registered: [])
        let results = Dictionary(uniqueKeysWithValues: OptionsCheck.results([one]).map { ($0.rule, $0.status) })
        #expect(results[OptionsCheck.challengeLength.rule] == .pass)
        #expect(results[OptionsCheck.challengeFresh.rule] == .unsupported)
        #expect(results[OptionsCheck.userIdLength.rule] == .unsupported)
    }

    /// The command line end to end: `run --api apis/fido.json` against `serve --api` reports one result per check
    /// beside the cases' results, with the checks' rules, in the JSON report and in the console tally.
    @Test func runReportsTheChecksBesideTheCases() throws {
        let fido = APIMapLiveTests.apis.appendingPathComponent("fido.json").path
        let server = try ServerProcess(CommandLineTests.binary, ["serve", "--profile", "webauthn-l3", "--port", "0", "--api", fido])
        defer { server.stop() }
        let url = server.firstLine
        let json = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--verifier", url, "--api", fido,
                                            "--filter", "webauthn.valid.second-passkey", "--format", "json")
        #expect(json.status == 0, "\(json.stderr.suffix(500))")
        let report = try RunReport.decode(Data(json.stdout.utf8))
        let checks = report.results.filter { $0.caseId.hasPrefix("webauthn.options.") }
        #expect(checks.map(\.caseId) == OptionsCheck.allCases.map(\.caseId))
        #expect(checks.allSatisfy { $0.status == .pass && $0.proof == .observed }, "\(checks.map(\.summary))")
        #expect(Set(OptionsCheck.allCases.map(\.rule)).isSubset(of: Set(report.rules.map(\.id))))
        let console = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--verifier", url, "--api", fido,
                                               "--filter", "webauthn.valid.second-passkey")
        #expect(console.stdout.contains("1 case: 1 passed") && console.stdout.contains("; options checks: 6 passed, 0 findings, 0 unsupported"),
                "\(console.stdout.suffix(600))")
        #expect(checks.allSatisfy { $0.optionsCheck == true } && report.results.filter { $0.optionsCheck == true }.count == 6)
        // Each pass says how many responses back it; a check that judged nothing is never headed PASS.
        #expect(console.stdout.contains("PASS webauthn.options.challengeLength [SHOULD] (options check)")
                && console.stdout.contains("webauthn.options.challengeLength.observed: pass: 3 options responses judged, every one meets it"),
                "\(console.stdout.prefix(1500))")
        let nothing = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--verifier", url, "--api", fido, "--filter", "webauthn.valid.none")
        #expect(nothing.stdout.contains("NOT JUDGED webauthn.options.challengeLength") && !nothing.stdout.contains("PASS webauthn.options"),
                "\(nothing.stdout.prefix(1500))")
        #expect(nothing.stdout.contains("options checks: 0 passed, 0 findings, 6 unsupported"), "\(nothing.stdout.suffix(400))")
    }

    /// docs/anchors/fido2-coverage-map.json names only options checks that exist, and every check answers an anchor.
    @Test func theCoverageMapNamesRealChecks() throws {
        let url = APIMapLiveTests.apis.deletingLastPathComponent().appendingPathComponent("docs/anchors/fido2-coverage-map.json")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let entries = try #require(map["checks"] as? [String: [String: Any]])
        let named = Set(entries.values.flatMap { $0["optionsChecks"] as? [String] ?? [] })
        #expect(named == Set(OptionsCheck.allCases.map(\.rule.rawValue)))
    }

    /// A session given its own pending challenge again is not judged (a relying party keeps a challenge until the
    /// ceremony completes); the same challenge to another session is a finding.
    @Test func aPendingChallengeAgainToTheSameSessionIsNotARepeat() {
        func observation(_ caseId: String, _ session: String, step: Int) -> OptionsObservation {
            OptionsObservation(caseId: caseId, session: session, step: step, kind: StepKind.webAuthnRegistration, exchange: "options",
                               options: .object(["challenge": .string(Base64URL.encode([UInt8](repeating: 9, count: 32)))]),
                               requestBody: [], registered: [])
        }
        let fresh = OptionsCheck.challengeFresh
        let same = fresh.result([observation("a", "a main", step: 0), observation("a", "a main", step: 1), observation("b", "b main", step: 0)])
        #expect(same.status == .finding && same.message?.hasPrefix("b step 0 (options)") == true, "\(same.summary)")
        let pending = fresh.result([observation("a", "a main", step: 0), observation("a", "a main", step: 1)])
        #expect(pending.status == .unsupported, "\(pending.summary)")
    }

    /// A value too long for any check to pass is judged, not skipped: a 5,000-byte user.id is a finding.
    @Test func anOverlongUserIdIsJudged() {
        let options = JSONValue.object(["challenge": .string(Base64URL.encode([UInt8](repeating: 1, count: 32))),
                                        "user": .object(["id": .string(Base64URL.encode([UInt8](repeating: 2, count: 5_000)))])])
        let observation = OptionsObservation(caseId: "c", session: "c main", step: 0, kind: StepKind.webAuthnRegistration,
                                             exchange: "options", options: options, requestBody: [], registered: [])
        #expect(observation.userIdLength == 5_000)
        let result = OptionsCheck.userIdLength.result([observation])
        #expect(result.status == .finding && result.message?.hasSuffix("user.id is 5000 bytes") == true, "\(result.summary)")
    }

    /// A map that declares no options adds no options results to a run (civiq has none).
    @Test func aMapWithoutOptionsObservesNothing() throws {
        #expect(!(try APIMapLiveTests.map("civiq")).observesOptions)
        #expect(try APIMapLiveTests.map("fido").observesOptions)
    }
}
