import Foundation
import Testing

/// vectors/ for other languages: `scripts/check-vector-packages` installs the Python package (vectors/pyproject.toml)
/// into a fresh venv and the Go module (vectors/go.mod) into an empty GOPATH, decodes every vector file through each,
/// and runs the adapters in scripts/adapters against the helper they share. This test runs it and checks that both
/// languages count what the JSON holds, as counted here. `python3` (with venv) and `go` are required: without them
/// the test fails, it never skips (scripts/setup installs them).
@Suite struct VectorPackagesTests {
    /// The repository root: this file is `Tests/AttestPackageTests/VectorPackagesTests.swift`.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/check-vector-packages")
    /// About 20 s with a warm pip cache; a cold one downloads setuptools from PyPI.
    static let timeout: TimeInterval = 600

    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        var tail: String { String((stdout + stderr).suffix(4000)) }
    }

    struct ScriptTimedOut: Error, CustomStringConvertible {
        let description: String
    }

    @Test func pythonPackageAndGoModuleDecodeEveryVectorFile() throws {
        let missing = ["python3", "go"].filter { Self.onPath($0) == nil }
        guard missing.isEmpty else {
            Issue.record("""
                \(missing.joined(separator: " and ")) not on PATH: scripts/check-vector-packages needs python3 (with \
                venv) and go; scripts/setup installs them (Debian: python3 python3-venv golang-go; Homebrew: python@3 go)
                """)
            return
        }
        let expected = try Self.countVectors()
        let outcome = try Self.runScript()
        #expect(outcome.status == 0, "scripts/check-vector-packages exited \(outcome.status):\n\(outcome.tail)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "check-vector-packages: ok: \(expected)", "\(outcome.tail)")
        let python = "decoded \(expected); the exec helper answered as the contract says"
        #expect(lines.contains { $0.hasPrefix("python: attest-harness-vectors ") && $0.hasSuffix(python) }, "\(outcome.tail)")
        // Built in isolation, and offline with Debian 12's setuptools and with the oldest one pyproject.toml admits.
        for how in ["(built in isolation with the newest setuptools)", "(offline, no build isolation, setuptools==66.1.1 wheel==0.38.4)",
                    "(offline, no build isolation, setuptools==61.2.0 wheel==0.38.4)"] {
            #expect(lines.contains { $0.hasPrefix("python: attest-harness-vectors ") && $0.contains(how) && $0.hasSuffix(python) }, "\(how): \(outcome.tail)")
        }
        #expect(lines.contains { $0.hasPrefix("go: ") && $0.hasSuffix("a consumer module decoded \(expected)") }, "\(outcome.tail)")
        #expect(lines.contains { $0.hasPrefix("adapters: ") }, "\(outcome.tail)")
    }

    // MARK: Helpers

    /// What vectors/ holds, counted from the JSON here: "N suites, N cases, N steps, N inputs, N input bytes".
    static func countVectors() throws -> String {
        let directory = repository.appendingPathComponent("vectors")
        let schemas: Set<String> = ["schema.json", "exec-suite.schema.json", "exec-results.schema.json"]
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") && !schemas.contains($0) && !$0.hasSuffix(".schema.json") }
        var cases = 0, steps = 0, inputs = 0, bytes = 0
        for name in names {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            let suite = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name)")
            let suiteCases = try #require(suite["cases"] as? [[String: Any]], "\(name)")
            cases += suiteCases.count
            for caseObject in suiteCases {
                let caseSteps = try #require(caseObject["steps"] as? [[String: Any]], "\(name)")
                steps += caseSteps.count
                for step in caseSteps {
                    let values = try #require(step["inputs"] as? [String: String], "\(name)")
                    inputs += values.count
                    for value in values.values {
                        bytes += try #require(Data(base64Encoded: value), "\(name): an input is not base64").count
                    }
                }
            }
        }
        #expect(names.count >= 6, "\(names)")
        return "\(names.count) suites, \(cases) cases, \(steps) steps, \(inputs) inputs, \(bytes) input bytes"
    }

    static func onPath(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(tool)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the script with this process's environment, within `timeout`.
    static func runScript() throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path]
        process.currentDirectoryURL = repository
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdoutDrain = PipeDrain(out)
        let stderrDrain = PipeDrain(err)

        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        if process.isRunning {
            process.terminate()
            Thread.sleep(forTimeInterval: 2)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw ScriptTimedOut(description: "scripts/check-vector-packages did not finish within \(Int(timeout)) s; terminated")
        }
        process.waitUntilExit()
        // pip and go have exited with the script; a few seconds' grace for the pipes to close.
        guard let outData = stdoutDrain.wait(until: Date().addingTimeInterval(10)),
              let errData = stderrDrain.wait(until: Date().addingTimeInterval(10)) else {
            throw ScriptTimedOut(description: "scripts/check-vector-packages exited but its output pipes stayed open")
        }
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }
}
