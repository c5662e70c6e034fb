import Foundation
import Testing
@testable import AttestServer

/// The text the emulation writes for a capture's regular expression holds the issued value where the pattern finds
/// it, read by an independent first-group search; a pattern it cannot write out gives nil, not a wrong text.
@Suite struct RegexWitnessTests {
    static let value = "0f3a9c2b7d14e8a6b5c0d9e8f7a6b5c4"

    /// The first group (or the whole match) of `pattern` in `text`.
    static func firstGroup(_ pattern: String, _ text: String) throws -> String? {
        let regex = try NSRegularExpression(pattern: pattern)
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        return Range(range, in: text).map { String(text[$0]) }
    }

    @Test(arguments: [
        #"<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)">"#,
        #"name=['"]csrfmiddlewaretoken['"]\s+value=['"]([^'"]+)"#,
        #"^Bearer\s+(\w+)$"#,
        #"(?:token|csrf)=([0-9a-f]{32});?"#,
        #"(?i)csrf[-_]?token\W*(?<token>[A-Za-z0-9]+)"#,
        #"[0-9a-f]{32}"#,
        #"window\.__STATE__ = \{"nonce":"([^"]*)"\}"#,
        #"\Qa.b*c\E(\w+)(?=</span>)"#,
        #"^(?!x)\s{0,3}(.+?)\b"#,
        #"(?<=csrf=)([^;]+)"#,
    ])
    func theTextHoldsTheValueWhereThePatternFindsIt(pattern: String) throws {
        let regex = try NSRegularExpression(pattern: pattern)
        let text = try #require(RegexWitness.text(for: regex, finding: Self.value), "\(pattern)")
        #expect(try Self.firstGroup(pattern, text) == Self.value, "\(pattern) in \(text)")
    }

    @Test func aPatternThatCannotHoldTheValueGivesNothing() throws {
        // A back reference, a class the value's digits are not in, and a fixed length the value does not have.
        for pattern in [#"(\w+)-\1"#, #"token=([g-z]+)"#, #"^([0-9a-f]{8})$"#] {
            #expect(RegexWitness.text(for: try NSRegularExpression(pattern: pattern), finding: Self.value) == nil, "\(pattern)")
        }
    }
}
