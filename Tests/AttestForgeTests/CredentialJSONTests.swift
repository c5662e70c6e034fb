import AttestForge
import Foundation
import Testing

/// The credential JSON the forge writes itself is byte for byte what Foundation's `JSONSerialization` writes with
/// sorted keys and unescaped slashes (the vectors' committed bytes depend on it), over every control character,
/// quotes, backslashes, slashes, non-ASCII text and random nested documents.
@Suite struct CredentialJSONTests {
    typealias Member = CredentialJSON.JSONMember

    static func foundation(_ member: Member) -> Any {
        switch member {
        case .text(let text): return text
        case .number(let number): return number
        case .boolean(let flag): return flag
        case .array(let items): return items.map(foundation)
        case .object(let members): return members.mapValues(foundation)
        }
    }

    static func reference(_ members: CredentialJSON.Members) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: members.mapValues(foundation), options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    @Test func everyCharacterClassIsWrittenAsFoundationWritesIt() throws {
        var text = ""
        for value in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        text += "é€😀\u{2028}\u{FEFF}/\\\""
        let members: CredentialJSON.Members = ["text": .text(text), "z": .number(-9_223_372_036_854_775_808), "a": .boolean(false),
                                               "nested": .object(["b": .array([.boolean(true), .number(0), .text("")]), "a": .object([:])]),
                                               "é": .text("key not ASCII"), "A": .array([])]
        #expect(try CredentialJSON.text(members) == Self.reference(members))
    }

    @Test func randomDocumentsAreWrittenAsFoundationWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab/\\\"\u{0}\u{1f}\n\té😀 -_~{}[]:,")
        func word() -> String { String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }) }
        func member(_ depth: Int) -> Member {
            switch Int.random(in: 0...(depth > 2 ? 2 : 4), using: &generator) {
            case 0: return .text(word())
            case 1: return .number(Int64.random(in: Int64.min...Int64.max, using: &generator))
            case 2: return .boolean(Bool.random(using: &generator))
            case 3: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in member(depth + 1) })
            default: return .object(Dictionary((0..<Int.random(in: 0...4, using: &generator)).map { _ in (word(), member(depth + 1)) }, uniquingKeysWith: { a, _ in a }))
            }
        }
        for _ in 0..<500 {
            let members = Dictionary((0..<Int.random(in: 0...5, using: &generator)).map { _ in (word(), member(0)) }, uniquingKeysWith: { a, _ in a })
            #expect(try CredentialJSON.text(members) == Self.reference(members), "\(members)")
        }
    }
}
