import AttestConformance
import Foundation

/// `exec:<command>`: a verifier in any language behind a process boundary (x509-limbo's harness contract).
///
/// Each case runs in a fresh child (`/bin/sh -c "exec <command>"`, so state cannot leak between cases): the
/// harness writes an `ExecSuite` holding that one case on its stdin and reads one `ExecResults` document from its
/// stdout. The child's stderr passes through as progress. A non-zero exit, a malformed or oversized answer, or
/// an answer for another case is a contract failure (a harness error, never a verdict); no answer within the
/// timeout is a HANG.
public struct ExecVerifier: AttestationVerifier {
    public let command: String
    public let timeout: TimeInterval
    /// Answers larger than this are refused (a hostile child cannot make the harness allocate without bound).
    public let outputLimit: Int

    public init(command: String, timeout: TimeInterval = 10, outputLimit: Int = 16 << 20) {
        self.command = command
        self.timeout = timeout
        self.outputLimit = outputLimit
    }

    public var name: String { "exec:\(command)" }

    /// Writing to a child that exited without reading raises SIGPIPE, which would kill the harness.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        _ = Self.ignoreBrokenPipes
        let started = Date()
        let input = try JSONEncoder.harness.encode(ExecSuite(profile: profile, requests: [testCase]))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(command)"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        let exited = Completion<Int32>()
        process.terminationHandler = { exited.deliverSoon($0.terminationStatus) }
        do {
            try process.run()
        } catch {
            throw VerifierFailure.contract("cannot start \(command): \(error.localizedDescription)")
        }
        let reader = BoundedReader(stdout.fileHandleForReading, limit: outputLimit)
        DispatchQueue.global().async {
            // A child that exits without reading makes this write fail (SIGPIPE is ignored by the harness).
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        // The whole case, reading included, shares one deadline: a grandchild holding stdout open is a hang too.
        let status = await waitForCompletion(exited, seconds: timeout) {
            process.terminate()
            if await waitForCompletion(exited, seconds: 1, onTimeout: {
                kill(process.processIdentifier, SIGKILL)
            }) == nil {
                _ = await exited.wait()
            }
        }
        guard let status else { throw VerifierFailure.hang(seconds: timeout) }
        let remaining = max(0, started.addingTimeInterval(timeout).timeIntervalSinceNow)
        guard let read = await waitForCompletion(reader.done, seconds: remaining, onTimeout: {
            await reader.done.deliver(nil)
        }), let output = read else {
            throw VerifierFailure.hang(seconds: timeout)
        }
        guard !reader.overflowed else { throw VerifierFailure.contract("the results document is larger than the limit") }
        guard status == 0 else {
            throw VerifierFailure.contract("\(command) exited with status \(status)")
        }
        let results: ExecResults
        do {
            results = try JSONDecoder.harness.decode(ExecResults.self, from: output)
        } catch {
            throw VerifierFailure.contract("the results document is not valid: \(error)")
        }
        guard results.format == ExecResults.formatVersion else {
            throw VerifierFailure.contract("results format \"\(results.format)\" is not \(ExecResults.formatVersion)")
        }
        guard let verdicts = results.results.first(where: { $0.id == testCase.id })?.verdicts else {
            throw VerifierFailure.contract("the results have no entry for case \(testCase.id)")
        }
        return verdicts
    }
}

/// Reads a pipe to its end on a thread of its own, refusing more than `limit` bytes; `done` delivers the bytes
/// (nil when the harness stopped waiting).
///
/// `@unchecked Sendable`: `data` and `overflow` are written only by the reading thread before it delivers `done`,
/// and read only after `done` delivered.
private final class BoundedReader: @unchecked Sendable {
    let done = Completion<Data?>()
    private var data = Data()
    private var overflow = false

    init(_ handle: FileHandle, limit: Int) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                if data.count + chunk.count > limit {
                    overflow = true
                    continue  // keep draining so the child is not blocked, but keep nothing
                }
                data.append(chunk)
            }
            done.deliverSoon(data)
        }
    }

    /// Whether the output went over the limit; read only after `done` delivered.
    var overflowed: Bool { overflow }
}
