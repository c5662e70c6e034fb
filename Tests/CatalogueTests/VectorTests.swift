import Catalogue
import Conformance
import Foundation
import Testing
import Verifiers

/// vectors/ is what `attest-harness vectors --out vectors/` writes with the default seed, it satisfies its schema,
/// and its cases, read back from JSON, run exactly as the in-memory ones.
@Suite struct VectorTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../vectors").standardizedFileURL

    @Test func committedVectorsMatchAFreshRegeneration() throws {
        for (file, suite) in try BuiltinCatalogue.vectorSuites(seed: 1) {
            let committed = try Data(contentsOf: Self.directory.appendingPathComponent(file))
            #expect(committed == (try suite.json), "vectors/\(file) is stale: run attest-harness vectors --out vectors/")
        }
        let schema = try String(contentsOf: Self.directory.appendingPathComponent("schema.json"), encoding: .utf8)
        #expect(schema == VectorSchema.json)
    }

    @Test func vectorsSatisfyTheSchema() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(VectorSchema.json.utf8)) as? [String: Any] ?? [:]
        let validator = JSONSchemaValidator(root: schema)
        for (file, _) in try BuiltinCatalogue.vectorSuites(seed: 1) {
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.directory.appendingPathComponent(file)))
            #expect(validator.validate(document) == [], "\(file)")
            // The validator can fail: a case without steps and with a bad importance is caught.
            var broken = try #require(document as? [String: Any])
            var cases = try #require(broken["cases"] as? [[String: Any]])
            cases[0]["steps"] = []
            cases[0]["importance"] = "urgent"
            broken["cases"] = cases
            #expect(validator.validate(broken).count == 2)
        }
    }

    @Test func vectorsRoundTripAndRunClean() throws {
        let profile = try #require(BuiltinCatalogue.profile(named: "apple-app-attest"))
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("app-attest.json"))
        let suite = try JSONDecoder.harness.decode(VectorSuite.self, from: data)
        #expect(suite.runnableCases == (try BuiltinCatalogue.cases(for: profile, seed: 1)))
        #expect(suite.numberOfCases == suite.cases.count)
        for vector in suite.cases {
            #expect(vector.expected[profile.name] == vector.steps.map { $0.expectedVerdict(under: profile) })
        }
        let report = Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(suite.runnableCases, seed: 1)
        #expect(report.exitCode == 0)
    }
}
