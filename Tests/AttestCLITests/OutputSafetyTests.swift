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
    ])
    func numbersAndRulesThatCannotWorkAreUsageErrors(arguments: [String]) throws {
        let started = Date()
        let result = try CommandLineTests.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
