import AttestConformance
import CAttestSpawn
import Foundation

/// `attest-harness`: forge attestation evidence, run conformance cases against verifiers, write vectors.
@main
enum AttestHarness {
    static var commands: [any Command.Type] {
        [ListCommand.self, ForgeCommand.self, RootsCommand.self, VectorsCommand.self, RunCommand.self, ReportCommand.self, ServeCommand.self, ExecReferenceCommand.self, PreflightCommand.self, ProfileCommand.self, HuntCommand.self, CompletionsCommand.self]
    }

    static var help: String {
        var lines = ["OVERVIEW: Proves whether a device-attestation verifier is right.", "",
                     "USAGE: attest-harness <command> [options]", "       attest-harness --version (-V)", "", "COMMANDS:"]
        let width = commands.map { $0.name.count }.max() ?? 0
        lines += commands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.abstract }
        lines += ["", "GLOBAL OPTIONS:", "  --no-key-cache  Derive the seed's RSA keys afresh, reading and writing no on-disk key cache (as ATTEST_HARNESS_KEY_CACHE=off)."]
        lines += ["", "See 'attest-harness help <command>' (or '<command> --help') for a command's options.",
                  "Exit status: 0 conformant, 1 findings, 2 usage or harness error."]
        return lines.joined(separator: "\n") + "\n"
    }

    static func main() async {
        // A reader that goes away (EPIPE) or a file-size limit (EFBIG) must be write errors we report, not signals
        // that kill the harness; child processes get default dispositions back (ExecVerifier).
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // A closed stdout (`>&-`) is said in words, and no file opened later gets its descriptor number.
        Output.holdStandardDescriptors()
        // Ctrl-C, a CI timeout's SIGTERM or a closed terminal kill every exec adapter still running first.
        attest_install_cleanup_handlers()
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let first = arguments.first else { fail("needs a command; see attest-harness --help") }
        if ["-h", "--help", "help"].contains(first) {
            // `help run` is run's help, as `run --help` is.
            if arguments.count > 1 {
                guard let command = commands.first(where: { $0.name == arguments[1] }) else { fail(unknownCommand(arguments[1])) }
                finish { try Output.standardOutput(command.help) }
            }
            finish { try Output.standardOutput(help) }
        }
        if ["--version", "version", "-V"].contains(first) {
            finish { try Output.standardOutput("attest-harness \(HarnessVersion.current)\n") }
        }
        arguments.removeFirst()
        guard let command = commands.first(where: { $0.name == first }) else { fail(unknownCommand(first)) }
        // --no-key-cache, before any `--`, goes with every command: derive keys afresh, reading and writing no cache.
        let optionsEnd = arguments.firstIndex(of: "--") ?? arguments.endIndex
        if arguments[..<optionsEnd].contains("--no-key-cache") {
            arguments = arguments[..<optionsEnd].filter { $0 != "--no-key-cache" } + arguments[optionsEnd...]
            setenv("ATTEST_HARNESS_KEY_CACHE", "off", 1)
        }
        do {
            let parsed = try Arguments(arguments, accepting: command.options)
            Output.quiet = parsed.flag("quiet")
            if parsed.flag("help") {
                finish { try Output.standardOutput(command.help) }
            }
            exit(try await command.run(parsed))
        } catch let error as UsageError {
            fail("\(command.name): \(error)")
        } catch {
            fail("\(command.name): \(error)")
        }
    }

    /// `unknown command "rn" (did you mean run?); commands: ...`.
    static func unknownCommand(_ name: String) -> String {
        let names = commands.map { $0.name }
        let suggestion = Suggestion.closest(to: name, among: names).map { " (did you mean \($0)?)" } ?? ""
        return "unknown command \"\(name)\"\(suggestion); commands: \(names.joined(separator: ", "))"
    }

    /// One line on stderr, exit status 2.
    static func fail(_ message: String) -> Never {
        Output.standardError("attest-harness \(message)\n")
        exit(2)
    }

    /// Runs `body` and exits 0, or fails with its error.
    static func finish(_ body: () throws -> Void) -> Never {
        do {
            try body()
        } catch {
            fail("\(error)")
        }
        exit(0)
    }
}
