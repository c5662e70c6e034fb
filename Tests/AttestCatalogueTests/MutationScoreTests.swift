import AttestCatalogue
import AttestConformance
import AttestReference
import Testing
import AttestVerifiers

/// For every rule of every built-in profile, the reference verifier without that rule has at least one finding:
/// the catalogue has no blind spot.
@Suite struct MutationScoreTests {
    static let pairs: [(String, RuleID)] = BuiltinCatalogue.profiles.flatMap { profile in
        profile.rules.sorted().map { (profile.name, $0) }
    }

    @Test(arguments: pairs.map { "\($0.0) without \($0.1)" })
    func everyMutantIsKilled(label: String) async throws {
        let parts = label.components(separatedBy: " without ")
        let profile = try #require(BuiltinCatalogue.profile(named: parts[0]))
        let rule = RuleID(parts[1])
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let mutant = ReferenceVerifier(profile: profile.without(rule), name: "builtin:reference-without:\(rule)")
        let report = await Runner(profile: profile, verifier: mutant).run(cases, seed: 1, jobs: 2)
        #expect(report.errors.isEmpty)
        #expect(!report.findings.isEmpty, "no case catches a verifier that skips \(rule)")
        // Findings come only from steps that break the removed rule (a case's own step, or a refused set-up step).
        let byId = Dictionary(uniqueKeysWithValues: cases.map { ($0.id, $0) })
        #expect(report.findings.allSatisfy { finding in
            finding.rule == rule || finding.step.map { byId[finding.caseId]?.steps[$0].breaks == rule } == true
        })
        #expect(report.exitCode == 1)
    }

    @Test func theReferenceVerifierIsConformant() async throws {
        for profile in BuiltinCatalogue.profiles {
            let report = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile))
                .run(try BuiltinCatalogue.cases(for: profile, seed: 1), seed: 1, jobs: 2)
            #expect(report.findings.isEmpty && report.errors.isEmpty && report.exitCode == 0)
        }
    }
}
