import Foundation

/// A named policy: the rules a verifier enforces and the parameters it is configured with (team id, bundle id,
/// environment...). Built-in profiles come from the catalogue; users add their own as JSON files of this shape.
public struct Profile: Hashable, Sendable, Codable {
    public let name: String
    public let description: String
    /// Evidence families this profile covers (`app-attest`, ...).
    public let families: [FamilyName]
    public var rules: Set<RuleID>
    public var parameters: [String: String]
    /// Rules this profile leaves to the relying party's own choice: a case that breaks one is judged "either verdict
    /// conforms" (recorded as `acceptable`, never a pass or a finding). A site policy puts rules here that its choices
    /// make optional (statement checks at a relying party that asks for attestation "none"). Disjoint from `rules`.
    public var leftToRelyingParty: Set<RuleID>

    public init(name: String, description: String, families: [FamilyName], rules: Set<RuleID>, parameters: [String: String],
                leftToRelyingParty: Set<RuleID> = []) {
        self.name = name
        self.description = description
        self.families = families
        self.rules = rules.subtracting(leftToRelyingParty)
        self.parameters = parameters
        self.leftToRelyingParty = leftToRelyingParty
    }

    public func enforces(_ rule: RuleID) -> Bool { rules.contains(rule) }

    /// Whether a case breaking `rule` conforms with either verdict under this profile.
    public func leavesToRelyingParty(_ rule: RuleID) -> Bool { leftToRelyingParty.contains(rule) }

    enum CodingKeys: String, CodingKey { case name, description, families, rules, parameters, leftToRelyingParty }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        families = try container.decode([FamilyName].self, forKey: .families)
        rules = Set(try container.decode([RuleID].self, forKey: .rules))
        parameters = try container.decodeIfPresent([String: String].self, forKey: .parameters) ?? [:]
        leftToRelyingParty = Set(try container.decodeIfPresent([RuleID].self, forKey: .leftToRelyingParty) ?? [])
        rules.subtract(leftToRelyingParty)
    }

    /// Rules are written sorted, so the same profile always serializes to the same bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(families, forKey: .families)
        try container.encode(rules.sorted(), forKey: .rules)
        try container.encode(parameters, forKey: .parameters)
        if !leftToRelyingParty.isEmpty { try container.encode(leftToRelyingParty.sorted(), forKey: .leftToRelyingParty) }
    }

    /// The same profile without `rule`: what `builtin:reference-without:<rule>` enforces.
    public func without(_ rule: RuleID) -> Profile {
        var copy = self
        copy.rules.remove(rule)
        return copy
    }

    /// A profile from a JSON file.
    public static func load(from url: URL) throws -> Profile {
        try JSONDecoder().decode(Profile.self, from: Data(contentsOf: url))
    }
}
