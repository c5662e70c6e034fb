import AttestConformance
import AttestReference
import Foundation
import AttestVerifiers

/// The reference verifier behind the exec contract: reads an `ExecSuite` on stdin, writes `ExecResults` on
/// stdout. It is how the contract is tested end to end, and a model for adapters in other languages.
enum ExecReferenceCommand: Command {
    static let name = "exec-reference"
    static let abstract = "Judge an exec-contract suite from stdin with the reference verifier; results on stdout."
    static let usage = "[--without RULE]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "without", value: "RULE", help: "Skip this rule (a mutant, to see the harness catch it)."),
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        let suite: ExecSuite
        do {
            suite = try JSONDecoder.harness.decode(ExecSuite.self, from: FileHandle.standardInput.readDataToEndOfFile())
        } catch {
            throw UsageError("stdin is not an exec suite document: \(error.plainDescription)")
        }
        var profile = suite.requestedProfile
        if let name = arguments.value("without") {
            // As run and serve do: a mutant without a rule the suite's profile does not enforce is a typo, not a test.
            let rule = RuleID(name)
            guard profile.enforces(rule) else {
                throw UsageError("--without \(name): the suite's profile \(suite.profile.name) does not enforce that rule")
            }
            profile = profile.without(rule)
        }
        let verifier = ReferenceVerifier(profile: profile, name: "attest-harness exec-reference")
        let output = try JSONEncoder.harness.encode(try verifier.judge(suite))
        try Output.write(String(decoding: output, as: UTF8.self) + "\n", to: nil)
        return 0
    }
}
