import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestHTTP
import Foundation
import AttestServer
import Testing
import AttestVerifiers
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `serve` and `http://` verifiers on loopback: the reference verifier over HTTP passes, a mutant server is
/// caught, the server refuses bad requests, and a hostile server never stalls or floods the client.
@Suite(.serialized) struct HTTPVerifierTests {
    static let profile = BuiltinCatalogue.profile(named: "apple-app-attest")!

    @Test func referenceOverHTTPPassesAndAMutantServerIsCaught() async throws {
        let cases = try BuiltinCatalogue.cases(for: Self.profile, seed: 1)
        let server = try VerdictServer(profile: Self.profile)
        defer { server.stop() }
        let client = HTTPVerifier(baseURL: URL(string: "http://127.0.0.1:\(server.port)")!)
        let clean = await Runner(profile: Self.profile, verifier: client).run(cases, seed: 1, jobs: 2)
        #expect(clean.exitCode == 0 && clean.results.count == 41, "\(clean.results.filter { $0.status != .pass }.map(\.summary))")

        let mutant = try VerdictServer(profile: Self.profile.without(.appAttestAssertionCounter))
        defer { mutant.stop() }
        let report = await Runner(profile: Self.profile, verifier: HTTPVerifier(baseURL: URL(string: "http://127.0.0.1:\(mutant.port)")!))
            .run(cases, seed: 1, jobs: 2)
        #expect(report.findings.count == 4 && report.findings.allSatisfy { $0.rule == .appAttestAssertionCounter })
    }

    @Test func serveCommandEndToEnd() throws {
        let server = try ServerProcess(CommandLineTests.binary, ["serve", "--profile", "apple-app-attest", "--port", "0", "--without", "appattest.rpIdHash"])
        defer { server.stop() }
        let url = server.firstLine
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", url)
        #expect(result.status == 1)
        #expect(result.stdout.contains("41 cases: 38 passed, 3 findings, 0 errors"), "\(result.stdout.suffix(300))")
    }

