import Foundation

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
        guard OutputFile.writeAll(Array(text.utf8), to: STDOUT_FILENO) else {
            throw UsageError("cannot write to standard output: \(String(cString: strerror(errno)))")
        }
    }

    /// Diagnostics and progress on stderr: best effort, since there is nowhere left to report a failure.
    static func standardError(_ text: String) {
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
        standardError("\r\u{1B}[K\(text)")
    }

    static func endProgress() {
        guard stderrIsTerminal else { return }
        standardError("\r\u{1B}[K")
    }
}
