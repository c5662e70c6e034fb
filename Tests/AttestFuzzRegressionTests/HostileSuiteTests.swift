import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import AttestTestSupport
import Foundation
import Testing

/// One hostile case never sinks a suite: `exec-reference` and `serve` judge a suite with the reference verifier's
/// `judge`, which must answer every case of every family with one verdict per step, whatever its inputs hold.
@Suite struct HostileSuiteTests {
    /// Certificates that OpenSSL parses but whose fields do not all decode, from corpus/fuzz-x509, and byte strings
    /// that are no encoding at all: what replaces an input of a valid case.
    static let hostileValues: [[UInt8]] = {
        let certificates = FuzzRegressionTests.files("fuzz-x509").compactMap { try? Array(Data(contentsOf: $0)) }
        return certificates + [[], [0x30], [0x30, 0x80, 0x00, 0x00], Array(repeating: 0xff, count: 70), Array("windows".utf8),
                               Array("{\"a\":1}".utf8)]
    }()

    /// The property over every built-in profile's families: three hostile variants of each case (one input of one
    /// step replaced, mutated or put where a certificate goes), all in one suite, answered case by case.
    @Test(arguments: BuiltinCatalogue.profiles.map(\.name))
    func theReferenceAnswersEveryCaseOfAHostileSuite(profileName: String) throws {
        let profile = try #require(BuiltinCatalogue.profile(named: profileName))
        var generator = SeededGenerator(seed: 32)
        var hostile: [VerifierCase] = []
        for testCase in try BuiltinCatalogue.cases(for: profile, seed: 1) {
            for variant in 0..<3 {
                var steps = testCase.request.steps
                let index = Int.random(in: 0..<steps.count, using: &generator)
                let step = steps[index]
                let keys = step.inputs.keys.sorted()
                guard let key = keys.randomElement(using: &generator), let value = step.inputs[key] else { continue }
                var inputs = step.inputs
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: inputs[key] = generator.mutate(value)
                case 1: inputs[key] = Self.hostileValues[Int.random(in: 0..<Self.hostileValues.count, using: &generator)]
                default: inputs[key] = Self.embedding(Self.hostileValues[Int.random(in: 0..<Self.hostileValues.count, using: &generator)], in: value)
                }
                steps[index] = VerifierStep(kind: step.kind, inputs: inputs, time: step.time)
                hostile.append(VerifierCase(id: "\(testCase.id).hostile-\(variant)", family: testCase.family, context: testCase.context, steps: steps))
            }
        }
        #expect(hostile.count > 20)
        let suite = ExecSuite(profile: profile, requests: hostile)
        let results = try ReferenceVerifier(profile: suite.requestedProfile).judge(suite)
        #expect(results.results.map(\.id) == hostile.map(\.id))
        for (testCase, answer) in zip(hostile, results.results) {
            #expect(answer.verdicts.count == testCase.steps.count, "\(testCase.id)")
        }
    }

    /// `value` with `bytes` written over its middle: a certificate where a certificate was, inside its container.
    static func embedding(_ bytes: [UInt8], in value: [UInt8]) -> [UInt8] {
        guard value.count > 8 else { return bytes }
        let start = value.count / 4
        return Array(value[..<start]) + bytes + Array(value[min(value.count, start + bytes.count)...])
    }

    /// The triggers the reliability review found, each answered with a refusal naming its family's structure rule.
    @Test func unknownPlatformsAndKeysThatAreNoSPKIAreRefused() throws {
        for (profile, kind, key, value, rule) in [
            (Profile.perRequestDeviceAttestation, StepKind.perRequestAttest, InputKey.platform, Array("windows".utf8), RuleID.requestHeaders),
            (Profile.deviceBoundPasskeyImport, StepKind.passkeyImportComplete, InputKey.platform, Array("WINDOWS".utf8), RuleID.importProofMembers),
            (Profile.stepUpSigning, StepKind.stepUpRegister, InputKey.publicKey, Array(repeating: 0x04, count: 65), RuleID.stepUpKey),
        ] {
            let testCase = try #require(try BuiltinCatalogue.cases(for: profile, seed: 1).first { $0.rule == nil && $0.steps.contains { $0.kind == kind } })
            var steps = testCase.request.steps
            let index = try #require(steps.firstIndex { $0.kind == kind })
            var inputs = steps[index].inputs
            inputs[key] = value
            steps[index] = VerifierStep(kind: kind, inputs: inputs, time: steps[index].time)
            let suite = ExecSuite(profile: profile, requests: [VerifierCase(id: "hostile", family: testCase.family, context: testCase.context, steps: steps)])
            let verdict = try ReferenceVerifier(profile: profile).judge(suite).results.first?.verdicts[index]
            #expect(verdict?.outcome == .reject && verdict?.rule == rule, "\(kind): \(String(describing: verdict))")
        }
    }
}
