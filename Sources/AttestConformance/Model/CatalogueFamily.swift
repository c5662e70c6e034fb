/// What an evidence family adds to the catalogue: its rules, and its cases forged for a profile's parameters
/// from a seed.
public protocol CatalogueFamily {
    static var name: FamilyName { get }
    /// Each step kind and the meaning of its inputs, for vector consumers.
    static var stepKinds: [StepKind: String] { get }
    static var rules: [Rule] { get }
    static func cases(parameters: [String: String], seed: UInt64) throws -> [Case]
    /// The test trust anchors (and revocation data) of this family under `seed`: file name to contents.
    static func trustAnchors(seed: UInt64) throws -> [String: String]
}
