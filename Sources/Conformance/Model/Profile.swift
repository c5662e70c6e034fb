import Foundation

/// A named policy: the rules a verifier enforces and the parameters it is configured with (team id, bundle id,
/// environment...). Built-in profiles come from the catalogue; users add their own as JSON files of this shape.
public struct Profile: Hashable, Sendable, Codable {
    public let name: String
    public let description: String
    /// Evidence families this profile covers (`app-attest`, ...).
    public let families: [String]
    public var rules: Set<RuleID>
    public var parameters: [String: String]

    public init(name: String, description: String, families: [String], rules: Set<RuleID>, parameters: [String: String]) {
        self.name = name
        self.description = description
        self.families = families
        self.rules = rules
        self.parameters = parameters
    }

    public func enforces(_ rule: RuleID) -> Bool { rules.contains(rule) }

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
