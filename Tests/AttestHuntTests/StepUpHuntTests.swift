import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestHunt
import AttestReference
import Foundation
import Testing

/// The hunt on step-up signing, a fifth family through the same machinery (`StepUpHuntBaseline`, `StepUpMutations`):
/// a verifier that never compares the approval's action with the challenge's is found at the approval's action; the
/// reference agrees with itself; and every mutation applies and every field is refused for some draw.
@Suite struct StepUpHuntTests {
    static func hunt(_ verifiers: [any AttestationVerifier], names: [String], mutants: UInt64) async throws -> HuntState {
        try await boundedHunt(.stepUpSigning, verifiers, names: names, mutants: mutants, seed: 19)
    }

    @Test func anUncomparedActionIsFoundAtTheApprovalsAction() async throws {
        let profile = Profile.stepUpSigning
        let planted = ReferenceVerifier(profile: profile.without(.stepUpAction), name: "planted:action-uncompared")
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), planted], names: ["builtin:reference", "planted:action-uncompared"],
                                        mutants: 400)
        #expect(state.excludedBaselines.isEmpty, "\(state.excludedBaselines)")
        let found = state.clusters.filter { $0.key.field.rawValue == "approval.action" && $0.key.pattern == "RA" }
        #expect(!found.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        #expect(state.clusters.allSatisfy { $0.suggestedRule(verifiers: state.configuration.verifiers) == .stepUpAction },
                "the planted bug is the only disagreement: \(state.clusters.map(\.key.id))")
    }

    @Test func theReferenceAgreesWithItselfOnStepUp() async throws {
        let profile = Profile.stepUpSigning
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), ReferenceVerifier(profile: profile)],
                                        names: ["builtin:reference", "builtin:reference"], mutants: 300)
        #expect(state.clusters.isEmpty, "\(state.clusters.map(\.key.id))")
        #expect(state.agreements == state.mutantsTried && state.mutantsTried >= 300)
        let forge = MutantForge(families: try HuntFamily.all(for: profile, seed: 19))
        #expect(forge.baselineCount == 2 && forge.mutationCount == StepUpMutations.all.count)
    }

    @Test func everyFieldReachesARefusal() async throws {
        let reach = try await ReferenceReach(.stepUpSigning, seed: 5, draws: 600)
        let fields = Set(StepUpMutations.all.map(\.field.rawValue))
        #expect(reach.made == fields, "never applied: \(fields.subtracting(reach.made).sorted())")
        #expect(reach.refused == fields, "never refused: \(fields.subtracting(reach.refused).sorted())")
    }
}
