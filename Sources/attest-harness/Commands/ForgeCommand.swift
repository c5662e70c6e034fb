import AttestCatalogue
import AttestConformance
import AttestEvidence
import Foundation

enum ForgeCommand: Command {
    static let name = "forge"
    static let abstract = "Write one case's evidence as files, with case.json describing it and request.json as a verifier receives it."
    static let usage = "--case ID --out DIR [--seed N] [--profile P]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "case", value: "ID", help: "The case id (see attest-harness list)."),
        .outDirectory,
        .seed,
        OptionSpec(name: "profile", value: "P", help: "Forge for profile P's parameters (default: the family's built-in profile)."),
        .quiet,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        let id = try arguments.required("case")
        let out = try arguments.required("out")
        let seed = try arguments.seed()
        let profile = try arguments.value("profile").map(Selection.profile)
        guard let testCase = try Selection.cases(profile: profile, seed: seed).first(where: { $0.id == id }) else {
            throw UsageError("unknown case \"\(id)\"; see attest-harness list")
        }
        let directory = try Output.directory(out)
        for (index, step) in testCase.steps.enumerated() {
            let kind = step.kind.rawValue.split(separator: ".").last.map(String.init) ?? step.kind.rawValue
            for (key, bytes) in step.inputs {
                let suffix = [InputKey.attestationObject, .assertion].contains(key) ? "cbor" : "bin"
                try Output.writeFile(bytes, to: directory.appendingPathComponent("\(index + 1)-\(kind).\(key).\(suffix)"))
            }
        }
        for (index, anchor) in testCase.context.trustAnchors.enumerated() {
            try Output.writeFile(Array(anchor.utf8), to: directory.appendingPathComponent("trust-anchor-\(index + 1).pem"))
        }
        let profiles = profile.map { [$0] } ?? BuiltinCatalogue.profiles.filter { $0.families.contains(testCase.family) }
        // The exec-suite document an exec adapter reads on stdin and `POST /v1/cases` carries: the case as the
        // verifier sees it, under the profile (reproduces a run with `adapter < request.json` or curl).
        if let requestProfile = profile ?? profiles.first {
            let request = try JSONEncoder.harness.encode(ExecSuite(profile: requestProfile, requests: [testCase.request]))
            try Output.writeFile(Array(request) + [0x0a], to: directory.appendingPathComponent("request.json"))
        }
        let suite = VectorSuite(family: testCase.family, seed: seed, stepKinds: [:], rules: [], profiles: profiles, cases: [testCase])
        let description = try JSONEncoder.harness.encode(suite.cases[0])
        try Output.writeFile(Array(description) + [0x0a], to: directory.appendingPathComponent("case.json"))
        Output.note("attest-harness forge: wrote \(testCase.id) to \(out)\n")
        return 0
    }
}
