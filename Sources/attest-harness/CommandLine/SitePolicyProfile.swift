import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestVerifiers

/// The profile a site is judged by when its API map states its policy (`"policy"`), or says where its options
/// state it (`"policy": {"fromOptions": ...}`).
enum SitePolicyProfile {
    /// `base` under the policy the map states (what an emulation and a dry run judge by: they have no site to ask).
    static func stated(_ map: APIMap, base: Profile) throws -> Profile {
        guard let policy = map.policy else { return base }
        return try profile(base, following: policy.stated, family: map.family)
    }

    /// `base` under the site's policy: the map's statement, filled from the options the site returns.
    static func derive(_ map: APIMap, driver: MapDriver, base: Profile, seed: UInt64) async throws -> Profile {
        guard let source = map.policy?.fromOptions else { return try stated(map, base: base) }
        let cases = try Selection.cases(profile: base, seed: seed).filter { $0.family == map.family }
        guard let probe = cases.first(where: { $0.rule == nil && $0.steps.first?.kind == source.step }) else {
            throw UsageError("API map \(map.name): no valid case of the \(map.family) family starts with \(source.step), to read the site's options from")
        }
        let policy: RelyingPartyPolicy?
        do {
            policy = try await driver.sitePolicy(using: probe, profile: base)
        } catch {
            throw UsageError("reading the site's policy from its options (\(source.step) exchange \(source.exchange)): \(error)")
        }
        return try profile(base, following: policy ?? RelyingPartyPolicy(), family: map.family)
    }

    static func profile(_ base: Profile, following policy: RelyingPartyPolicy, family: FamilyName) throws -> Profile {
        do {
            return try BuiltinCatalogue.profile(base, following: policy, family: family)
        } catch {
            throw UsageError("API map policy: \(error)")
        }
    }

    /// One line: the parameters a site policy sets and how many rules it leaves to the site.
    static func summary(_ profile: Profile) -> String {
        let keys = ["rpId", "origins", "algorithms", "userVerification", "attestation"]
        let parameters = keys.compactMap { key in profile.parameters[key].map { "\(key) \($0.isEmpty ? "none" : $0)" } }
        return parameters.joined(separator: "; ") + "; \(profile.rules.count) rules enforced, \(profile.leftToRelyingParty.count) left to the site"
    }
}
