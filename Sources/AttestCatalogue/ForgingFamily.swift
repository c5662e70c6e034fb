import AttestConformance
import AttestForge

/// A family whose cases can be forged again with substitutions: what a live driver does when a server issues its
/// own challenge, challenge id or user id, so the rest of the case is forged around the server's values.
public protocol ForgingFamily: CatalogueFamily {
    /// The cases forged from `seed`, substitutions included; with `only`, just the case of that id.
    static func cases(parameters: [String: String], seed: ForgeSeed, only: String?) throws -> [Case]
    /// Context parameters some cases set to configure the relying party for that case alone (a FIDO metadata
    /// BLOB): a deployed server is configured once, outside the harness, so a live driver cannot run those cases.
    static var perCaseConfiguration: Set<String> { get }
}

extension ForgingFamily {
    public static var perCaseConfiguration: Set<String> { [] }
}

extension AppAttestFamily: ForgingFamily {}
extension AndroidFamily: ForgingFamily {}
extension WebAuthnFamily: ForgingFamily {}
extension PasskeyImportFamily: ForgingFamily {}
extension PerRequestFamily: ForgingFamily {}
extension StepUpFamily: ForgingFamily {}

extension BuiltinCatalogue {
    /// The case `id` of `family`, forged for `parameters` from `seed` with its substitutions, or nil when the
    /// family has no such case.
    public static func forge(_ id: String, family: FamilyName, parameters: [String: String], seed: ForgeSeed) throws -> Case? {
        guard let forging = families.first(where: { $0.name == family }) as? any ForgingFamily.Type else { return nil }
        return try forging.cases(parameters: parameters, seed: seed, only: id).first
    }

    /// The per-case configuration parameters a case of `family` sets to other values than `profile` (see
    /// `ForgingFamily.perCaseConfiguration`): what a server configured once for that profile cannot be given.
    public static func perCaseConfiguration(family: FamilyName, parameters: [String: String], profile: [String: String]) -> [String] {
        guard let forging = families.first(where: { $0.name == family }) as? any ForgingFamily.Type else { return [] }
        return forging.perCaseConfiguration.filter { parameters[$0] != profile[$0] }.sorted()
    }
}
