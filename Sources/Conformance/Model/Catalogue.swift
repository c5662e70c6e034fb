/// Every rule and case the harness knows, and the built-in profiles. Families contribute data through
/// `CatalogueFamily`; nothing here knows a family's bytes.
public struct Catalogue: Sendable {
    public let rules: [Rule]
    public let profiles: [Profile]
    public let cases: [Case]

    public init(rules: [Rule], profiles: [Profile], cases: [Case]) {
        self.rules = rules
        self.profiles = profiles
        self.cases = cases
    }

    public func rule(_ id: RuleID) -> Rule? { rules.first { $0.id == id } }
    public func profile(named name: String) -> Profile? { profiles.first { $0.name == name } }
    public func `case`(id: String) -> Case? { cases.first { $0.id == id } }

    /// The cases of the families `profile` covers.
    public func cases(for profile: Profile) -> [Case] {
        cases.filter { profile.families.contains($0.family) }
    }
}

/// What an evidence family adds to the catalogue: its rules, and its cases forged for a profile's parameters
/// from a seed.
public protocol CatalogueFamily {
    static var name: String { get }
    /// Each step kind and the meaning of its inputs, for vector consumers.
    static var stepKinds: [String: String] { get }
    static var rules: [Rule] { get }
    static func cases(parameters: [String: String], seed: UInt64) throws -> [Case]
    /// The test trust anchors (and revocation data) of this family under `seed`: file name to contents.
    static func trustAnchors(seed: UInt64) throws -> [String: String]
}
