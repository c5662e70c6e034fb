/// A stable dotted rule identifier such as `appattest.nonce` or `chain.validity`.
public struct RuleID: VocabularyTerm, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
}

/// What goes wrong in a verifier that misses a rule, for grouping findings.
public enum BugClass: String, Hashable, Sendable, Codable, CaseIterable {
    /// Evidence bound to another challenge, app or request is accepted.
    case binding
    /// Evidence not traced to a trusted root, or traced through a bad certificate.
    case trust
    /// Evidence replayed or its counter not advanced.
    case replay
    /// A device or key property the policy forbids is accepted.
    case policy
    /// Malformed or ambiguous encodings are accepted.
    case parsing
    /// A signature that proves nothing is accepted.
    case signature
}

/// One check a verifier must make.
public struct Rule: Hashable, Sendable, Codable {
    public let id: RuleID
    /// One line: what must hold.
    public let statement: String
    /// The specification clause or document the rule comes from.
    public let source: String
    public let bugClass: BugClass
    /// Advisories, issues and CVEs of verifiers that missed this rule.
    public let references: [String]

    public init(_ id: RuleID, _ statement: String, source: String, bugClass: BugClass, references: [String] = []) {
        self.id = id
        self.statement = statement
        self.source = source
        self.bugClass = bugClass
        self.references = references
    }
}
