import Foundation

/// A server a test starts as a child process: stdout piped and its first line read (the URL or port it listens
/// on), stderr discarded. `stop()` sends SIGTERM, then SIGKILL if the child has not exited within 5 s (a parent
/// may have started it with SIGTERM blocked), and waits, so no server outlives its test.
final class ServerProcess {
    let process = Process()
    /// The first line the server printed.
    private(set) var firstLine = ""

    init(_ executable: URL, _ arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        firstLine = HTTPVerifierTests.firstLine(out)
    }

    func stop() {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
