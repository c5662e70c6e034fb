import AttestCatalogue
import AttestConformance
import AttestReference
import Foundation
import Testing
import AttestVerifiers

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
        for (file, text) in [("schema.json", VectorSchema.json), ("exec-suite.schema.json", ExecSchemas.suite),
                             ("exec-results.schema.json", ExecSchemas.results)] {
            #expect(try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8) == text, "vectors/\(file)")
        }
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

    @Test func execDocumentsSatisfyTheirSchemas() throws {
        let profile = try #require(BuiltinCatalogue.profile(named: "device-bound-passkey-import"))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let suite = try JSONSerialization.jsonObject(with: JSONEncoder.harness.encode(ExecSuite(profile: profile, cases: cases)))
        let suiteSchema = try JSONSerialization.jsonObject(with: Data(ExecSchemas.suite.utf8)) as? [String: Any] ?? [:]
        #expect(JSONSchemaValidator(root: suiteSchema).validate(suite) == [])
        // The suite carries no expectations.
        let text = String(decoding: try JSONEncoder.harness.encode(ExecSuite(profile: profile, cases: cases)), as: UTF8.self)
        #expect(!text.contains("\"breaks\"") && !text.contains("\"expected\""))
        let results = ExecResults(harness: "test", results: [
            .init(id: "a", verdicts: [.accept, .reject("appattest.nonce", "nonce differs")]),
        ])
        let resultsSchema = try JSONSerialization.jsonObject(with: Data(ExecSchemas.results.utf8)) as? [String: Any] ?? [:]
        let document = try JSONSerialization.jsonObject(with: JSONEncoder.harness.encode(results))
        #expect(JSONSchemaValidator(root: resultsSchema).validate(document) == [])
    }

    @Test func vectorsRoundTripAndRunClean() async throws {
        let profile = try #require(BuiltinCatalogue.profile(named: "apple-app-attest"))
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("app-attest.json"))
        let suite = try JSONDecoder.harness.decode(VectorSuite.self, from: data)
        #expect(try suite.runnableCases == (try BuiltinCatalogue.cases(for: profile, seed: 1)))
        #expect(suite.numberOfCases == suite.cases.count)
        for vector in suite.cases {
            #expect(vector.expected[profile.name] == vector.steps.map { $0.expectedVerdict(under: profile) })
        }
        let report = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(try suite.runnableCases, seed: 1)
        #expect(report.exitCode == 0)
    }
}
