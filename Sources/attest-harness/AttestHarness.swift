import AttestConformance
import Foundation

/// `attest-harness`: forge attestation evidence, run conformance cases against verifiers, write vectors.
@main
enum AttestHarness {
    static var commands: [any Command.Type] {
        [ListCommand.self, ForgeCommand.self, RootsCommand.self, VectorsCommand.self, RunCommand.self, ServeCommand.self, ExecReferenceCommand.self, PreflightCommand.self]
    }

    static var help: String {
        var lines = ["OVERVIEW: Proves whether a device-attestation verifier is right.", "",
                     "USAGE: attest-harness <command> [options]", "       attest-harness --version", "", "COMMANDS:"]
        let width = commands.map { $0.name.count }.max() ?? 0
        lines += commands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.abstract }
        lines += ["", "See 'attest-harness <command> --help' for a command's options.",
                  "Exit status: 0 conformant, 1 findings, 2 usage or harness error."]
        return lines.joined(separator: "\n") + "\n"
    }

    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let first = arguments.first else { fail("needs a command; see attest-harness --help") }
        if ["-h", "--help", "help"].contains(first) {
            FileHandle.standardOutput.write(Data(help.utf8))
            exit(0)
        }
        if ["--version", "version"].contains(first) {
            FileHandle.standardOutput.write(Data("attest-harness \(HarnessVersion.current)\n".utf8))
            exit(0)
        }
        arguments.removeFirst()
        guard let command = commands.first(where: { $0.name == first }) else {
            fail("unknown command \"\(first)\"; commands: \(commands.map { $0.name }.joined(separator: ", "))")
        }
        do {
            let parsed = try Arguments(arguments, accepting: command.options)
            if parsed.flag("help") {
                FileHandle.standardOutput.write(Data(command.help.utf8))
                exit(0)
            }
            exit(try await command.run(parsed))
        } catch let error as UsageError {
            fail("\(command.name): \(error)")
        } catch {
            fail("\(command.name): \(error)")
        }
    }

    /// One line on stderr, exit status 2.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("attest-harness \(message)\n".utf8))
        exit(2)
    }
}
