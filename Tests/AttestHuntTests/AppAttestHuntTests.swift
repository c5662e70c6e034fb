import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestHunt
import AttestReference
import Foundation
import Testing

/// The hunt on a second family, through the same machinery: App Attest's baselines and mutations are data
/// (`AppAttestHuntBaseline`, `AppAttestMutations`), and a verifier that skips the nonce check is found at the nonce
/// fields; the reference agrees with itself on every App Attest mutant.
@Suite struct AppAttestHuntTests {
    static func hunt(_ verifiers: [any AttestationVerifier], names: [String], mutants: UInt64) async throws -> HuntState {
        try await boundedHunt(.appleAppAttest, verifiers, names: names, mutants: mutants, seed: 11)
    }

    @Test func aSkippedNonceCheckIsFoundAtTheNonce() async throws {
        let profile = Profile.appleAppAttest
        let planted = ReferenceVerifier(profile: profile.without(.appAttestNonce), name: "planted:nonce-unchecked")
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), planted], names: ["builtin:reference", "planted:nonce-unchecked"],
                                        mutants: 400)
        #expect(state.excludedBaselines.isEmpty, "\(state.excludedBaselines)")
        let nonce = state.clusters.filter { $0.key.pattern == "RA" }
        #expect(!nonce.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        for cluster in nonce {
            #expect(cluster.suggestedRule(verifiers: state.configuration.verifiers) == .appAttestNonce, "\(cluster.key.id)")
            #expect(cluster.mutant.testCase.family == AppAttestFamily.name && cluster.mutant.step == 0)
        }
        // The fields that feed the nonce, and only those, are where the two disagree.
        let fields = Set(nonce.map(\.key.field.rawValue))
        #expect(fields.contains { $0.hasPrefix("attestation.nonce.") || $0.hasPrefix("attestation.credCert.nonce") }, "\(fields)")
        #expect(state.clusters.allSatisfy { $0.key.pattern == "RA" }, "\(state.clusters.map(\.key.id))")
    }

    @Test func theReferenceAgreesWithItselfOnAppAttest() async throws {
        let profile = Profile.appleAppAttest
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), ReferenceVerifier(profile: profile)],
                                        names: ["builtin:reference", "builtin:reference"], mutants: 300)
        #expect(state.clusters.isEmpty, "\(state.clusters.map(\.key.id))")
        #expect(state.agreements == state.mutantsTried && state.mutantsTried >= 300)
    }

    /// Every App Attest mutation field reaches a refusal by the reference, except the ones Apple's verification steps
    /// give no check: the receipt (opaque to the server until it asks Apple) and the authenticator data flags other
    /// than AT (Apple's steps read the counter, rpIdHash, AAGUID and credential id, never UP or UV). Those stay in
    /// the hunt: a verifier that refuses them disagrees with the reference, and the report says the rule is none.
    @Test func mutationsChangeWhatTheReferenceSays() async throws {
        let profile = Profile.appleAppAttest
        let forge = MutantForge(families: try HuntFamily.all(for: profile, seed: 5))
        #expect(forge.baselineCount == 1 && forge.mutationCount == AppAttestMutations.all.count)
        let reach = try await ReferenceReach(profile, seed: 5, draws: 600)
        let (made, refusedFields) = (reach.mutants, reach.refused)
        #expect(made > 400, "most draws apply: \(made)")
        let unchecked = Set(AppAttestMutations.all.map(\.field.rawValue).filter {
            $0 == "attestation.attestationObject.attStmt.receipt" || ($0.contains(".flags.") && $0 != "attestation.authData.flags.AT")
        })
        #expect(unchecked.count == 1 + 7 + 8)
        let allFields = Set(AppAttestMutations.all.map(\.field.rawValue))
        #expect(allFields.subtracting(refusedFields) == unchecked, "refused: \(allFields.subtracting(refusedFields).subtracting(unchecked).sorted()); accepted: \(unchecked.intersection(refusedFields).sorted())")
    }
}
