import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import Testing

/// A verifier that lets an AuthorizationList tag repeat reads the last occurrence, as android/keyattestation does
/// (`AuthorizationList.from` builds its map with Kotlin's `associate`, where a later pair replaces an earlier one):
/// the catalogue's RootOfTrust given unlocked, then locked, reads as locked.
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
        // The lock is checked (the documentation profile), and the last RootOfTrust, the locked one, passes it.
        let lenient = Profile.androidKeyAttestation.without(.androidKeyDescriptionUniqueTags)
        #expect(lenient.enforces(.androidDeviceLocked))
        #expect(try await Self.verdicts(lenient).allSatisfy { $0.outcome == .accept })
    }

    @Test func lookupsReadTheOccurrenceTheyAreToldTo() {
        var list = AuthorizationList([.init(.origin, .integer(2)), .init(.origin, .integer(0))])
        #expect(list.integer(.origin) == 2)
        list.readsLastOfRepeated = true
        #expect(list.integer(.origin) == 0)
    }

    @Test func theGoogleStyleProfileReadsItAsGoogleDoesAndLeavesTheLockToTheCaller() async throws {
        #expect(!Profile.androidKeyAttestationGoogle.enforces(.androidKeyDescriptionUniqueTags))
        #expect(try await Self.verdicts(.androidKeyAttestationGoogle).allSatisfy { $0.outcome == .accept })
    }
}
