import AttestCatalogue
import AttestConformance
import Foundation
import AttestVerifiers

enum RunCommand: Command {
    static let name = "run"
    static let abstract = "Run the catalogue against a verifier and report findings."
    static let usage = "--verifier URI --profile P [--filter GLOB] [--format console|json|junit|markdown] [--out FILE] [--baseline FILE] [--seed N] [--jobs N] [--rate N] [--timeout SECONDS]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "verifier", value: "URI", help: "builtin:reference, builtin:reference-without:<rule>, exec:<command> (vectors/exec-contract.md), http://host:port (our verdict protocol) or civiq+http://host:port (seeds/001 API, live ceremony)."),
        OptionSpec(name: "profile", value: "P", help: "The policy the verifier should enforce (a built-in name or a JSON file)."),
        OptionSpec(name: "filter", value: "GLOB", help: "Only cases whose id matches GLOB (e.g. 'appattest.nonce.*')."),
        OptionSpec(name: "format", value: "FORMAT", help: "console (default), json, junit or markdown."),
        OptionSpec(name: "out", value: "FILE", help: "Write the report to FILE instead of stdout."),
        OptionSpec(name: "baseline", value: "FILE", help: "A JSON report of an earlier run: exit 1 only for new findings."),
        .seed,
        OptionSpec(name: "jobs", value: "N", help: "Cases run in parallel (default: the number of cores; I/O-bound verifiers such as http:// servers can take far more, up to 256)."),
        OptionSpec(name: "rate", value: "N", help: "Start at most N cases per second (a deployed server's rate limit; default unlimited)."),
        OptionSpec(name: "timeout", value: "SECONDS", help: "Per-case limit for exec: and http: verifiers; past it the case is a HANG or a harness error (default 10)."),
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        let profile = try Selection.profile(try arguments.required("profile"))
        let timeout = try arguments.number("timeout", default: 10, in: 0.01...3600, "seconds")
        let seed = try arguments.seed()
        let verifier = try Selection.verifier(try arguments.required("verifier"), profile: profile, timeout: timeout, seed: seed)
        let formatName = arguments.value("format") ?? "console"
        guard let format = ReportFormat(rawValue: formatName) else {
            throw UsageError("bad format \"\(formatName)\"; expected one of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = arguments.value("jobs") {
            guard let value = Int(text), (1...256).contains(value) else { throw UsageError("bad --jobs \"\(text)\": expected 1 to 256") }
            jobs = value
        }
        let rate = try arguments.value("rate").map { _ in
            RateLimit(perSecond: try arguments.number("rate", default: 1, in: 0.01...10_000, "cases per second"))
        }
        let baseline = try arguments.value("baseline").map { path -> RunReport in
            guard FileManager.default.fileExists(atPath: path) else { throw UsageError("no such baseline file \(path)") }
            do {
                return try RunReport.load(from: URL(fileURLWithPath: path))
            } catch {
                throw UsageError("baseline \(path) is not a JSON report of attest-harness run: \(error)")
            }
        }
        var cases = try Selection.cases(profile: profile, seed: seed)
        if let glob = arguments.value("filter") {
            cases = cases.filter { Selection.matches(glob, $0.id) }
            guard !cases.isEmpty else { throw UsageError("no case matches --filter \(glob)") }
        }

        // A verifier that cannot be reached at all is one clear error before any case (exit 2).
        do {
            try await verifier.prepare()
        } catch {
            throw UsageError("\(error)")
        }
        var report = await Runner(profile: profile, verifier: verifier).run(cases, seed: seed, jobs: jobs, rate: rate) { done, total in
            Output.progress("attest-harness run: \(done)/\(total) cases")
        }
        Output.endProgress()
        // The Authorization value a live driver sends never reaches a report, whatever a server echoes back.
        report = report.redacting(RunReport.authorizationSecrets(ProcessInfo.processInfo.environment["ATTEST_HARNESS_AUTHORIZATION"]))
        if let baseline { report = report.compared(with: baseline) }
        let out = arguments.value("out")
        let text = try format.render(report, rules: BuiltinCatalogue.rules,
                                     color: format == .console && out == nil && Output.colorOnStdout)
        try Output.write(text, to: out)
        return report.exitCode
    }
}
