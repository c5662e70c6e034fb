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

/// How binding a rule is: the RFC 2119 word of the clause it quotes, or none (a profile's hardening choice). A
/// finding under a POLICY rule says the verifier is less strict than the profile, not that it breaks a spec.
public enum RuleLevel: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// The clause says MUST (SHALL, REQUIRED, or a numbered verification step): a verifier that misses it does not
    /// conform.
    case must = "MUST"
    /// The clause says SHOULD (RECOMMENDED): a conforming verifier may deviate, knowingly.
    case should = "SHOULD"
    /// No clause requires it: a hardening choice of the profile (or of a platform owner's own verifier).
    case policy = "POLICY"

    private var rank: Int {
        switch self {
        case .must: 0
        case .should: 1
        case .policy: 2
        }
    }

    public static func < (lhs: RuleLevel, rhs: RuleLevel) -> Bool { lhs.rank < rhs.rank }
}

/// One check a verifier must make.
public struct Rule: Hashable, Sendable, Codable {
    public let id: RuleID
    /// One line: what must hold.
    public let statement: String
    /// How binding it is.
    public let level: RuleLevel
    /// The specification clause or document the rule comes from.
    public let source: String
    /// The binding words of that clause, quoted (for POLICY: why the profile chooses it).
    public let quote: String?
    /// What the platform owner's own verifier does about the rule, where it has one and it matters
    /// (android/keyattestation for Android; for App Attest, Apple publishes steps, not a verifier). Where it and the
    /// documentation differ, the rule says both and each profile chooses.
    public let ownerVerifier: String?
    public let bugClass: BugClass
    /// Advisories, issues and CVEs of verifiers that missed this rule.
    public let references: [String]
    /// The edition of its source since which the rule holds (`WebAuthn Level 2`, `WebAuthn Level 3`), for sources
    /// published in editions; nil for a source of one edition. A profile of an earlier edition leaves to the relying
    /// party what a later one added.
    public private(set) var since: String?
    /// The step inputs that alone carry a violation of this rule (the credential's JSON envelope): a live driver
    /// whose requests never send any of them cannot deliver such a case. Empty for most rules. Harness plumbing,
    /// not written to vectors.
    public private(set) var carriedBy: [InputKey] = []

    enum CodingKeys: String, CodingKey {
        case id, statement, level, source, quote, ownerVerifier, bugClass, references, since
    }

    public init(_ id: RuleID, _ statement: String, level: RuleLevel, quote: String? = nil, source: String,
                ownerVerifier: String? = nil, bugClass: BugClass, references: [String] = [], carriedBy: [InputKey] = []) {
        self.carriedBy = carriedBy
        self.id = id
        self.statement = statement
        self.level = level
        self.source = source
        self.quote = quote
        self.ownerVerifier = ownerVerifier
        self.bugClass = bugClass
        self.references = references
    }
}

extension Rule {
    /// The rule, holding since `edition` of its source.
    public func holding(since edition: String?) -> Rule {
        var rule = self
        rule.since = edition
        return rule
    }
}
