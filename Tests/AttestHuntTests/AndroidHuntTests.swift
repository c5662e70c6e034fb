import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestHunt
import AttestReference
import Foundation
import Testing

/// The hunt on Android key attestation, a third family through the same machinery (`AndroidHuntBaseline`,
/// `AndroidMutations`): a verifier that never reads deviceLocked is found at the root of trust's deviceLocked field;
/// the reference agrees with itself; and every mutation applies, each field refused unless the profile leaves it
/// unjudged.
@Suite struct AndroidHuntTests {
    static func hunt(_ verifiers: [any AttestationVerifier], names: [String], mutants: UInt64) async throws -> HuntState {
        try await boundedHunt(.androidKeyAttestation, verifiers, names: names, mutants: mutants, seed: 13)
    }

    @Test func anUncheckedDeviceLockedIsFoundThere() async throws {
        let profile = Profile.androidKeyAttestation
        let planted = ReferenceVerifier(profile: profile.without(.androidDeviceLocked), name: "planted:device-lock-unchecked")
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), planted], names: ["builtin:reference", "planted:device-lock-unchecked"],
                                        mutants: 800)
        #expect(state.excludedBaselines.isEmpty, "\(state.excludedBaselines)")
        let found = state.clusters.filter { $0.key.field.rawValue == "attestation.keyDescription.hardwareEnforced.rootOfTrust.deviceLocked" && $0.key.pattern == "RA" }
        #expect(!found.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        #expect(found.allSatisfy { $0.suggestedRule(verifiers: state.configuration.verifiers) == .androidDeviceLocked })
        #expect(state.clusters.allSatisfy { $0.suggestedRule(verifiers: state.configuration.verifiers) == .androidDeviceLocked },
                "the planted bug is the only disagreement: \(state.clusters.map(\.key.id))")
    }

    @Test func theReferenceAgreesWithItselfOnAndroid() async throws {
        let profile = Profile.androidKeyAttestation
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), ReferenceVerifier(profile: profile)],
                                        names: ["builtin:reference", "builtin:reference"], mutants: 300)
        #expect(state.clusters.isEmpty, "\(state.clusters.map(\.key.id))")
        #expect(state.agreements == state.mutantsTried && state.mutantsTried >= 300)
    }

    /// Every Android mutation applies to a baseline, and every field is refused by the reference for some draw but
    /// the ones the profile leaves unjudged by design.
    @Test func everyFieldReachesARefusal() async throws {
        let profile = Profile.androidKeyAttestation
        let forge = MutantForge(families: try HuntFamily.all(for: profile, seed: 5))
        #expect(forge.baselineCount == 2 && forge.mutationCount == AndroidMutations.all.count)
        let reach = try await ReferenceReach(profile, seed: 5, draws: 1_500)
        let (made, refused) = (reach.made, reach.refused)
        #expect(made == Set(AndroidMutations.all.map(\.field.rawValue)), "never applied: \(Set(AndroidMutations.all.map(\.field.rawValue)).subtracting(made).sorted())")
        // What this profile does not judge, by design: the versions, unique id and leaf serial (no rule reads them),
        // the patch levels and the verified boot key and hash (Google's page checks neither), and algorithm and
        // noAuthRequired (key-policy rules, left to profiles that opt in). They stay: another verifier may refuse them.
        let unjudged: Set<String> = [
            "attestation.keyDescription.attestationVersion", "attestation.keyDescription.keyMintVersion", "attestation.keyDescription.uniqueId",
            "attestation.leaf.serial", "attestation.keyDescription.hardwareEnforced.patchLevel",
            "attestation.keyDescription.hardwareEnforced.rootOfTrust.verifiedBootKey", "attestation.keyDescription.hardwareEnforced.rootOfTrust.verifiedBootHash",
            "attestation.keyDescription.hardwareEnforced.algorithm", "attestation.keyDescription.hardwareEnforced.noAuthRequired",
            "attestation.keyDescription.softwareEnforced.noAuthRequired",
        ]
        #expect(made.subtracting(refused) == unjudged, "refused now: \(unjudged.intersection(refused).sorted()); never refused: \(made.subtracting(refused).subtracting(unjudged).sorted())")
    }
}
