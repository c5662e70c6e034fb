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

    public init(name: String, description: String, families: [FamilyName], rules: Set<RuleID>, parameters: [String: String]) {
        self.name = name
        self.description = description
        self.families = families
        self.rules = rules
        self.parameters = parameters
    }

    public func enforces(_ rule: RuleID) -> Bool { rules.contains(rule) }

    enum CodingKeys: String, CodingKey { case name, description, families, rules, parameters }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        families = try container.decode([FamilyName].self, forKey: .families)
        rules = Set(try container.decode([RuleID].self, forKey: .rules))
        parameters = try container.decodeIfPresent([String: String].self, forKey: .parameters) ?? [:]
    }

    /// Rules are written sorted, so the same profile always serializes to the same bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(families, forKey: .families)
        try container.encode(rules.sorted(), forKey: .rules)
        try container.encode(parameters, forKey: .parameters)
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
