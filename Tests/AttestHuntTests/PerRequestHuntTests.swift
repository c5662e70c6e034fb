import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestHunt
import AttestReference
import Foundation
import Testing

/// The hunt on per-request device attestation, a fourth family through the same machinery (`PerRequestHuntBaseline`,
/// `PerRequestMutations`, with App Attest's attestation edits reused for the iOS attest): a server that never compares
/// the token's nonce is found at the Play Integrity verdict's nonce, one that drops the query from what the assertion
/// binds at the request's target; the reference agrees with itself.
@Suite struct PerRequestHuntTests {
    static func hunt(_ verifiers: [any AttestationVerifier], names: [String], mutants: UInt64) async throws -> HuntState {
        try await boundedHunt(.perRequestDeviceAttestation, verifiers, names: names, mutants: mutants, seed: 17)
    }

    @Test(arguments: [(RuleID.integrityNonce, "attestation.integrityToken.verdict.nonce"), (RuleID.requestQuery, "request.target")])
    func aSkippedCheckIsFoundAtItsField(rule: RuleID, field: String) async throws {
        let profile = Profile.perRequestDeviceAttestation
        let planted = ReferenceVerifier(profile: profile.without(rule), name: "planted:\(rule.rawValue)")
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), planted], names: ["builtin:reference", "planted:\(rule.rawValue)"],
                                        mutants: 1_200)
        #expect(state.excludedBaselines.isEmpty, "\(state.excludedBaselines)")
        let found = state.clusters.filter { $0.key.field.rawValue == field && $0.key.pattern == "RA" }
        #expect(!found.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        #expect(state.clusters.allSatisfy { $0.suggestedRule(verifiers: state.configuration.verifiers) == rule },
                "the planted bug is the only disagreement: \(state.clusters.map(\.key.id))")
    }

    @Test func theReferenceAgreesWithItselfOnPerRequest() async throws {
        let profile = Profile.perRequestDeviceAttestation
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), ReferenceVerifier(profile: profile)],
                                        names: ["builtin:reference", "builtin:reference"], mutants: 300)
        #expect(state.clusters.isEmpty, "\(state.clusters.map(\.key.id))")
        #expect(state.agreements == state.mutantsTried && state.mutantsTried >= 300)
        let forge = MutantForge(families: try HuntFamily.all(for: profile, seed: 17))
        #expect(forge.baselineCount == 2 && forge.mutationCount == PerRequestMutations.all.count)
    }
}

extension PerRequestHuntTests {
    /// Every per-request mutation applies to one of the two flows, and every field is refused by the reference for
    /// some draw but the ones the profile leaves unjudged.
    @Test func everyFieldReachesARefusal() async throws {
        let profile = Profile.perRequestDeviceAttestation
        let reach = try await ReferenceReach(profile, seed: 5, draws: 3_000)
        let (made, refused) = (reach.made, reach.refused)
        #expect(made == Set(PerRequestMutations.all.map(\.field.rawValue)), "never applied: \(Set(PerRequestMutations.all.map(\.field.rawValue)).subtracting(made).sorted())")
        // What this profile leaves unjudged: what App Attest's own profile leaves (the receipt, and every flag but
        // AT, which makes the credential data readable: Apple's steps read no flag), and the verdict's licensing and
        // version code (Google's docs make them optional). Everything else of the iOS attest is judged as Apple
        // documents it (the protocol page's §3.1: steps 1-9).
        let unjudged = made.filter {
            $0 == "attestation.appAttest.attestationObject.attStmt.receipt"
                || ($0.hasPrefix("attestation.appAttest.authData.flags.") && $0 != "attestation.appAttest.authData.flags.AT")
        }.union(["attestation.integrityToken.verdict.appLicensingVerdict", "attestation.integrityToken.verdict.versionCode"])
        #expect(made.subtracting(refused) == unjudged, "refused now: \(unjudged.intersection(refused).sorted()); never refused: \(made.subtracting(refused).subtracting(unjudged).sorted())")
    }
}
