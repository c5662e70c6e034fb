import AttestCatalogue
import AttestConformance
import Foundation

/// `attest-harness completions bash|zsh|fish`: a completion script written from the commands' own option lists (the
/// same specs `--help` prints), with the built-in profiles, report formats and `--fail-on` words as values.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a shell completion script (bash, zsh or fish) for attest-harness."
    static let usage = "bash|zsh|fish"
    static let options: [OptionSpec] = []

    static let shells = ["bash", "zsh", "fish"]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        guard arguments.positional.count == 1, let shell = arguments.positional.first, shells.contains(shell) else {
            let given = arguments.positional.first ?? ""
            let suggestion = Suggestion.closest(to: given, among: shells).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError("completions takes one shell\(suggestion): \(shells.joined(separator: ", "))")
        }
        try Output.write(script(for: shell), to: nil)
        return 0
    }

    /// Option values worth completing: the option name and its words.
    static var values: [(option: String, words: [String])] {
        [("profile", BuiltinCatalogue.profiles.map(\.name)),
         ("format", ["console", "json", "junit", "markdown", "sarif", "html", "table"]),
         ("fail-on", FailureGate.words), ("progress", ["auto", "always", "never"])]
    }

    static func script(for shell: String) -> String {
        let commands = AttestHarness.commands
        let names = (commands.map { $0.name } + ["help"]).joined(separator: " ")
        switch shell {
        case "bash", "zsh":
            var lines = [
                "# attest-harness completion for \(shell): source it, or put it where your shell loads completions.",
            ]
            if shell == "zsh" { lines.append("autoload -U +X bashcompinit && bashcompinit") }
            lines += [
                "_attest_harness() {",
                "    local cur prev command options",
                "    cur=\"${COMP_WORDS[COMP_CWORD]}\"",
                "    prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
                "    command=\"${COMP_WORDS[1]}\"",
                "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
                "        COMPREPLY=($(compgen -W \"\(names) --help --version\" -- \"$cur\"))",
                "        return 0",
                "    fi",
                "    case \"$prev\" in",
            ]
            for (option, words) in values {
                lines.append("        --\(option)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return 0 ;;")
            }
            lines += ["    esac", "    case \"$command\" in"]
            for command in commands {
                let options = (command.options.map { "--\($0.name)" } + ["--help"]).joined(separator: " ")
                lines.append("        \(command.name)) options=\"\(options)\" ;;")
            }
            lines += [
                "        help) options=\"\(commands.map { $0.name }.joined(separator: " "))\" ;;",
                "        *) options=\"\" ;;",
                "    esac",
                "    COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
                "    # A file or directory where no option is being completed.",
                "    if [ ${#COMPREPLY[@]} -eq 0 ] && [ \"${cur#-}\" = \"$cur\" ]; then COMPREPLY=($(compgen -f -- \"$cur\")); fi",
                "}",
                "complete -F _attest_harness attest-harness",
            ]
            return lines.joined(separator: "\n") + "\n"
        default:
            var lines = ["# attest-harness completion for fish: save as ~/.config/fish/completions/attest-harness.fish"]
            for command in commands {
                lines.append("complete -c attest-harness -f -n '__fish_use_subcommand' -a \(command.name) -d \(fishQuoted(command.abstract))")
                for option in command.options {
                    let required = option.value == nil ? "" : " -r"
                    let words = values.first { $0.option == option.name }.map { " -a \(fishQuoted($0.words.joined(separator: " "), limit: nil))" } ?? ""
                    lines.append("complete -c attest-harness -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name)\(required)\(words) -d \(fishQuoted(option.help))")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// `text` in single quotes for fish, its quotes and backslashes escaped, on one line, cut at `limit` characters
    /// (a description; a list of values is kept whole).
    static func fishQuoted(_ text: String, limit: Int? = 120) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let flat = limit.map { String(line.prefix($0)) } ?? line
        return "'" + flat.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
