import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import Testing

/// A verifier that lets an AuthorizationList tag repeat reads the last occurrence, as android/keyattestation does
/// (`AuthorizationList.from` builds its map with Kotlin's `associate`, where a later pair replaces an earlier one):
/// RootOfTrust given locked, then unlocked, reads as unlocked.
@Suite struct RepeatedTagReadingTests {
    static func verdicts(_ profile: Profile) async throws -> [Verdict] {
        let cases = try BuiltinCatalogue.cases(for: .androidKeyAttestation, seed: 1)
        let testCase = try #require(cases.first { $0.id == "android.keyDescription.uniqueTags.root-of-trust-twice" })
        return try await ReferenceVerifier(profile: profile).verdicts(for: testCase.request, profile: profile)
    }

    @Test func theDocumentationProfileRefusesTheRepetitionItself() async throws {
        let verdict = try #require(try await Self.verdicts(.androidKeyAttestation).first { $0.outcome == .reject })
        #expect(verdict.rule == .androidKeyDescriptionUniqueTags, "\(verdict)")
    }

    @Test func withoutThatRuleTheLastRootOfTrustIsTheOneRead() async throws {
        let verdict = try #require(try await Self.verdicts(Profile.androidKeyAttestation.without(.androidKeyDescriptionUniqueTags))
            .first { $0.outcome == .reject })
        #expect(verdict.rule == .androidDeviceLocked || verdict.rule == .androidVerifiedBootState, "\(verdict)")
    }

    @Test func theGoogleStyleProfileReadsItAsGoogleDoesAndLeavesTheLockToTheCaller() async throws {
        #expect(!Profile.androidKeyAttestationGoogle.enforces(.androidKeyDescriptionUniqueTags))
        #expect(try await Self.verdicts(.androidKeyAttestationGoogle).allSatisfy { $0.outcome == .accept })
    }
}
