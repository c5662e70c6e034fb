import AttestConformance
import CAttestSpawn
import Foundation

/// `exec:<command>`: a verifier in any language behind a process boundary (x509-limbo's harness contract).
///
/// Each case runs in a fresh child (`/bin/sh -c "exec <command>"`, so state cannot leak between cases): the
/// harness writes an `ExecSuite` holding that one case on its stdin and reads one `ExecResults` document from its
/// stdout. The child's stderr passes through as progress. A child killed by a signal is a crash (never a
/// verdict); a non-zero exit, a malformed or oversized answer, or an answer for another case is a contract
/// failure (a harness error, never a verdict); no answer within the timeout is a HANG.
///
/// The child starts clean (`attest_spawn_shell`): its own process group, an empty signal mask with default
/// dispositions, and only descriptors 0, 1 and 2. At the deadline the whole group gets SIGTERM, then SIGKILL a
/// second later; after the child exits, anything it left running in its group is killed too. A background helper
/// that keeps stdout open does not turn an answer into a HANG: once the child has exited, its output is read for a
/// short grace period and used as it stands.
public struct ExecVerifier: AttestationVerifier {
    public let command: String
    public let timeout: TimeInterval
    /// Answers larger than this are refused (a hostile child cannot make the harness allocate without bound).
    public let outputLimit: Int
    /// How long output is still read after the child exits, for descendants that hold stdout open.
    static let exitGrace: TimeInterval = 0.5
    /// Suite mode (`run --exec-suite N`): up to this many cases per child, for adapters with an expensive start-up
    /// (a JVM). Each child gets the whole `timeout` for its suite; a child that hangs, crashes or answers garbage
    /// is stopped and its cases are retried one per child, so a bad case costs only itself. 1: one case per child.
    public let suiteSize: Int

    public init(command: String, timeout: TimeInterval = 10, outputLimit: Int = 16 << 20, suiteSize: Int = 1) {
        self.command = command
        self.timeout = timeout
        self.outputLimit = outputLimit
        self.suiteSize = max(1, suiteSize)
    }

    public var name: String { "exec:\(command)" }

    /// The command must start: the shell answers 127 (not found) or 126 (not executable) at once otherwise. The
    /// probe gets an empty stdin, so a working adapter fails to read a suite and exits, or is stopped at the timeout.
    public func prepare() async throws {
        // The probe's own complaints about its empty input stay out of the user's terminal.
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let child = try Child(command: "exec \(command)", stderr: null >= 0 ? null : STDERR_FILENO)
        defer { child.release() }
        child.feed(Data())
        _ = BoundedReader(descriptor: child.stdout, limit: 1 << 16)
        let status = await waitForCompletion(child.exited, seconds: min(timeout, 5)) {
            child.killGroup(SIGKILL)
            _ = await child.exited.wait()
        }
        if status == 127 || status == 126 {
            throw VerifierFailure.contract("exec: \(command) cannot start (the shell answered \(status == 127 ? "command not found" : "not executable"))")
        }
    }

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        let results = try await judge(ExecSuite(profile: profile, requests: [testCase]))
        guard let verdicts = results.results.first(where: { $0.id == testCase.id })?.verdicts else {
            throw VerifierFailure.contract("the results have no entry for case \(testCase.id)")
        }
        return verdicts
    }

    /// One child for all of `cases`; when it hangs, crashes or breaks the contract, each case again in a child of
    /// its own (where a hang is that case's HANG).
    public func verdicts(forSuite cases: [VerifierCase], profile: Profile) async -> [Result<[Verdict], any Error>] {
        if cases.count > 1, let results = try? await judge(ExecSuite(profile: profile, requests: cases)) {
            var byId: [String: [Verdict]] = [:]
            for entry in results.results where byId[entry.id] == nil { byId[entry.id] = entry.verdicts }
            return cases.map { testCase in
                byId[testCase.id].map { .success($0) }
                    ?? .failure(VerifierFailure.contract("the results have no entry for case \(testCase.id)"))
            }
        }
        return await verdictsOneByOne(cases, profile: profile)
    }

    /// What one case's verdicts may take in a results document: a verdict's reason is a few hundred bytes, and
    /// decoding costs several times the document's size in memory and time, so a suite's answer is bounded by its
    /// cases, not only by `outputLimit`.
    static let perCaseOutputLimit = 1 << 20

    /// Runs one child on `suite` and reads its results document, within the timeout.
    private func judge(_ suite: ExecSuite) async throws -> ExecResults {
        let started = Date()
        let input = try JSONEncoder.harness.encode(suite)
        let child = try Child(command: "exec \(command)")
        defer { child.release() }  // whatever the adapter left running in its group
        let limit = min(outputLimit, Self.perCaseOutputLimit * max(1, suite.cases.count))
        let reader = BoundedReader(descriptor: child.stdout, limit: limit)
        defer { reader.abandon() }  // a helper still writing to the pipe costs nothing once the case is over
        child.feed(input)
        let exited = await waitForCompletion(child.exited, seconds: timeout) {
            child.killGroup(SIGTERM)
            if await waitForCompletion(child.exited, seconds: 1, onTimeout: { child.killGroup(SIGKILL) }) == nil {
                _ = await child.exited.wait()
            }
        }
        guard let status = exited else { throw VerifierFailure.hang(seconds: timeout) }
        let remaining = max(0, started.addingTimeInterval(timeout).timeIntervalSinceNow)
        let output = await waitForCompletion(reader.done, seconds: min(remaining, Self.exitGrace)) {
            await reader.done.deliver(reader.partial())
        } ?? reader.partial()
        guard !reader.overflowed else { throw VerifierFailure.contract("the results document is larger than the limit") }
        guard status == 0 else {
            if status < 0 { throw VerifierFailure.contract("cannot wait for \(command): \(String(cString: strerror(-status)))") }
            if status > 128 { throw VerifierFailure.crash("\(command) was killed by signal \(status - 128)\(Self.signalName(status - 128))") }
            throw VerifierFailure.contract("\(command) exited with status \(status)")
        }
        let results: ExecResults
        do {
            results = try JSONDecoder.harness.decode(ExecResults.self, from: output)
        } catch {
            throw VerifierFailure.contract(output.isEmpty ? "\(command) wrote no results document on stdout" : "the results document is not valid: \(error.plainDescription)")
        }
        guard results.format == ExecResults.formatVersion else {
            throw VerifierFailure.contract("results format \"\(results.format)\" is not \(ExecResults.formatVersion)")
        }
        return results
    }
}

