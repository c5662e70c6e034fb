import Catalogue
import Conformance
import Testing
import Verifiers

/// Each App Attest case breaks exactly the rule it names: the strict reference verifier rejects it naming that
/// rule, and the same verifier without that one rule accepts every step.
@Suite struct AppAttestCatalogueTests {
    static let profile = BuiltinCatalogue.profile(named: "apple-app-attest")!
    static let cases = try! BuiltinCatalogue.cases(for: profile, seed: 1)

    @Test func idsAreUniqueAndEveryRuleHasACase() {
        #expect(Set(Self.cases.map(\.id)).count == Self.cases.count)
        let covered = Set(Self.cases.compactMap(\.rule))
        #expect(covered == Self.profile.rules, "rules without a case: \(Self.profile.rules.subtracting(covered).sorted())")
        #expect(Self.cases.contains { $0.rule == nil })
    }

    @Test(arguments: cases)
    func caseBreaksExactlyItsRule(testCase: Case) throws {
        let strict = Runner(profile: Self.profile, verifier: ReferenceVerifier(profile: Self.profile)).run(testCase)
        #expect(strict.status == .pass, "\(strict.summary)")
        guard let rule = testCase.rule else { return }
        #expect(strict.actual?.rule == rule, "rejected under \(strict.actual?.rule?.rawValue ?? "-"): \(strict.actual?.reason ?? "")")
        #expect(strict.step == testCase.steps.firstIndex { $0.breaks == rule })

        let withoutRule = Self.profile.without(rule)
        let lenient = try ReferenceVerifier(profile: withoutRule).startCase(testCase.context)
        for (index, step) in testCase.steps.enumerated() {
            let verdict = try lenient.verify(step)
            #expect(verdict.outcome == .accept, "step \(index) without \(rule): \(verdict.rule?.rawValue ?? "") \(verdict.reason ?? "")")
        }
    }

    @Test func casesAreDeterministicForASeed() throws {
        let again = try BuiltinCatalogue.cases(for: Self.profile, seed: 1)
        #expect(again == Self.cases)
        let other = try BuiltinCatalogue.cases(for: Self.profile, seed: 2)
        #expect(other.map(\.id) == Self.cases.map(\.id))
        #expect(other[0].steps != Self.cases[0].steps)
    }
}

extension Case: CustomTestStringConvertible {
    public var testDescription: String { id }
}
