/// Text from a verifier (reasons, statuses, messages) as reports show it to people: control characters, line and
/// paragraph separators, bidirectional overrides and XML non-characters become visible `\u{XX}` escapes, so a
/// verifier under test cannot start a line in a CI log (`::error ...` workflow commands), move a terminal's cursor,
/// reorder what a reviewer reads, or break a JUnit file. Machine-readable formats (JSON) keep the raw text. The
/// command line shows every diagnostic through it too (`Output.standardError`): one message is one line.
package enum DisplayText {
    package static func safe(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let hidden = value < 0x20 || (0x7f...0x9f).contains(value) || value == 0x2028 || value == 0x2029
                || (0x202a...0x202e).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200e || value == 0x200f
                || value == 0xfffe || value == 0xffff
            if hidden {
                out += "\\u{" + String(value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` (already `safe`, with `&`, `<` and `>` already written as entities) for Markdown prose that GitHub
    /// renders (a PR comment, a job summary): every ASCII punctuation character Markdown gives a meaning (emphasis,
    /// links, images, headings, code spans, tables) is backslash-escaped, and a zero-width space follows `@`, `#`,
    /// `://` and `www`, which GitHub would otherwise turn into a mention, an issue reference or a link after
    /// Markdown's own escapes are resolved. The text reads the same; nothing in it renders as anything but text.
    package static func markdownInert(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        var previous: [Character] = []
        for character in text {
            if character.isASCII, let scalar = character.unicodeScalars.first, markdownPunctuation.contains(scalar) {
                out.append("\\")
            }
            out.append(character)
            previous = Array((previous + [character]).suffix(3))
            let tail = String(previous)
            if character == "@" || character == "#" || tail == "://" || tail.lowercased() == "www" {
                out.append("\u{200B}")
            }
        }
        return out
    }

    /// CommonMark's backslash-escapable punctuation that can open or close Markdown here (`&`, `<` and `>` are
    /// written as entities before, and an escaped `&` would show the entity's name).
    private static let markdownPunctuation = Set("\\`*_{}[]()#+-.!|~@:/=\"'$%^".unicodeScalars)
}