extension ExecVerifier {
    /// ` (SIGSEGV)` for the common signals a crashing verifier dies of, else nothing.
    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
                                      SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP"]
        return names[number].map { " (\($0))" } ?? ""
    }
}

/// One child process and the harness's ends of its stdin and stdout pipes.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`; the descriptors are closed once, by the
/// feeding thread (stdin) and the reader (stdout).
private final class Child: @unchecked Sendable {
    let pid: pid_t
    let stdin: Int32
    let stdout: Int32
    let exited = Completion<Int32>()

    init(command: String, stderr: Int32 = STDERR_FILENO) throws {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard attest_pipe(&input) == 0 else { throw VerifierFailure.contract("cannot create a pipe: \(String(cString: strerror(errno)))") }
        guard attest_pipe(&output) == 0 else {
            close(input[0]); close(input[1])
            throw VerifierFailure.contract("cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        let spawned = attest_spawn_shell(command, input[0], output[1], stderr)
        // The child has its own copies of its ends (or never started).
        close(input[0])
        close(output[1])
        guard spawned > 0 else {
            close(input[1]); close(output[0])
            throw VerifierFailure.contract("cannot start \(command): \(String(cString: strerror(-spawned)))")
        }
        pid = spawned
        stdin = input[1]
        stdout = output[0]
        let pid = spawned, exited = exited
        Thread.detachNewThread { exited.deliverSoon(attest_wait(pid)) }
    }

    /// Writes `bytes` to the child's stdin on a thread of its own, then closes it. A child that exits without
    /// reading makes the write fail (EPIPE; the harness ignores SIGPIPE).
    func feed(_ bytes: Data) {
        let descriptor = stdin
        Thread.detachNewThread {
            signal(SIGPIPE, SIG_IGN)
            var offset = 0
            let all = [UInt8](bytes)
            while offset < all.count {
                let written = all[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
            close(descriptor)
        }
    }

    /// Signals the child's whole process group (its descendants included).
    func killGroup(_ signal: Int32) { _ = attest_signal_group(pid, signal) }

    /// Kills the whole group and stops remembering it for the cleanup handlers: the child's last call.
    func release() { attest_release_group(pid) }
}

/// Reads a pipe to its end on a thread of its own, refusing more than `limit` bytes; `done` delivers the bytes.
///
/// `@unchecked Sendable`: the buffer is guarded by `lock`.
private final class BoundedReader: @unchecked Sendable {
    let done = Completion<Data>()
    private let lock = NSLock()
    private var data = Data()
    private var overflow = false
    private var abandoned = false

    init(descriptor: Int32, limit: Int) {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                lock.withLock {
                    if abandoned { return }
                    if data.count + count > limit {
                        overflow = true  // keep draining so the child is not blocked, but keep nothing more
                    } else {
                        data.append(contentsOf: chunk[0..<count])
                    }
                }
            }
            close(descriptor)
            done.deliverSoon(partial())
        }
    }

    /// What was read so far.
    func partial() -> Data { lock.withLock { data } }

    /// Keeps draining the pipe (so a writer is never blocked) but holds nothing more.
    func abandon() {
        lock.withLock {
            abandoned = true
            data = Data()
        }
    }

    var overflowed: Bool { lock.withLock { overflow } }
}
