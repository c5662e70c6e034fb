import AttestCatalogue
import AttestConformance
import Testing

/// Every negative case names its control: the valid case of its family with the same baseline and no mutation.
@Suite struct ControlTests {
    @Test(arguments: BuiltinCatalogue.profiles.map(\.name))
    func everyNegativeCaseNamesAValidTwinOfItsFamily(profileName: String) throws {
        let profile = try #require(BuiltinCatalogue.profile(named: profileName))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let byId = Dictionary(uniqueKeysWithValues: cases.map { ($0.id, $0) })
        for testCase in cases {
            guard testCase.rule != nil else {
                #expect(testCase.control == nil, "\(testCase.id)")
                continue
            }
            let control = try #require(testCase.control.flatMap { byId[$0] }, "\(testCase.id) names \(testCase.control ?? "no control")")
            #expect(control.rule == nil && control.family == testCase.family, "\(testCase.id) -> \(control.id)")
            #expect(control.steps.allSatisfy { $0.breaks == nil }, "\(control.id)")
            // The control has the unbroken twin of the breaking step: a step of the same kind.
            let breaking = try #require(testCase.breakingStep)
            #expect(control.steps.contains { $0.kind == testCase.steps[breaking].kind }, "\(testCase.id) -> \(control.id)")
        }
    }

    /// The same control survives forging one case alone (`forge --case`, a live driver's re-forging).
    @Test func forgingOneCaseKeepsItsControl() throws {
        for profile in BuiltinCatalogue.profiles {
            for testCase in try BuiltinCatalogue.cases(for: profile, seed: 1) where testCase.rule != nil {
                let alone = try BuiltinCatalogue.forge(testCase.id, family: testCase.family, parameters: profile.parameters, seed: .init(1))
                #expect(alone?.control == testCase.control, "\(testCase.id)")
                break
            }
        }
    }
}
