import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestServer
import AttestVerifiers
import Foundation
import Testing

/// The map driver's own behaviour, apart from any one map: sessions that a server does not bind are caught, time
/// against a server on real time, dry runs, https with a private CA, and usage errors that name what is wrong.
@Suite struct APIMapDriverTests {
    static let apis = APIMapLiveTests.apis

    /// A server whose ceremonies are not bound to sessions (the fido map served without cookie sessions) accepts
    /// a challenge answered from another session: exactly the session-binding cases are findings.
    @Test func aServerThatDoesNotBindChallengesToSessionsIsCaught() async throws {
        let map = try APIMapLiveTests.map("fido")
        var unbound = map
        unbound.cookieSessions = false
        let server = try VerdictServer(profile: .webAuthnL3, api: unbound, seed: 1)
        defer { server.stop() }
        let cases = try BuiltinCatalogue.cases(for: .webAuthnL3, seed: 1)
            .filter { $0.rule == .webAuthnChallengeSession || $0.rule == .webAuthnChallengeSingleUse || $0.id == "webauthn.valid.packed" }
        let transport = HTTPMapTransport(baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), timeout: 20)
        let report = await Runner(profile: .webAuthnL3, verifier: MapDriver(map: map, transport: transport, seed: 1)).run(cases, seed: 1)
        #expect(report.findings.map(\.caseId).sorted() == cases.filter { $0.rule == .webAuthnChallengeSession }.map(\.id).sorted())
        #expect(report.errors.isEmpty)
    }

    /// Answers every request 200 with a fresh challenge and token, and records what it was sent.
    final class RecordingTransport: MapTransport, @unchecked Sendable {
        let name = "http://recorded.example"
        private(set) var requests: [RenderedRequest] = []
        private let lock = NSLock()

        func send(_ request: RenderedRequest) async throws -> MapResponse {
            lock.withLock { requests.append(request) }
            let body = #"{"challenge":"\#(Base64URL.encode(secureRandomBytes(32)))","android_token":"token"}"#
            return MapResponse(status: 200, headers: [], body: Array(body.utf8))
        }
    }

    final class Waits: @unchecked Sendable {
        private(set) var seconds: [TimeInterval] = []
        private let lock = NSLock()
        func record(_ wait: TimeInterval) {
            lock.lock()
            seconds.append(wait)
            lock.unlock()
        }
    }

    /// The civiq map as a server without a test clock would have it.
    static func realTimeCiviq() throws -> APIMap {
        var map = try APIMapLiveTests.map("civiq")
        map.clockHeader = nil
        return map
    }

    /// A lifetime case (steps minutes apart) against a server on real time is unsupported with its reason, never a
    /// pass or a finding, and nothing is sent; a case whose steps are seconds apart runs at once.
    @Test func lifetimeCasesAgainstARealTimeServerAreUnsupportedNotPassed() async throws {
        let cases = try BuiltinCatalogue.cases(for: .perRequestDeviceAttestation, seed: 1)
        let lifetime = try #require(cases.first { $0.rule == .requestChallengeLifetime })
        let valid = try #require(cases.first { $0.id == "request.valid.ios" })
        let transport = RecordingTransport()
        let driver = MapDriver(map: try Self.realTimeCiviq(), transport: transport, seed: 1)
        let report = await Runner(profile: .perRequestDeviceAttestation, verifier: driver).run([lifetime, valid], seed: 1)
        #expect(report.results.map(\.status) == [.unsupported, .pass])
        #expect(report.results[0].message?.contains("real time") == true)
        #expect(report.unsupported.count == 1 && report.findings.isEmpty && report.exitCode == 0)
        #expect(transport.requests.count == valid.steps.count)
        #expect(transport.requests.allSatisfy { request in !request.headers.contains { $0.name == "X-Attest-Harness-Time" } })
    }

    /// With real time, the driver waits (on the injected clock) exactly the time between the case's steps.
    @Test func realTimeWaitsTheTimeBetweenSteps() async throws {
        let cases = try BuiltinCatalogue.cases(for: .perRequestDeviceAttestation, seed: 1)
        let lifetime = try #require(cases.first { $0.rule == .requestChallengeLifetime })
        let waits = Waits()
        var driver = MapDriver(map: try Self.realTimeCiviq(), transport: RecordingTransport(), seed: 1, realTime: true)
        driver.sleep = { waits.record($0) }
        _ = try await driver.verdicts(for: lifetime.request, profile: .perRequestDeviceAttestation)
        let times = lifetime.steps.map { $0.time ?? lifetime.context.time }
        let gaps = zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }.filter { $0 > 0 }
        #expect(waits.seconds == gaps)
        #expect((waits.seconds.max() ?? 0) > MapDriver.realTimeThreshold)
    }

    /// `--dry-run` prints the requests of one case as curl lines answered by an in-process emulation: server
    /// values flow, nothing is sent, and the Authorization secret is redacted.
    @Test func dryRunPrintsTheRequestsWithSecretsRedacted() throws {
        let secret = "Bearer dry-run-secret-7f3a"
        let result = try CommandLineTests.launch(CommandLineTests.binary, [
            "run", "--profile", "device-bound-passkey-import", "--verifier", "https://staging.invalid", "--api",
            Self.apis.appendingPathComponent("striga.json").path, "--dry-run", "--filter", "import.valid.ios",
        ], environment: ["ATTEST_HARNESS_AUTHORIZATION": secret])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "# import.valid.ios: " + (try BuiltinCatalogue.cases(for: .deviceBoundPasskeyImport, seed: 1).first { $0.id == "import.valid.ios" }?.description ?? ""))
        #expect(lines.contains { $0.hasPrefix("curl -X POST 'https://staging.invalid/user/passkey/import/start'") })
        #expect(lines.contains { $0.hasPrefix("curl -X POST 'https://staging.invalid/user/passkey/import/complete'") })
        #expect(lines.contains { $0.contains("'Authorization: <redacted>'") })
        #expect(lines.last?.hasPrefix("# verdicts (from the emulation): accept, accept") == true, "\(lines.last ?? "")")
        #expect(!result.stdout.contains("dry-run-secret") && !result.stderr.contains("dry-run-secret"))
    }

    /// A server that echoes the map's secret back (padded so a 300-byte excerpt cuts it) and a session cookie:
    /// neither the whole secret, nor a cut-off prefix of it, nor the cookie reaches a verdict.
    final class EchoingTransport: MapTransport, @unchecked Sendable {
        let name = "http://echo.example"
        func send(_ request: RenderedRequest) async throws -> MapResponse {
            let secret = request.headers.first { $0.name == "Authorization" }?.value ?? ""
            let body = #"{"error":"\#(String(repeating: "x", count: 270)) you sent \#(secret) and sid=cookie-secret-0123456789"}"#
            return MapResponse(status: 403, headers: [("Set-Cookie", "sid=cookie-secret-0123456789; Path=/")], body: Array(body.utf8))
        }
    }

    @Test func echoedSecretsNeverReachAVerdict() async throws {
        var map = try APIMapLiveTests.map("civiq")
        map.cookieSessions = true
        map.headers["Authorization"] = try Template(.object(["$": .string("env.MY_SERVER_TOKEN")]), at: "")
        let secret = "Bearer tok_A1b2C3d4/E5f6+G7h8=="
        let driver = MapDriver(map: map, transport: EchoingTransport(), seed: 1, environment: ["MY_SERVER_TOKEN": secret])
        let testCase = try #require(try BuiltinCatalogue.cases(for: .perRequestDeviceAttestation, seed: 1).first { $0.id == "request.valid.ios" })
        let verdicts = try await driver.verdicts(for: testCase.request, profile: .perRequestDeviceAttestation)
        let reasons = verdicts.compactMap(\.reason).joined(separator: "\n")
        #expect(reasons.contains("[redacted]"))
        #expect(!reasons.contains("tok_A1b2") && !reasons.contains("cookie-secret"), "\(reasons)")
    }

    @Test func usageErrorsNameTheFault() throws {
        let civiq = Self.apis.appendingPathComponent("civiq.json").path
        let builtin = try CommandLineTests.run("run", "--profile", "per-request-device-attestation", "--verifier", "builtin:reference", "--api", civiq)
        #expect(builtin.status == 2 && builtin.stderr.contains("--api drives a server at an http"), "\(builtin.stderr)")
        let old = try CommandLineTests.run("run", "--profile", "per-request-device-attestation", "--verifier", "civiq+http://127.0.0.1:9")
        #expect(old.status == 2 && old.stderr.contains("--api apis/civiq.json"), "\(old.stderr)")
        let stray = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--verifier", "builtin:reference", "--real-time")
        #expect(stray.status == 2 && stray.stderr.contains("--real-time goes with --api"), "\(stray.stderr)")
        let family = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--verifier", "http://127.0.0.1:9", "--api", civiq)
        #expect(family.status == 2 && family.stderr.contains("per-request family"), "\(family.stderr)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.json")
        try String(contentsOfFile: civiq, encoding: .utf8).replacingOccurrences(of: "\"decode\": \"base64url\"", with: "\"decode\": \"base64urls\"")
            .write(to: broken, atomically: true, encoding: .utf8)
        let bad = try CommandLineTests.run("run", "--profile", "per-request-device-attestation", "--verifier", "http://127.0.0.1:9", "--api", broken.path)
        #expect(bad.status == 2 && bad.stderr.contains("/steps/per-request.challenge/exchanges/0/capture/0/decode"), "\(bad.stderr)")
        let missingCA = try CommandLineTests.run("run", "--profile", "per-request-device-attestation", "--verifier", "https://127.0.0.1:9",
                                                 "--api", civiq, "--cacert", directory.appendingPathComponent("none.pem").path)
        #expect(missingCA.status == 2 && missingCA.stderr.contains("no such CA file"), "\(missingCA.stderr)")
    }

    /// https to a staging server with a private CA: trusted with `--cacert`, refused (one clear setup error, exit
    /// 2) without it. The server is `serve --api` behind a TLS-terminating proxy whose certificate a fresh CA signed.
    @Test func httpsWithAPrivateCA() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path, cert = directory.appendingPathComponent("cert.pem").path
        let made = try CommandLineTests.launch(URL(fileURLWithPath: "/usr/bin/env"), [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert,
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        let fido = Self.apis.appendingPathComponent("fido.json").path
        let server = try VerdictServer(profile: .webAuthnL3, api: try APIMapLiveTests.map("fido"), seed: 1)
        defer { server.stop() }
        let proxy = try ServerProcess(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("tls_proxy.py").path,
            cert, key, String(server.port),
        ])
        defer { proxy.stop() }
        let port = proxy.firstLine
        let url = "https://127.0.0.1:\(port)"
        let trusted = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--verifier", url, "--api", fido, "--cacert", cert,
                                               "--filter", "webauthn.valid.packed")
        #expect(trusted.status == 0 && trusted.stdout.contains("1 case: 1 passed"), "\(trusted.stdout) \(trusted.stderr)")
        let untrusted = try CommandLineTests.run("run", "--profile", "webauthn-l3", "--verifier", url, "--api", fido,
                                                 "--filter", "webauthn.valid.packed")
        #expect(untrusted.status == 2, "\(untrusted.stdout)")
        #expect((untrusted.stdout + untrusted.stderr).lowercased().contains("certificate"), "\(untrusted.stdout) \(untrusted.stderr)")
    }
}
