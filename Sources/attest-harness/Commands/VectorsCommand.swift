import AttestCatalogue
import AttestConformance
import Foundation

enum VectorsCommand: Command {
    static let name = "vectors"
    static let abstract = "Write every family's cases as JSON vector suites, with their JSON Schema."
    static let usage = "--out DIR [--seed N]"
    static let options: [OptionSpec] = [
        .outDirectory,
        .seed,
        .quiet,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        let out = try arguments.required("out")
        let seed = try arguments.seed()
        let directory = try Output.directory(out)
        for (file, suite) in try BuiltinCatalogue.vectorSuites(seed: seed) {
            try Output.writeFile(Array(try suite.json), to: directory.appendingPathComponent(file))
            Output.note("attest-harness vectors: wrote \(suite.numberOfCases) cases to \(out)/\(file)\n")
        }
        try Output.writeFile(Array(VectorSchema.json.utf8), to: directory.appendingPathComponent("schema.json"))
        try Output.writeFile(Array(ExecSchemas.suite.utf8), to: directory.appendingPathComponent("exec-suite.schema.json"))
        try Output.writeFile(Array(ExecSchemas.results.utf8), to: directory.appendingPathComponent("exec-results.schema.json"))
        return 0
    }
}
