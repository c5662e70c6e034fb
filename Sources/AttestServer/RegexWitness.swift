import Foundation

/// A text in which a capture's regular expression finds a given value (its first group, or the whole match without
/// one): what the emulation writes where a map captures with `regex`, so a map that lifts a CSRF token out of a
/// login form's hidden field (`name="csrfmiddlewaretoken" value="([^"]+)"`) runs against its own emulation.
///
/// The pattern's other parts are written out as the simplest text they match: a literal as itself, a class as one
/// of its characters, an optional or starred part left out, a repetition at its least count, an alternation as its
/// first branch, a negative lookaround and an anchor as nothing. The result is then searched with the pattern itself, and
/// kept only if the pattern finds exactly `value` in it: a construct this reading does not know (a back reference,
/// a property class) gives nil, never a text the map would read differently.
enum RegexWitness {
    /// Longest pattern written out (a capture's pattern is at most 1024 bytes when the map is read).
    static let patternLimit = 1024

    static func text(for regex: NSRegularExpression, finding value: String) -> String? {
        let pattern = Array(regex.pattern)
        guard pattern.count <= patternLimit else { return nil }
        var candidates: [String] = []
        var writer = Writer(pattern: pattern, value: value)
        if let written = writer.alternation(), writer.position == pattern.count { candidates.append(written) }
        candidates.append(value)
        return candidates.first { finds(regex, value, in: $0) }
    }

    /// Whether `regex` finds `value` in `text`, read the way a capture reads it (`Capture.value(in:)`).
    static func finds(_ regex: NSRegularExpression, _ value: String, in text: String) -> Bool {
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return false }
        let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard range.location != NSNotFound, let found = Range(range, in: text) else { return false }
        return text[found] == value
    }

    /// Characters tried, in order, for a class or a class escape.
    static let classCandidates: [Character] = Array("a0x -_\"'=./:;,<>AZz9") + (0x21...0x7e).map { Character(UnicodeScalar($0)) }

    struct Writer {
        let pattern: [Character]
        let value: String
        var position = 0
        /// Whether the first capturing group has been passed (its text is `value`).
        var groupSeen = false
        /// Nesting depth, bounded so that a hostile pattern cannot exhaust the stack.
        var depth = 0

        init(pattern: [Character], value: String) {
            self.pattern = pattern
            self.value = value
        }

        var current: Character? { position < pattern.count ? pattern[position] : nil }

        /// Branches up to the closing parenthesis or the end: the first branch's text (the others are read past).
        mutating func alternation() -> String? {
            guard depth < 32 else { return nil }
            depth += 1
            defer { depth -= 1 }
            guard let first = sequence() else { return nil }
            while current == "|" {
                position += 1
                let seen = groupSeen
                guard sequence() != nil else { return nil }
                groupSeen = seen || groupSeen
            }
            return first
        }

        mutating func sequence() -> String? {
            var text = ""
            while let character = current, character != "|", character != ")" {
                guard let (atom, holdsValue) = atom() else { return nil }
                guard let count = quantifier() else { return nil }
                // The group holding the value is written once, whatever its quantifier says.
                text += String(repeating: atom, count: holdsValue ? 1 : count)
            }
            return text
        }

        /// The least count of the quantifier after an atom (1 without one), or nil for one that cannot be read.
        mutating func quantifier() -> Int? {
            var count = 1
            switch current {
            case "*", "?": count = 0; position += 1
            case "+": count = 1; position += 1
            case "{":
                var digits = ""
                var cursor = position + 1
                while cursor < pattern.count, pattern[cursor].isASCII, pattern[cursor].isNumber { digits.append(pattern[cursor]); cursor += 1 }
                guard !digits.isEmpty, let least = Int(digits), least <= 64 else { return nil }
                while cursor < pattern.count, pattern[cursor] != "}" { cursor += 1 }
                guard cursor < pattern.count else { return nil }
                count = least
                position = cursor + 1
            default: return 1
            }
            if current == "?" || current == "+" { position += 1 }
            return count
        }

        /// One atom's text, and whether it holds the value (the first capturing group).
        mutating func atom() -> (String, Bool)? {
            guard let character = current else { return nil }
            position += 1
            switch character {
            case "(": return group()
            case "[": return characterClass().map { (String($0), false) }
            case "\\": return escape().map { ($0, false) }
            case ".": return ("x", false)
            case "^", "$": return ("", false)
            case "*", "+", "?", "{": return nil
            default: return (String(character), false)
            }
        }

        mutating func group() -> (String, Bool)? {
            var capturing = true
            var written = true
            // Whether the group is a lookahead (true: positive), which matches without taking text.
            var lookahead: Bool?
            if current == "?" {
                position += 1
                switch current {
                case ":": position += 1; capturing = false
                case "=", "!": lookahead = current == "="; position += 1; capturing = false; written = false
                case "<" where position + 1 < pattern.count && (pattern[position + 1] == "=" || pattern[position + 1] == "!"):
                    // A positive lookbehind is written out: the text after it then follows what it looks for.
                    written = pattern[position + 1] == "="
                    position += 2; capturing = false
                case "<":
                    // A named group: capturing, and counted as a group.
                    while let next = current, next != ">" { position += 1 }
                    guard current == ">" else { return nil }
                    position += 1
                default:
                    // Flags, as (?i) or (?i:...): only the scoped form has a body.
                    while let next = current, next.isLetter || next == "-" { position += 1 }
                    if current == ")" { position += 1; return ("", false) }
                    guard current == ":" else { return nil }
                    position += 1
                    capturing = false
                }
            }
            let holdsValue = capturing && !groupSeen
            if holdsValue { groupSeen = true }
            guard let inner = alternation(), current == ")" else { return nil }
            position += 1
            if holdsValue { return (value, true) }
            // A positive lookahead that ends its branch is written out (what must follow is then there); one with
            // more after it would overlap that text, so it is left to the check.
            if lookahead == true, current == nil || current == ")" || current == "|" { return (inner, false) }
            return (written ? inner : "", false)
        }

        /// A bracketed class (the opening bracket read): one character it matches, checked with the class itself.
        mutating func characterClass() -> Character? {
            let start = position - 1
            if current == "^" { position += 1 }
            if current == "]" { position += 1 }
            var nesting = 0
            while let character = current {
                position += 1
                if character == "\\" { position += 1; continue }
                if character == "[" { nesting += 1; continue }
                if character == "]" {
                    if nesting == 0 { break }
                    nesting -= 1
                }
            }
            guard position <= pattern.count, pattern[position - 1] == "]" else { return nil }
            let source = String(pattern[start..<position])
            guard let single = try? NSRegularExpression(pattern: "^" + source + "$") else { return nil }
            return RegexWitness.classCandidates.first { candidate in
                let text = String(candidate)
                return single.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            }
        }

        /// An escape (the backslash read): its text, or nil for one this reading does not write out.
        mutating func escape() -> String? {
            guard let character = current else { return nil }
            position += 1
            switch character {
            case "d": return "0"
            case "w": return "a"
            case "s": return " "
            case "D", "S": return "x"
            case "W": return " "
            case "b", "B", "A", "z", "Z", "G": return ""
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "Q":
                var literal = ""
                while position < pattern.count {
                    if pattern[position] == "\\", position + 1 < pattern.count, pattern[position + 1] == "E" { position += 2; return literal }
                    literal.append(pattern[position])
                    position += 1
                }
                return literal
            case "x", "u", "p", "P", "k", "N", "X", "R", "h", "H", "v", "V": return nil
            default:
                if character.isNumber { return nil }
                return String(character)
            }
        }
    }
}
