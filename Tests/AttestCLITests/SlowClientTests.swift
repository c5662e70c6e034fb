import AttestCatalogue
import AttestConformance
@testable import AttestServer
@testable import AttestReference
import AttestEvidence
import Foundation
import Testing

/// serve under slow clients: a request must arrive whole within the server's deadline, so 300 clients dripping a
/// byte every half second are cut off, and an ordinary request still gets its answer meanwhile.
@Suite struct SlowClientTests {
    @Test func slowClientsAreCutOffAndOthersAreServed() throws {
        let server = try VerdictServer(profile: .appleAppAttest, requestDeadline: 2)
        defer { server.stop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("slow_clients.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, String(server.port), "300", "20"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let result = try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any])
        #expect(result["status"] as? Int == 200, "\(result)")
        #expect((result["seconds"] as? Double ?? 99) < 5, "the ordinary request waited: \(result)")
        // Every slow connection was cut near the 2-second deadline, far before its 20-second drip ends.
        #expect((result["held"] as? Double ?? 99) < 6, "a slow client held its connection: \(result)")
        #expect(result["count"] as? Int == 300)
    }
}

/// serve under a local flood of idle connections, reopened as fast as they are dropped: an idle connection holds its
/// slot for a moment (two seconds, a fifth of one near the limit), so an ordinary client is answered while the
/// flood lasts, and libmicrohttpd's "reached connection limit" lines are rate-limited to about one a second.
@Suite struct IdleFloodTests {
    @Test func anIdleFloodDoesNotShutOutOtherClientsOrFloodTheLog() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["serve", "--profile", "apple-app-attest", "--port", "0"]
        let stderr = Pipe(), stdout = Pipe()
        process.standardError = stderr
        process.standardOutput = stdout
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        let collected = PipeReader(stderr)
        let url = HTTPVerifierTests.firstLine(stdout)
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) }, "\(url)")
        let flood = Process()
        flood.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // Twelve seconds: on a loaded 2-core runner (the suite's other tests beside it) the ordinary client's turn can
        // take longer than the eight seconds this once was; a CI run at 66,278 flood connections saw none in eight.
        flood.arguments = [root.appendingPathComponent("idle_flood.py").path, String(port), "300", "12"]
        let out = Pipe()
        flood.standardOutput = out
        try flood.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        flood.waitUntilExit()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let log = collected.wait()
        let result = try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any])
        // Answered at all means answered while the flood held every slot it could: without the idle timeout the
        // flood (300 connections) keeps the per-address limit (256) reached for all of its 12 s and the ordinary
        // client, from the same address, never gets in. How soon is a timing (about the 2 s an idle slot is held,
        // more on a loaded 2-core machine), not asserted.
        #expect(result["answered"] as? Bool == true, "\(result)")
        // Twelve seconds of flood: a few lines a second at most, not one per refused connection.
        let lines = log.split(separator: UInt8(ascii: "\n")).count
        #expect(lines < 40 && log.count < 8 << 10, "\(lines) lines, \(log.count) bytes of stderr for \(result["opened"] ?? 0) connections")
    }
}

/// serve --api keeps a client's values under a session id of its own form only: 3,000 clients sending 30 kB session
/// cookies cost the server no more memory than a few megabytes (it kept every cookie as a key: 57 to 367 MB for
/// 10,000 clients).
@Suite struct CookieFloodTests {
    @Test func longSessionCookiesAreNotKeptAsKeys() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["serve", "--profile", "webauthn-l3", "--port", "0", "--api",
                             root.appendingPathComponent("../../apis/fido.json").standardizedFileURL.path]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let url = HTTPVerifierTests.firstLine(stdout)
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) }, "\(url)")
        let flood = Process()
        flood.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        flood.arguments = [root.appendingPathComponent("cookie_flood.py").path, String(port), String(process.processIdentifier),
                           "3000", "30000", "/attestation/options"]
        let out = Pipe()
        flood.standardOutput = out
        try flood.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        flood.waitUntilExit()
        let result = try #require(try JSONSerialization.jsonObject(with: text) as? [String: Int], "\(String(decoding: text, as: UTF8.self))")
        let before = try #require(result["before"]), after = try #require(result["after"])
        // 3,000 cookies of 30 kB kept as keys would be 90 MB; new short session ids are a few hundred kB.
        #expect(after - before < 24 * 1024, "VmRSS \(before) -> \(after) KiB")
    }
}

/// What the API emulations remember expires with the challenge lifetime instead of growing with every case.
@Suite struct EmulationStateTests {
    @Test func expiringStoreForgetsOldEntries() {
        var store = ExpiringStore<Int>(lifetime: 60)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<10_000 { store.store(index, for: "challenge \(index)", at: start.addingTimeInterval(Double(index))) }
        // One entry per second for 10 000 s, kept for 60 s: about the last minute, not all of them.
        #expect(store.count <= 60 + 64)
        #expect(store["challenge 9999"] == 9999)
        #expect(store["challenge 0"] == nil)
    }

    @Test func perRequestChallengesOfAServerWideSessionStayBounded() throws {
        let testCase = try #require(try BuiltinCatalogue.cases(for: .perRequestDeviceAttestation, seed: 1).first { $0.rule == nil })
        var session = try ReferenceVerifier(profile: .perRequestDeviceAttestation).startCase(testCase.context)
        for index in 0..<3000 {
            let step = VerifierStep(kind: .perRequestChallenge, inputs: [.challenge: Array("challenge \(index)".utf8)],
                                    time: testCase.context.time.addingTimeInterval(Double(index)))
            #expect(try session.verify(step) == .accept)
        }
        // The profile's challenge lifetime is 300 s: challenges far older are forgotten.
        #expect(session.state.perRequest.challenges.count < 1024 + 1)
    }
}
