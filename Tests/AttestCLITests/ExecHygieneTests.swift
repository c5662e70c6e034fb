import Foundation
import Testing

/// exec: children start clean and leave nothing behind: their own process group, no blocked or ignored signals,
/// no descriptor but 0, 1 and 2, the whole group killed at the deadline, and a background helper that holds stdout
/// does not turn an answer into a HANG.
@Suite(.serialized) struct ExecHygieneTests {
    /// A Python adapter: answers "accept" for every step, after running `before` (Python statements).
    static func adapter(_ before: String, in directory: URL) throws -> String {
        let script = directory.appendingPathComponent("adapter-\(UUID().uuidString).py")
        try """
            import json, os, subprocess, sys
            suite = json.load(sys.stdin)
            \(before)
            results = [{"id": case["id"], "verdicts": [{"outcome": "accept"} for _ in case["steps"]]} for case in suite["cases"]]
            json.dump({"format": "attest-harness-exec-results/1", "harness": "probe", "results": results}, sys.stdout)
            sys.stdout.flush()
            """.write(to: script, atomically: true, encoding: .utf8)
        return "exec:/usr/bin/python3 \(script.path)"
    }

    static func run(_ verifier: String, jobs: Int = 2, timeout: String = "10", filter: String = "appattest.valid.*") throws -> CommandLineTests.Result {
        try CommandLineTests.run(["run", "--profile", "apple-app-attest", "--filter", filter, "--jobs", String(jobs),
                                  "--timeout", timeout, "--verifier", verifier])
    }

    /// Processes whose command line contains `marker`, other than pgrep itself.
    static func survivors(_ marker: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        process.arguments = ["-f", marker]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init)
    }

    @Test func childrenStartWithNoBlockedSignalsAndOnlyStdio() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = directory.appendingPathComponent("probe"), signals = directory.appendingPathComponent("signals")
        // Python records the descriptors and process group it started with (it ignores SIGPIPE itself, so the
        // shell in front of it records the signal mask and the ignored signals the harness handed over).
        let python = try Self.adapter("""
            fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
            with open("\(probe.path)", "a") as out:
                out.write(",".join(map(str, fds)) + " " + str(os.getpgrp() == os.getppid() or os.getpgrp() == os.getpid()) + "\\n")
            """, in: directory)
        let script = directory.appendingPathComponent("adapter.sh")
        try """
            grep -E '^Sig(Blk|Ign)' /proc/$$/status | tr '\\n' ' ' >> '\(signals.path)'; echo >> '\(signals.path)'
            exec \(python.dropFirst("exec:".count))
            """.write(to: script, atomically: true, encoding: .utf8)
        let result = try Self.run("exec:/bin/sh \(script.path)", jobs: 2, filter: "appattest.*")
        #expect(result.status == 1, "\(result.stderr)")  // an accept-everything adapter has findings, and no HANG
        #expect(!result.stdout.contains("HANG"), "\(result.stdout)")
        let masks = try String(contentsOf: signals, encoding: .utf8).split(separator: "\n")
        #expect(masks.count > 10)
        // Signals 32 and 33 are glibc's own (thread cancellation, setxid): no program can see or change them.
        let glibcInternal: UInt64 = 1 << 31 | 1 << 32
        func mask(_ name: String, _ line: Substring) -> UInt64? {
            line.split(separator: " ").first { $0.hasPrefix(name + ":") }
                .flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        }
        for line in masks {
            #expect(mask("SigBlk", line).map { $0 & ~glibcInternal } == 0, "blocked signals: \(line)")
            #expect(mask("SigIgn", line).map { $0 & ~glibcInternal } == 0, "ignored signals: \(line)")
        }
        for line in try String(contentsOf: probe, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ")
            // 0, 1, 2 and the descriptor listdir itself opened.
            #expect(fields[0].split(separator: ",").count <= 4 && fields[0].hasPrefix("0,1,2"), "descriptors: \(line)")
            #expect(fields[1] == "True", "the adapter leads its own process group: \(line)")
        }
    }

    @Test func aHangKillsTheAdapterAndEverythingItStarted() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = "attest-harness-grandchild-\(UUID().uuidString.prefix(8))"
        let verifier = try Self.adapter("""
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "\(marker)"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            import time; time.sleep(300)
            """, in: directory)
        let started = Date()
        let result = try Self.run(verifier, jobs: 2, timeout: "1")
        #expect(result.stdout.contains("HANG"), "\(result.stdout)")
        #expect(Date().timeIntervalSince(started) < 30)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try Self.survivors(marker).isEmpty, "grandchildren outlived the case")
    }

    @Test func aBackgroundHelperHoldingStdoutIsNoHangAndIsCleanedUp() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = "attest-harness-helper-\(UUID().uuidString.prefix(8))"
        // The helper inherits stdout (as a careless daemon or a JVM would) and outlives the adapter.
        let verifier = try Self.adapter("""
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "\(marker)"])
            """, in: directory)
        let started = Date()
        let result = try Self.run(verifier, jobs: 1, timeout: "5")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")  // valid cases accepted: conformant
        #expect(!result.stdout.contains("HANG"), "\(result.stdout)")
        #expect(Date().timeIntervalSince(started) < 20)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try Self.survivors(marker).isEmpty, "the helper outlived its case")
    }
}

