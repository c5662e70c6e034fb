import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestHunt
import AttestReference
import Foundation
import Testing

/// The hunt on the passkey import, a sixth family through the same machinery (`PasskeyImportHuntBaseline`,
/// `PasskeyImportMutations`, which reuse App Attest's attestation edits and Android's KeyDescription edits): a verifier
/// that never binds the proof to its ceremony is found at the proof's challenge, and the reference agrees with itself.
@Suite struct PasskeyImportHuntTests {
    @Test func anUncheckedProofChallengeIsFoundThere() async throws {
        let profile = Profile.deviceBoundPasskeyImport
        let planted = ReferenceVerifier(profile: profile.without(.importProofBinding), name: "planted:proof-challenge-unchecked")
        let state = try await boundedHunt(profile, [ReferenceVerifier(profile: profile), planted],
                                          names: ["builtin:reference", "planted:proof-challenge-unchecked"], mutants: 1_200, seed: 23)
        let found = state.clusters.filter { $0.key.field.rawValue == "attestation.proof.challenge" && $0.key.pattern == "RA" }
        #expect(!found.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        #expect(state.clusters.allSatisfy { $0.suggestedRule(verifiers: state.configuration.verifiers) == .importProofBinding },
                "the planted bug is the only disagreement: \(state.clusters.map(\.key.id))")
    }

    @Test func theImportIsHuntedAndTheReferenceAgreesWithItself() async throws {
        let profile = Profile.deviceBoundPasskeyImport
        let families = try HuntFamily.all(for: profile, seed: 23)
        #expect(families.map(\.name).contains(PasskeyImportFamily.name))
        let state = try await boundedHunt(profile, [ReferenceVerifier(profile: profile), ReferenceVerifier(profile: profile)],
                                          names: ["builtin:reference", "builtin:reference"], mutants: 300, seed: 23)
        #expect(state.clusters.isEmpty, "\(state.clusters.map(\.key.id))")
        #expect(state.agreements == state.mutantsTried)
    }
}
