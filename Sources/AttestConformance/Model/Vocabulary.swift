/// A word of the harness's vocabulary: a string on the wire (exec and vector documents, reports), a distinct type in
/// Swift, so a step kind cannot be passed where an input key is expected. Each family declares its words as static
/// constants (AttestEvidence's `Vocabulary` folder); decoding accepts any string, so documents from newer versions
/// still read.
public protocol VocabularyTerm: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible
where RawValue == String {
    init(_ rawValue: String)
}

extension VocabularyTerm {
    public init(rawValue: String) { self.init(rawValue) }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// An evidence family's name (`app-attest`, `android-key`, `webauthn`, ...).
public struct FamilyName: VocabularyTerm {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// What a step asks the verifier to judge (`app-attest.attestation`, `webauthn.assertion`, ...).
public struct StepKind: VocabularyTerm {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The name of one byte-string input of a step (`attestationObject`, `challenge`, `header.X-Platform`, ...).
public struct InputKey: VocabularyTerm {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

extension Dictionary where Key: VocabularyTerm {
    /// The same entries keyed by their wire spelling, for JSON documents.
    package var spelled: [String: Value] { Dictionary<String, Value>(uniqueKeysWithValues: map { ($0.key.rawValue, $0.value) }) }
}

extension Dictionary where Key == String {
    /// The same entries keyed by vocabulary terms.
    package func keyed<Term: VocabularyTerm>(as _: Term.Type) -> [Term: Value] {
        Dictionary<Term, Value>(uniqueKeysWithValues: map { (Term($0.key), $0.value) })
    }
}
