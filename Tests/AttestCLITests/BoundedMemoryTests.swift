import Foundation
import Testing

/// The HTTP client's size cap bounds memory, not only the answer: a server streaming 3 GiB as fast as loopback
/// carries it costs the harness at most its 16 MiB cap, measured as the child's own peak RSS (its high-water mark
/// as the kernel reports it to `wait4`), not as time. IPv6 literal URLs work.
@Suite(.serialized) struct BoundedMemoryTests {
    static let responseCap = 16 << 20

    /// Starts flooding_server.py; returns the process and its port.
    static func flood(_ mode: String, bytes: Int = 3 << 30, host: String = "127.0.0.1") throws -> (Process, Int) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("flooding_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, mode, String(bytes), host]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        return (process, Int(HTTPVerifierTests.firstLine(out)) ?? 0)
    }

    /// Runs the CLI under a Python parent that reports the child's peak RSS in KiB (wait4's ru_maxrss).
    static func peakRSS(_ arguments: [String]) throws -> (status: Int32, kib: Int, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import os, subprocess, sys
            child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            output = child.stdout.read()
            _, status, usage = os.wait4(child.pid, 0)
            sys.stdout.write("%d %d\\n" % (os.waitstatus_to_exitcode(status), usage.ru_maxrss))
            sys.stdout.write(output.decode("utf-8", "replace"))
            """, CommandLineTests.binary.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let first = text.split(separator: "\n").first?.split(separator: " ") ?? []
        return (Int32(first.first ?? "") ?? -1, Int(first.last ?? "") ?? -1, text)
    }

    @Test(arguments: ["stream", "declared"])
    func aFloodingServerCostsAtMostTheCap(mode: String) throws {
        let (server, port) = try Self.flood(mode)
        defer { server.terminate(); kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let baseline = try Self.peakRSS(["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest",
                                          "--filter", "appattest.valid.*"])
        let started = Date()
        let flooded = try Self.peakRSS(["run", "--verifier", "http://127.0.0.1:\(port)", "--profile", "apple-app-attest",
                                         "--filter", "appattest.nonce.*", "--jobs", "1", "--timeout", "20"])
        #expect(flooded.status == 2, "\(flooded.output)")
        #expect(flooded.output.contains("larger than the 16777216-byte limit"), "\(flooded.output)")
        // Against the same binary doing no HTTP at all: the difference is the buffer, not a multiple of the stream.
        #expect(flooded.kib < baseline.kib + (Self.responseCap >> 10) + 64 * 1024, "peak \(flooded.kib) KiB, baseline \(baseline.kib) KiB")
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func twoJobsCostAtMostTwoCaps() throws {
        let (server, port) = try Self.flood("stream")
        defer { server.terminate(); kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let baseline = try Self.peakRSS(["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest",
                                          "--filter", "appattest.valid.*"])
        let flooded = try Self.peakRSS(["run", "--verifier", "http://127.0.0.1:\(port)", "--profile", "apple-app-attest",
                                         "--filter", "appattest.*", "--jobs", "2", "--timeout", "20"])
        #expect(flooded.status == 2)
        #expect(flooded.kib < baseline.kib + 2 * (Self.responseCap >> 10) + 64 * 1024, "peak \(flooded.kib) KiB")
    }

    @Test func ipv6LiteralURLsReachTheServer() throws {
        let (server, port) = try Self.flood("stream", bytes: 1 << 20, host: "::1")
        defer { server.terminate(); kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let result = try CommandLineTests.run("run", "--verifier", "http://[::1]:\(port)", "--profile", "apple-app-attest",
                                              "--filter", "appattest.valid.*", "--timeout", "10")
        // The server answers garbage, so the case is a harness error: but one about the answer, not the address.
        #expect(result.status == 2)
        #expect(result.stdout.contains("not a results document"), "\(result.stdout)")
    }

    /// A report or baseline larger than any real one (40 MiB against the 32 MiB bound) is refused before it is read:
    /// one line, exit 2, and the peak RSS of a run that reads nothing.
    @Test func anOversizedReportIsRefusedBeforeItIsRead() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("huge.json")
        var text = #"{"format":"attest-harness-report","formatVersion":1,"results":["#
        text += String(repeating: #"{"caseId":"x","importance":"low","status":"pass"},"#, count: 40 << 20 / 48)
        text += "{}]}"
        try Data(text.utf8).write(to: file)
        let baseline = try Self.peakRSS(["list", "--profile", "apple-app-attest"])
        for arguments in [["report", file.path, "--format", "console"],
                          ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest", "--baseline", file.path]] {
            let refused = try Self.peakRSS(arguments)
            #expect(refused.status == 2 && refused.output.contains("larger than 32 MiB"), "\(refused.output.prefix(300))")
            #expect(refused.kib < baseline.kib + 32 * 1024, "peak \(refused.kib) KiB, list \(baseline.kib) KiB")
        }
    }

    /// An exec adapter's results document is bounded by its cases (1 MiB each), not only by the 16 MiB cap: a 5 MiB
    /// answer for one case is a harness error, read no further, and costs no decoding.
    @Test func anExecAnswerOverItsCasesBudgetIsRefused() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let adapter = directory.appendingPathComponent("big.py")
        try """
        import json, sys
        suite = json.load(sys.stdin)
        reason = "x" * (5 << 20)
        print(json.dumps({"format": "attest-harness-exec-results/1", "harness": "big", "results": [
            {"id": c["id"], "verdicts": [{"outcome": "reject", "reason": reason} for _ in c["steps"]]} for c in suite["cases"]]}))
        """.write(to: adapter, atomically: true, encoding: .utf8)
        let result = try Self.peakRSS(["run", "--verifier", "exec:python3 \(adapter.path)", "--profile", "apple-app-attest",
                                       "--filter", "appattest.valid.*", "--format", "json", "--out", directory.appendingPathComponent("r.json").path])
        #expect(result.status == 2, "\(result.output.prefix(300))")
        let report = try String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)
        #expect(report.contains("the results document is larger than the limit"))
    }
}
