import AttestConformance
import Foundation
import Testing

/// What the harness writes never replaces what a path points to, a failed write is one error line and exit 2 (never
/// a backtrace or a truncated file), and numeric options that would wait forever or crash are usage errors.
@Suite struct OutputSafetyTests {
    /// `script` under /bin/sh with `$BIN` set to the binary, within 60 s.
    static func shell(_ script: String) throws -> CommandLineTests.Result {
        try CommandLineTests.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", script],
                                    environment: ["BIN": CommandLineTests.binary.path])
    }

    static func fileType(_ path: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
    }

    static let quickRun = ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest",
                           "--filter", "appattest.valid.*", "--format", "json", "--out"]

    @Test func outThroughASymlinkKeepsTheSymlink() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("report.json").path
        let link = directory.appendingPathComponent("latest.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try CommandLineTests.run(Self.quickRun + [link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.fileType(link) == .typeSymbolicLink)
        #expect(try RunReport.load(from: URL(fileURLWithPath: target)).results.count > 0)
        // No temporary file is left beside the target.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["latest.json", "report.json"])
    }

    /// A new file gets the mode the umask allows (as the shell's `>` would), and `..` after a symlink is taken
    /// where the symlink points, as the kernel resolves it.
    @Test func newFilesFollowTheUmaskAndDotDotFollowsTheSymlink() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let private_ = try Self.shell("umask 077; \"$BIN\" \(Self.quickRun.map { "'\($0)'" }.joined(separator: " ")) '\(directory.path)/private.json'")
        #expect(private_.status == 0, "\(private_.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("private.json").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let deep = directory.appendingPathComponent("elsewhere/deep")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("sub/link").path, withDestinationPath: deep.path)
        let result = try CommandLineTests.run(Self.quickRun + [directory.appendingPathComponent("sub/link/../dotdot.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("elsewhere/dotdot.json").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("sub/dotdot.json").path))
    }

    @Test func outThroughADanglingSymlinkIsRefused() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("latest.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "nowhere/report.json")
        let result = try CommandLineTests.run(Self.quickRun + [link])
        #expect(result.status == 2)
        #expect(result.stderr.contains("symbolic link to nothing"), "\(result.stderr)")
        #expect(try Self.fileType(link) == .typeSymbolicLink)
    }

    @Test func outToAFIFOWritesThroughAndKeepsTheFIFO() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = directory.appendingPathComponent("received").path
        let result = try Self.shell("cat '\(fifo)' > '\(received)' & sleep 0.3; \"$BIN\" \(Self.quickRun.joined(separator: " ")) '\(fifo)'; status=$?; wait; exit $status")
        #expect(result.status == 0, "\(result.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
        #expect(try RunReport.load(from: URL(fileURLWithPath: received)).results.count > 0)
        // Without a reader: an error at once, not a wait.
        let started = Date()
        let lonely = try CommandLineTests.run(Self.quickRun + [fifo])
        #expect(lonely.status == 2)
        #expect(lonely.stderr.contains("cannot open"))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func outToAFullDeviceIsOneErrorLineAndTheDeviceStays() throws {
        let result = try CommandLineTests.run(Self.quickRun + ["/dev/full"])
        #expect(result.status == 2)
        #expect(CommandLineTests.diagnostics(result.stderr).count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("/dev/full"))
        #expect(try Self.fileType("/dev/full") == .typeCharacterSpecial)
    }

    @Test func aFailedWriteToStdoutIsOneErrorLine() throws {
        for redirect in ["> /dev/full", ">&-"] {
            let result = try Self.shell("\"$BIN\" list --profile apple-app-attest \(redirect)")
            #expect(result.status == 2, "\(redirect): \(result.stderr)")
            #expect(result.stderr.hasPrefix("attest-harness list: cannot write to standard output"), "\(redirect): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(redirect): \(result.stderr)")
        }
        // A closed stdout is said as such (it was "Invalid argument", from whatever took descriptor 1).
        let closed = try Self.shell("\"$BIN\" list --profile apple-app-attest >&-")
        #expect(closed.stderr.contains("it was closed") && !closed.stderr.contains("Invalid argument"), "\(closed.stderr)")
    }

    /// A file-size limit makes writes fail part-way (EFBIG), as a full disk does: no truncated vector file remains.
    @Test func vectorsOnAFullDiskLeaveNoTruncatedFile() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Self.shell("ulimit -f 200; \"$BIN\" vectors --out '\(directory.path)'")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cannot write"), "\(result.stderr)")
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("vectors")
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!written.contains { $0.contains(".partial-") }, "\(written)")
        for file in written {
            // Whatever was written is whole: byte for byte the committed file.
            #expect(try Data(contentsOf: directory.appendingPathComponent(file))
                    == Data(contentsOf: committed.appendingPathComponent(file)), "\(file) is truncated")
        }
    }

    @Test(arguments: [
        ["preflight", "--rp-id", "localhost", "--app-id", "A.b", "--package", "p", "--fingerprints", "AA", "--timeout", "inf"],
        ["preflight", "--rp-id", "localhost", "--app-id", "A.b", "--package", "p", "--fingerprints", "AA", "--timeout", "1e300"],
        ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest", "--rate", "1e-300"],
        ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest", "--timeout", "nan"],
        ["serve", "--profile", "apple-app-attest", "--without", "no.such.rule"],
        // Hexadecimal and hex-float spellings are not read as numbers nobody meant.
        ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest", "--timeout", "0x10"],
        ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest", "--rate", "0x10"],
        ["run", "--verifier", "builtin:reference", "--profile", "apple-app-attest", "--timeout", "0x1p1"],
    ])
    func numbersAndRulesThatCannotWorkAreUsageErrors(arguments: [String]) throws {
        let started = Date()
        let result = try CommandLineTests.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
    }

    /// `exec-reference --without` a rule the suite's profile does not enforce is refused, as run and serve refuse it.
    @Test func execReferenceRefusesAMutantOfAnUnknownRule() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = directory.appendingPathComponent("suite.json")
        let written = try CommandLineTests.run("forge", "--case", "appattest.valid.attestation-and-assertions", "--profile", "apple-app-attest",
                                               "--out", directory.appendingPathComponent("case").path)
        #expect(written.status == 0, "\(written.stderr)")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("case/request.json"), to: suite)
        let refused = try Self.shell("\"$BIN\" exec-reference --without no.such.rule < '\(suite.path)'")
        #expect(refused.status == 2 && refused.stdout.isEmpty, "\(refused.stderr)")
        #expect(refused.stderr.contains("does not enforce") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        let mutant = try Self.shell("\"$BIN\" exec-reference --without appattest.nonce < '\(suite.path)'")
        #expect(mutant.status == 0 && mutant.stdout.contains("attest-harness-exec-results/1"), "\(mutant.stderr)")
    }

    /// `--out newdir/` names a directory: refused before the run, and no file called `newdir` appears.
    @Test func outWithATrailingSlashIsRefused() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("newdir").path
        let result = try CommandLineTests.run(Self.quickRun + [target + "/"])
        #expect(result.status == 2 && result.stderr.contains("names a directory"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    /// Input that reaches an error message (a profile value, a map member's name) cannot write a second line, a
    /// GitHub workflow command or a terminal escape to stderr: the one-line contract holds, the bytes shown inert.
    @Test func untrustedTextInErrorsStaysOneInertLine() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = "x\r\n::error title=spoofed::PASS\u{1B}[2J\u{7}"
        let profile = directory.appendingPathComponent("profile.json")
        try JSONSerialization.data(withJSONObject: [
            "name": "hostile", "families": ["app-attest"], "rules": ["appattest.nonce"],
            "parameters": ["teamId": hostile, "bundleId": "b", "environment": hostile],
        ]).write(to: profile)
        let map = directory.appendingPathComponent("map.json")
        try JSONSerialization.data(withJSONObject: [
            "format": "attest-harness-api-map/1", "name": "m", "family": "webauthn", hostile: 1, "steps": [:], "verdict": [:],
        ]).write(to: map)
        for arguments in [["run", "--verifier", "builtin:reference", "--profile", profile.path],
                          ["run", "--verifier", "http://127.0.0.1:9", "--profile", "webauthn-l3", "--api", map.path],
                          ["list", "--profile", hostile]] {
            let result = try CommandLineTests.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            #expect(lines.count == 1, "\(arguments): \(result.stderr.debugDescription)")
            #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{7}"),
                    "\(arguments): \(result.stderr.debugDescription)")
            #expect(!lines.contains { $0.hasPrefix("::") })
        }
    }
}
