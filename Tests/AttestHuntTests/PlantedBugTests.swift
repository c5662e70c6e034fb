import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestHunt
import AttestReference
import Foundation
import Testing

/// A hunt finds what no one told it about: verifiers with one planted bug each, hunted beside the reference with a
/// bounded budget, give a cluster at the field the bug is in; the reference hunted against itself gives none, so a
/// cluster is the bug and not the hunt's noise.
@Suite struct PlantedBugTests {
    /// The reference, except that an origin passes when it starts with an allowed one (a prefix compare, the bug
    /// of a Go library the issue names): where the reference refuses a case only on the origin and the origin has an
    /// allowed prefix, the verdicts are the reference's without its origin rule.
    struct PrefixOriginVerifier: AttestationVerifier {
        let profile: Profile
        var name: String { "planted:origin-prefix" }

        func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
            let strict = try await ReferenceVerifier(profile: self.profile).verdicts(for: testCase, profile: profile)
            guard let refused = strict.firstIndex(where: { $0.outcome == .reject }), strict[refused].rule == .webAuthnOrigin,
                  let clientData = testCase.steps[refused].inputs[.clientDataJSON],
                  let origin = try? CollectedClientData(parsing: clientData).origin,
                  let allowed = testCase.context.parameters["origins"]?.split(separator: ","),
                  allowed.contains(where: { origin.hasPrefix($0) }) else { return strict }
            return try await ReferenceVerifier(profile: self.profile.without(.webAuthnOrigin)).verdicts(for: testCase, profile: profile)
        }
    }

    static func hunt(_ verifiers: [any AttestationVerifier], names: [String], mutants: UInt64) async throws -> HuntState {
        try await boundedHunt(.webAuthnL3, verifiers, names: names, mutants: mutants, seed: 7)
    }

    @Test func aPrefixComparedOriginIsFoundAtTheOriginField() async throws {
        let profile = Profile.webAuthnL3
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), PrefixOriginVerifier(profile: profile)],
                                        names: ["builtin:reference", "planted:origin-prefix"], mutants: 600)
        #expect(state.mutantsTried >= 600)
        let origin = state.clusters.filter { $0.key.field.rawValue.hasSuffix("clientDataJSON.origin") && $0.key.pattern == "RA" }
        #expect(!origin.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        // Only spellings that keep an allowed origin as their prefix can pass the planted compare.
        for cluster in origin {
            #expect(cluster.suggestedRule(verifiers: state.configuration.verifiers) == .webAuthnOrigin)
            let step = cluster.mutant.testCase.steps[cluster.mutant.step]
            let sent = try CollectedClientData(parsing: try #require(step.inputs[.clientDataJSON])).origin
            let allowed = try #require(cluster.mutant.testCase.context.parameters["origins"]).split(separator: ",")
            #expect(allowed.contains { sent.hasPrefix($0) && sent != $0 }, "\(sent)")
        }
        // The planted bug is the only disagreement.
        #expect(state.clusters.allSatisfy { $0.key.field.rawValue.hasSuffix("clientDataJSON.origin") }, "\(state.clusters.map(\.key.id))")
    }

    @Test func anIgnoredCertificateExtensionIsFoundAtThatExtension() async throws {
        let profile = Profile.webAuthnL3
        // A packed verifier that never reads id-fido-gen-ce-aaguid.
        let planted = ReferenceVerifier(profile: profile.without(.webAuthnPackedAAGUID), name: "planted:aaguid-ignored")
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), planted],
                                        names: ["builtin:reference", "planted:aaguid-ignored"], mutants: 1_500)
        let aaguid = state.clusters.filter { $0.key.field.rawValue == "registration.attStmt.x5c[0].aaguid" && $0.key.pattern == "RA" }
        #expect(!aaguid.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        #expect(aaguid.allSatisfy { $0.suggestedRule(verifiers: state.configuration.verifiers) == .webAuthnPackedAAGUID })
    }

    @Test func theReferenceAgreesWithItself() async throws {
        let profile = Profile.webAuthnL3
        let state = try await Self.hunt([ReferenceVerifier(profile: profile), ReferenceVerifier(profile: profile)],
                                        names: ["builtin:reference", "builtin:reference"], mutants: 400)
        #expect(state.clusters.isEmpty, "\(state.clusters.map(\.key.id))")
        #expect(state.excludedBaselines.isEmpty)
        #expect(state.agreements == state.mutantsTried)
    }

    @Test func theSameSeedGivesTheSameMutants() async throws {
        let profile = Profile.webAuthnL3
        var state = HuntState(configuration: .init(profile: profile.name, verifiers: ["a", "b"], seed: 3))
        let hunter = try await Hunter.prepare(profile: profile, verifiers: [ReferenceVerifier(profile: profile), ReferenceVerifier(profile: profile)],
                                              state: &state)
        for number in [0, 1, 17, 999] as [UInt64] {
            let first = hunter.mutant(number, seed: 3)
            let second = hunter.mutant(number, seed: 3)
            #expect(first == second)
        }
        let differing = (0..<50).filter { hunter.mutant(UInt64($0), seed: 3) != hunter.mutant(UInt64($0), seed: 4) }
        #expect(differing.count > 40)
    }
}

/// Shards split one hunt's mutant numbers without overlap, and their merge is the hunt of them all.
@Suite struct ShardTests {
    @Test func twoShardsMergeIntoTheHuntOfBoth() async throws {
        let profile = Profile.webAuthnL3
        let names = ["builtin:reference", "planted:origin-prefix"]
        func shard(_ index: Int) async throws -> HuntState {
            var state = HuntState(configuration: .init(profile: profile.name, verifiers: names, seed: 5, shard: index, shards: 2))
            let hunter = try await Hunter.prepare(profile: profile, verifiers: [ReferenceVerifier(profile: profile),
                                                                                PlantedBugTests.PrefixOriginVerifier(profile: profile)], state: &state)
            try await hunter.run(&state, stop: { $0.mutantsTried >= 300 }, interrupted: { false }, save: { _ in }, progress: { _ in })
            return state
        }
        let first = try await shard(0), second = try await shard(1)
        let numbers = { (state: HuntState) in Set(state.clusters.map(\.mutant.index)) }
        #expect(numbers(first).allSatisfy { $0 % 2 == 0 })
        #expect(numbers(second).allSatisfy { $0 % 2 == 1 })
        let merged = try HuntState.merge([first, second])
        #expect(merged.mutantsTried == first.mutantsTried + second.mutantsTried)
        #expect(merged.mergedShards == [0, 1])
        let keys = Set(first.clusters.map(\.key)).union(second.clusters.map(\.key))
        #expect(Set(merged.clusters.map(\.key)) == keys)
        for cluster in merged.clusters {
            let parts = (first.clusters + second.clusters).filter { $0.key == cluster.key }
            #expect(cluster.count == parts.map(\.count).reduce(0, +))
            #expect(cluster.mutant.size == parts.map(\.mutant.size).min())
        }
        #expect(throws: HuntError.self) { try HuntState.merge([first, first]) }
    }
}
