import Foundation

/// A subcommand of `attest-harness`.
protocol Command {
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
    static func write(_ text: String, to path: String?) throws {
        if let path {
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw UsageError("cannot write \(path): \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    static func writeFile(_ bytes: [UInt8], to url: URL) throws {
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw UsageError("cannot write \(url.path): \(error.localizedDescription)")
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
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    static func endProgress() {
        guard stderrIsTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
