/// Text from a verifier (reasons, statuses, messages) as reports show it to people: control characters, line and
/// paragraph separators, bidirectional overrides and XML non-characters become visible `\u{XX}` escapes, so a
/// verifier under test cannot start a line in a CI log (`::error ...` workflow commands), move a terminal's cursor,
/// reorder what a reviewer reads, or break a JUnit file. Machine-readable formats (JSON) keep the raw text.
enum DisplayText {
    static func safe(_ text: String) -> String {
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
}
