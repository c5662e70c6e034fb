/// Text for an HTML page: control and direction characters made visible first (`DisplayText`), then `&`, `<`, `>`,
/// `"` and `'` escaped, so that it is safe as element content and inside double- or single-quoted attributes. Every
/// value a page shows from a report, a verifier or evidence goes through here.
package enum HTMLText {
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in DisplayText.safe(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
