import Foundation
import AttestConformance

/// A subcommand of `attest-harness`.
protocol Command: Sendable {
    static var name: String { get }
    static var abstract: String { get }
    static var usage: String { get }
    static var options: [OptionSpec] { get }
    /// Runs the command; returns the exit status.
    static func run(_ arguments: Arguments) async throws -> Int32
}

extension Command {
    static var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: attest-harness \(name) \(usage)", "", "OPTIONS:"]
        let rows = options.map { ("--\($0.name)" + ($0.value.map { " \($0)" } ?? ""), $0.help) }
            + [("-h, --help", "Show this help.")]
        let width = rows.map(\.0.count).max() ?? 0
        lines += rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Writing results and progress.
enum Output {
    /// `text` to `path` (`OutputFile`: never replacing what the path names), or to stdout.
    static func write(_ text: String, to path: String?) throws {
        if let path {
            do {
                try OutputFile.write(Array(text.utf8), to: path)
            } catch {
                throw UsageError("\(error)")
            }
        } else {
            try standardOutput(text)
        }
    }

    /// `text` on stdout; a failed write (a full disk, a closed stdout, a reader gone) is one error line and exit 2.
    static func standardOutput(_ text: String) throws {
        guard !standardOutputWasClosed else {
            throw UsageError("cannot write to standard output: it was closed when attest-harness started (give it one, or pass --out FILE)")
        }
        guard OutputFile.writeAll(Array(text.utf8), to: STDOUT_FILENO) else {
            throw UsageError("cannot write to standard output: \(String(cString: strerror(errno)))")
        }
    }

    /// Set once at start-up, before anything opens a file: whether descriptor 1 was closed (`>&-`). The descriptor
    /// then holds /dev/null (`holdStandardDescriptors`), so that no file the harness opens later takes its number
    /// and receives the results.
    nonisolated(unsafe) static var standardOutputWasClosed = false

    /// Gives every closed standard descriptor (0, 1, 2) /dev/null, remembering whether stdout was closed.
    static func holdStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            if descriptor == STDOUT_FILENO { standardOutputWasClosed = true }
            // open returns the lowest free descriptor: this one, since the lower ones are open by now.
            _ = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
        }
    }

    /// One diagnostic line on stderr (a trailing line feed is kept): everything in it, a server's words, a map
    /// member's name, a profile value, is shown through `DisplayText.safe`, so no input can start another line,
    /// inject a CI workflow command (`::error::`) or move a terminal's cursor. Best effort: there is nowhere left
    /// to report a failure.
    static func standardError(_ text: String) {
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        standardErrorAsWritten(DisplayText.safe(line) + (text.hasSuffix("\n") ? "\n" : ""))
    }

    /// Set once from `--quiet`, before the command runs.
    nonisolated(unsafe) static var quiet = false

    /// An informational line on stderr (what was written, a note on the run), left out under `--quiet`; errors
    /// always print.
    static func note(_ text: String) {
        if !quiet { standardError(text) }
    }

    /// The harness's own terminal control (the live progress line), as written.
    static func standardErrorAsWritten(_ text: String) {
        _ = OutputFile.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    static func writeFile(_ bytes: [UInt8], to url: URL) throws {
        do {
            try OutputFile.write(bytes, to: url.path)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// Creates `path` (and parents) as a directory.
    static func directory(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw UsageError("cannot create directory \(path): \(error.localizedDescription)")
        }
        return url
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// ANSI colour on stdout: only on a terminal, and never with NO_COLOR set.
    static var colorOnStdout: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    static func progress(_ text: String) {
        guard stderrIsTerminal else { return }
        standardErrorAsWritten("\r\u{1B}[K\(text)")
    }

    static func endProgress() {
        guard stderrIsTerminal else { return }
        standardErrorAsWritten("\r\u{1B}[K")
    }
}