/// A verifier that cannot be reached at all is one clear error, exit 2, before any case runs.
@Suite struct FailFastTests {
    @Test func aMissingExecAdapterIsOneError() throws {
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "exec:./no-such-adapter --flag")
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot start"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no case ran: \(result.stdout)")
    }

    @Test func aRefusedHTTPVerifierIsOneError() throws {
        // A port nothing listens on: bind one, learn its number, close it.
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        close(socket)
        let result = try CommandLineTests.run("run", "--profile", "apple-app-attest", "--verifier", "http://127.0.0.1:\(port)")
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot connect"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}

/// A harness stopped by a signal (Ctrl-C, a CI timeout) leaves no exec adapter behind.
@Suite(.serialized) struct InterruptedRunTests {
    /// Twenty trials per signal, each with cases still waiting to start: adapters that never answer time out after
    /// 0.3 s, so the runner keeps starting new ones four at a time while the signal arrives at a moment that varies
    /// from trial to trial. Whatever the moment, no adapter (a process whose command line carries the trial's
    /// marker) outlives the harness, and the harness dies of the signal it was sent.
    @Test(arguments: [SIGINT, SIGHUP, SIGTERM, SIGQUIT])
    func aSignalledHarnessLeavesNoAdapterBehind(signal: Int32) throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var leftovers: [String] = []
        for trial in 0..<20 {
            let marker = "attest-harness-interrupted-\(UUID().uuidString.prefix(8))"
            let verifier = try ExecHygieneTests.adapter("import time; time.sleep(300)  # \(marker)", in: directory)
            let process = Process()
            process.executableURL = CommandLineTests.binary
            process.arguments = ["run", "--profile", "apple-app-attest", "--jobs", "4", "--timeout", "0.3",
                                 "--verifier", verifier.replacingOccurrences(of: ".py", with: ".py \(marker)")]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while try ExecHygieneTests.survivors(marker).isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            // A different moment each trial: adapters starting, running or being stopped at their timeout.
            Thread.sleep(forTimeInterval: Double(trial % 10) * 0.05)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                    "trial \(trial): the harness ended with \(process.terminationReason) \(process.terminationStatus)")
            Thread.sleep(forTimeInterval: 0.3)
            let left = try ExecHygieneTests.survivors(marker)
            leftovers += left.map { "trial \(trial): \($0)" }
            // Nothing is left running for the next trial, whatever this one found.
            for pid in left.compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        }
        #expect(leftovers.isEmpty, "adapters outlived the harness: \(leftovers)")
    }
}

/// A hunt stopped by Ctrl-C or a CI's SIGTERM saves what it found and stops, leaving no exec adapter behind.
@Suite(.serialized) struct InterruptedHuntTests {
    /// Three trials per signal against an adapter that takes 0.4 s per suite, so a batch is in flight when the signal
    /// comes at a moment that varies by trial: the hunt exits 130 (interrupted, saved) soon after, its hunt.json
    /// reads back, and no process carrying the trial's marker is left.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalledHuntSavesAndLeavesNoAdapterBehind(signal: Int32) throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var leftovers: [String] = []
        for trial in 0..<3 {
            let marker = "attest-harness-hunt-interrupted-\(UUID().uuidString.prefix(8))"
            let verifier = try ExecHygieneTests.adapter("import time; time.sleep(0.4)  # \(marker)", in: directory)
            let out = directory.appendingPathComponent("hunt-\(trial)")
            let process = Process()
            process.executableURL = CommandLineTests.binary
            process.arguments = ["hunt", "--verifier", "builtin:reference", "--verifier", verifier.replacingOccurrences(of: ".py", with: ".py \(marker)"),
                                 "--profile", "apple-app-attest", "--out", out.path, "--time", "5m", "--timeout", "30", "--quiet"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while try ExecHygieneTests.survivors(marker).isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            Thread.sleep(forTimeInterval: 0.6 + Double(trial) * 0.15)
            kill(process.processIdentifier, signal)
            let stopBy = Date().addingTimeInterval(30)
            while process.isRunning && Date() < stopBy { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 130,
                    "trial \(trial): the hunt ended with \(process.terminationReason) \(process.terminationStatus)")
            let saved = try? JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("hunt.json"))) as? [String: Any]
            #expect(saved?["configuration"] != nil, "trial \(trial): no readable hunt.json after the signal")
            Thread.sleep(forTimeInterval: 0.3)
            let left = try ExecHygieneTests.survivors(marker)
            leftovers += left.map { "trial \(trial): \($0)" }
            for pid in left.compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        }
        #expect(leftovers.isEmpty, "adapters outlived the hunt: \(leftovers)")
    }
}
