/// A wrong command line: printed as one line on stderr, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One option a command accepts, for parsing and for `--help`.
struct OptionSpec {
    let name: String
    /// Placeholder of the value (`FILE`, `N`); nil for a flag.
    let value: String?
    let help: String
}

extension OptionSpec {
    static let seed = OptionSpec(name: "seed", value: "N", help: "Seed everything forged is derived from (default 1).")
    static let outDirectory = OptionSpec(name: "out", value: "DIR", help: "Directory to write into (created if missing).")
    static let quiet = OptionSpec(name: "quiet", value: nil, help: "Nothing on stderr but errors: no progress, no notes.")
    static let color = OptionSpec(name: "color", value: "WHEN", help: "Colour the console report: auto (default: on a terminal without NO_COLOR), always or never.")
}

/// GNU-style long options, parsed by hand (no outside packages): `--name value`, `--name=value`, flags, and
/// `--` to end options. Repeated options keep the last value.
struct Arguments {
    private(set) var values: [String: String] = [:]
    /// Every value of an option given more than once (`--verifier A --verifier B`), in order; `values` keeps the last.
    private(set) var repeated: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    init(_ arguments: [String], accepting specs: [OptionSpec]) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" {
                flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError("unknown option \(argument)") }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if name == "help" {
                flags.insert("help")
                continue
            }
            guard let spec = specs.first(where: { $0.name == name }) else {
                let suggestion = Suggestion.closest(to: name, among: specs.map(\.name)).map { " (did you mean --\($0)?)" } ?? ""
                throw UsageError("unknown option --\(name)\(suggestion)")
            }
            if spec.value == nil {
                if inlineValue != nil { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if let inlineValue {
                values[name] = inlineValue
                repeated[name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else { throw UsageError("--\(name) needs a value (\(spec.value ?? "VALUE"))") }
                values[name] = arguments[index]
                repeated[name, default: []].append(arguments[index])
                index += 1
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// Every value given for `name`, in order.
    func all(_ name: String) -> [String] { repeated[name] ?? [] }
    func value(_ name: String) -> String? { values[name] }

    func required(_ name: String) throws -> String {
        guard let value = values[name], !value.isEmpty else { throw UsageError("missing --\(name)") }
        return value
    }

    /// `--seed N`: a decimal unsigned 64-bit integer, 1 when absent.
    /// A finite number within `range` (timeouts, rates): `inf`, `nan`, `1e300` and `1e-300` are usage errors, not
    /// waits without end or crashes further down.
    /// Only decimal notation is read (`2`, `0.5`, `1e2`): `Double` alone also reads `0x10` as sixteen and `0x1p1` as a
    /// hex float, which no user means.
    func number(_ name: String, default fallback: Double, in range: ClosedRange<Double>, _ unit: String) throws -> Double {
        guard let text = values[name] else { return fallback }
        let decimal = !text.isEmpty && text.unicodeScalars.allSatisfy { "0123456789.eE+-".unicodeScalars.contains($0) }
        guard decimal, let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("bad --\(name) \"\(text)\": expected \(unit) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func seed() throws -> UInt64 {
        guard let text = values["seed"] else { return 1 }
        guard let seed = UInt64(text) else { throw UsageError("bad seed \"\(text)\": expected a decimal number from 0 to \(UInt64.max)") }
        return seed
    }

    /// `--color auto|always|never`; auto is `terminal` (stdout is a terminal and NO_COLOR is unset).
    func color(terminal: Bool) throws -> Bool {
        switch values["color"] ?? "auto" {
        case "auto": return terminal
        case "always": return true
        case "never": return false
        case let other: throw UsageError("bad --color \"\(other)\"; expected auto, always or never")
        }
    }

    func rejectPositional() throws {
        if let first = positional.first { throw UsageError("unexpected argument \"\(first)\"") }
    }
}
