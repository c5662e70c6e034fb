import AttestCatalogue
import AttestConformance
import AttestReference
import Testing
import AttestVerifiers

/// Each case of every built-in profile breaks exactly the rule it names: the strict reference verifier rejects it
/// naming that rule, and the same verifier without that one rule accepts every step (or, for a step nothing can be
/// read past, still refuses it under that rule and no other).
@Suite struct CaseExactnessTests {
    /// Each case with the built-in profile it is checked under.
    static let cases: [Case] = try! BuiltinCatalogue.allCases(seed: 1)

    /// The first built-in profile that covers the case's family and enforces its rule; for a rule no built-in
    /// profile enforces (an opt-in such as android.keyDescription.strictDer), the first covering profile with it.
    static func profile(of testCase: Case) -> Profile {
        if let enforcing = BuiltinCatalogue.profiles.first(where: { $0.families.contains(testCase.family) && testCase.rule.map($0.enforces) ?? true }) {
            return enforcing
        }
        var optedIn = BuiltinCatalogue.profiles.first { $0.families.contains(testCase.family) }!
        if let rule = testCase.rule { optedIn.rules.insert(rule) }
        return optedIn
    }

    @Test(arguments: BuiltinCatalogue.profiles.map(\.name))
    func idsAreUniqueAndEveryRuleHasACase(profileName: String) throws {
        let profile = try #require(BuiltinCatalogue.profile(named: profileName))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        #expect(Set(cases.map(\.id)).count == cases.count)
        let covered = Set(cases.compactMap(\.rule))
        #expect(profile.rules.isSubset(of: covered), "rules without a case: \(profile.rules.subtracting(covered).sorted())")
        #expect(cases.contains { $0.rule == nil })
    }

    @Test(arguments: cases)
    func caseBreaksExactlyItsRule(testCase: Case) async throws {
        let profile = Self.profile(of: testCase)
        let strict = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(testCase)
        // A case whose verdict the specification leaves to the relying party is recorded as acceptable, with the
        // reference verifier's own choice: it accepts what breaks no rule and refuses what breaks one.
        let either = testCase.steps.contains(where: \.either)
        #expect(strict.status == (either ? .acceptable : .pass), "\(strict.summary)")
        if either, testCase.rule == nil { #expect(strict.actual?.outcome == .accept) }
        guard let rule = testCase.rule else { return }
        #expect(strict.actual?.rule == rule, "rejected under \(strict.actual?.rule?.rawValue ?? "-"): \(strict.actual?.reason ?? "")")
        #expect(strict.step == testCase.steps.lastIndex { $0.breaks == rule })
        // A documented API error is the start of the reference verifier's reason.
        if let step = strict.step, let status = testCase.steps[step].expectedStatus {
            #expect(strict.actual?.status == status, "\(strict.actual?.status ?? "no status"): \(strict.actual?.reason ?? "")")
        }

        // Without the rule, every step gets the verdict the reduced profile expects: the rule's steps are
        // accepted, set-up steps that break other rules are still refused.
        let withoutRule = profile.without(rule)
        let lenient = await Runner(profile: withoutRule, verifier: ReferenceVerifier(profile: withoutRule)).run(testCase)
        #expect(lenient.status == (either ? .acceptable : .pass), "without \(rule): \(lenient.summary) \(lenient.actual?.reason ?? "")")
        if either { #expect(lenient.actual?.outcome == .accept, "without \(rule): \(lenient.summary)") }
        // A step nothing can be read past is refused without its rule too, under the same rule (no later check can run).
        let unreadable = testCase.steps.contains(where: \.unreadable)
        if unreadable { #expect(lenient.actual?.rule == rule, "without \(rule): refused under \(lenient.actual?.rule?.rawValue ?? "-")") }
        #expect(testCase.steps.filter { $0.breaks == rule }.allSatisfy {
            $0.expectedVerdict(under: withoutRule) == (either ? .either : unreadable ? .reject : .accept)
        })
    }

    /// Under every built-in profile, not only the first that enforces it: a case whose rule the profile enforces is
    /// refused under that rule and no other (a profile that enforces a rule another case would break first, as a
    /// Google-style profile's android.chain.attestKey could, would otherwise pass on the verdict alone).
    @Test(arguments: BuiltinCatalogue.profiles.map(\.name))
    func everyProfileNamesEachCaseRule(profileName: String) async throws {
        let profile = try #require(BuiltinCatalogue.profile(named: profileName))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let results = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(cases, seed: 1, jobs: 2)
        let byId = Dictionary(results.results.map { ($0.caseId, $0) }, uniquingKeysWith: { first, _ in first })
        var checked = 0
        for testCase in cases {
            guard let rule = testCase.rule, profile.enforces(rule) else { continue }
            let result = byId[testCase.id]
            checked += 1
            #expect(result?.actual?.rule == rule, "\(testCase.id): rejected under \(result?.actual?.rule?.rawValue ?? "-"): \(result?.actual?.reason ?? "")")
        }
        #expect(checked > 0)
    }

    @Test func casesAreDeterministicForASeed() throws {
        let again = try BuiltinCatalogue.allCases(seed: 1)
        #expect(again == Self.cases)
        let other = try BuiltinCatalogue.allCases(seed: 2)
        #expect(other.map(\.id) == Self.cases.map(\.id))
        #expect(zip(other, Self.cases).allSatisfy { $0.steps != $1.steps })
    }
}

extension Case: CustomTestStringConvertible {
    public var testDescription: String { id }
}