    /// The handshake: a run refuses a verdict server that judges by another profile, in one line before any case
    /// (its verdicts would read like 180 verifier bugs), unless told it is deliberate.
    @Test func aServerOfAnotherProfileIsRefusedBeforeAnyCase() throws {
        let server = try ServerProcess(CommandLineTests.binary, ["serve", "--profile", "apple-app-attest", "--port", "0"])
        defer { server.stop() }
        let url = server.firstLine
        let refused = try CommandLineTests.run("run", "--profile", "step-up-signing", "--verifier", url)
        #expect(refused.status == 2 && refused.stdout.isEmpty, "\(refused.stdout.suffix(300))")
        let lines = CommandLineTests.diagnostics(refused.stderr)
        #expect(lines.count == 1 && lines.first?.contains("judges by profile apple-app-attest, this run expects step-up-signing") == true,
                "\(refused.stderr)")
        let allowed = try CommandLineTests.run("run", "--profile", "step-up-signing", "--verifier", url, "--allow-profile-mismatch")
        #expect(allowed.status != 2 || !allowed.stderr.contains("judges by profile"), "\(allowed.stderr)")
        #expect(allowed.stdout.contains("9 cases: "), "\(allowed.stdout.suffix(300))")
    }

    /// The first line a child writes (the URL or port it listens on).
    /// hostile_server.py running, and its port (Debian's interpreter itself, not a version-manager shim, so that a
    /// signal reaches the server). The caller kills it.
    static func startHostileServer() throws -> (Process, String) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("hostile_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        return (process, firstLine(out))
    }

    static func firstLine(_ pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(0x0a) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Status and body of a raw request to the server.
    static func request(_ url: URL, method: String, body: Data?) throws -> (Int, String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: (Int, String) = (0, "")
        URLSession.shared.dataTask(with: request) { data, response, _ in
            answer = ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self))
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 10)
        return answer
    }

    /// The request body (the case written by hand around a remembered profile encoding) is byte for byte the whole
    /// suite encoded compactly by `JSONEncoder`, for every case of every built-in profile (step kinds, inputs, times,
    /// anchors, parameters) and for strings a catalogue does not hold (quotes, backslashes, slashes, controls,
    /// non-ASCII text), and decodes to the same suite.
    @Test func theWireBodyIsTheSuiteEncoded() throws {
        func check(_ request: VerifierCase, _ profile: Profile, roundTrips: Bool = true) throws {
            let body = try WireSuite.body(profile: profile, testCase: request)
            let whole = Array(try WireSuite.encoder.encode(ExecSuite(profile: profile, requests: [request])))
            #expect(body == whole, "\(request.id)")
            // ISO 8601 in JSON keeps whole seconds: a time with a fraction comes back without it, in both encodings.
            if roundTrips {
                #expect(try JSONDecoder.harness.decode(ExecSuite.self, from: Data(body)) == ExecSuite(profile: profile, requests: [request]))
            }
        }
        var checked = 0
        for profile in BuiltinCatalogue.profiles {
            for testCase in try BuiltinCatalogue.cases(for: profile, seed: 1) {
                try check(testCase.request, profile)
                checked += 1
            }
        }
        #expect(checked > 500)
        let odd = ["quote \" and back\\slash", "a/b", "tab\tline\nreturn\r", "bell\u{07} escape\u{1b} del\u{7f}", "café ✓ 𝄞", "", "\u{00}"]
        for (index, text) in odd.enumerated() {
            let request = VerifierCase(
                id: text, family: FamilyName(text),
                context: CaseContext(time: Date(timeIntervalSince1970: 1_768_478_400.5 + Double(index)), trustAnchors: [text, "x"],
                                     parameters: [text: text, "Zeta": "1", "alpha": "2", "_": text]),
                steps: [VerifierStep(kind: StepKind(text), inputs: [InputKey(text): Array(text.utf8), InputKey("B"): [0xff, 0]],
                                     time: index % 2 == 0 ? nil : Date(timeIntervalSince1970: Double(index)))])
            try check(request, Self.profile, roundTrips: false)
        }
    }

    @Test func serverRefusesBadRequests() throws {
        let server = try VerdictServer(profile: Self.profile, maxBody: 1 << 20)
        defer { server.stop() }
        let base = URL(string: "http://127.0.0.1:\(server.port)")!
        let health = try Self.request(base.appendingPathComponent("v1/health"), method: "GET", body: nil)
        #expect(health.0 == 200 && health.1.contains("apple-app-attest"))
        let garbage = try Self.request(base.appendingPathComponent("v1/cases"), method: "POST", body: Data("{nope".utf8))
        #expect(garbage.0 == 400 && garbage.1.contains("\"error\""))
        let large = try Self.request(base.appendingPathComponent("v1/cases"), method: "POST", body: Data(count: 2 << 20))
        #expect(large.0 == 413)
        #expect(try Self.request(base.appendingPathComponent("nowhere"), method: "GET", body: nil).0 == 404)
        #expect(try Self.request(base.appendingPathComponent("v1/cases"), method: "GET", body: nil).0 == 405)
    }

    @Test(arguments: [
        ("garbage", "not a results document", CaseResult.Status.error), ("huge", "limit", .error), ("drip", "within", .error),
        ("reset", "closed before a whole answer", .crash), ("status", "HTTP status 500", .crash),
        ("redirect", "HTTP status 302", .error), ("wrongid", "no entry for case", .error),
        ("chunkoverflow", "limit", .error), ("trailers", "trailers over", .error), ("interim", "not a results document", .error),
        ("bigheader", "headers over", .error),
    ])
    func hostileServerEndsInAHarnessErrorOrCrashWithinTheTimeout(mode: String, message: String, status: CaseResult.Status) async throws {
        let (process, port) = try Self.startHostileServer()
        defer {
            // SIGKILL: a child spawned from the test runner may inherit a blocked SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let testCase = try #require(try BuiltinCatalogue.cases(for: Self.profile, seed: 1).first)
        let client = HTTPVerifier(baseURL: URL(string: "http://127.0.0.1:\(port)/\(mode)")!, timeout: 2, responseLimit: 1 << 20)
        let started = Date()
        let result = await Runner(profile: Self.profile, verifier: client).run(testCase)
        // A 5xx or a connection dropped mid-answer is the server failing on the case: a crash, never a rejection.
        #expect(result.status == status, "\(result.summary)")
        #expect(result.message?.contains(message) == true, "\(result.summary)")
        #expect(Date().timeIntervalSince(started) < 6)
    }

    /// The verdict protocol keeps its connections: ten valid cases at two jobs take at most a few connections, not
    /// ten; and a server that drops each idle connection without saying so still gets every case (the request on a
    /// dropped pooled connection is sent again on a fresh one, once).
    @Test(arguments: [("accept", 4), ("idleclose", 20)])
    func connectionsAreKeptAndADroppedOneIsReplaced(mode: String, maximumConnections: Int) async throws {
        let (process, port) = try Self.startHostileServer()
        defer {
            // SIGKILL: a child spawned from the test runner may inherit a blocked SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let valid = try BuiltinCatalogue.cases(for: Self.profile, seed: 1).filter { $0.rule == nil }
        let cases = Array(repeating: valid, count: 10).flatMap { $0 }.prefix(10)
        let client = HTTPVerifier(baseURL: URL(string: "http://127.0.0.1:\(port)/\(mode)")!, timeout: 5, responseLimit: 1 << 20)
        let report = await Runner(profile: Self.profile, verifier: client).run(Array(cases), seed: 1, jobs: 2)
        #expect(report.results.count == 10 && report.results.allSatisfy { $0.status == .pass },
                "\(report.results.map(\.summary))")
        let (stats, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/stats")!)
        let counts = try JSONDecoder().decode([String: Int].self, from: stats)
        #expect(counts["requests"] == 10, "\(counts)")
        // Plus one for the /stats request itself.
        #expect((counts["connections"] ?? 99) <= maximumConnections + 1, "\(counts)")
        if mode == "accept" { #expect((counts["connections"] ?? 0) < 10, "\(counts)") }
    }


    /// A header value captured from a server or written in a map reaches the wire without any control character:
    /// no CR or LF to start a header, and no NUL, VT, FF, DEL or NEL (RFC 9110 §5.5 allows none but tab).
    @Test func headerValuesCarryNoControlCharacters() throws {
        let value = "a\u{0}b\u{B}c\u{C}d\u{7F}e\u{85}f\r\nX-Injected: 1\tg"
        let request = HTTPRequest(method: "GET", url: try #require(URL(string: "http://127.0.0.1:1/x")), headers: [("X-Token", value)])
        let wire = HTTPClient.serialize(request, host: "127.0.0.1", port: 1, scheme: "http")
        let head = try #require(String(validating: wire, as: UTF8.self))
        let line = try #require(head.components(separatedBy: "\r\n").first { $0.hasPrefix("X-Token: ") })
        #expect(line == "X-Token: a b c d e f  X-Injected: 1\tg")
        #expect(!head.contains("\r\nX-Injected"))
        #expect(!wire.contains(0) && !wire.contains(0x0B) && !wire.contains(0x0C) && !wire.contains(0x7F))
        #expect(!head.unicodeScalars.contains("\u{85}"))
    }
}
