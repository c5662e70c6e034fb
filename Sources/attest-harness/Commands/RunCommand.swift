import AttestAPIMap
import AttestCatalogue
import AttestConformance
import Foundation
import AttestVerifiers

enum RunCommand: Command {
    static let name = "run"
    static let abstract = "Run the catalogue against a verifier and report findings."
    static let usage = "--verifier URI --profile P [--api MAP [--cacert FILE] [--real-time] [--dry-run]] [--fail-on LIST] [--allow-profile-mismatch] [--filter GLOB] [--cases FILE] [--format console|json|junit|markdown|sarif|html [--sarif-location PATH[:LINE] | --sarif-artifacts DIR]] [--out FILE] [--baseline FILE [--baseline-any-profile]] [--seed N] [--jobs N] [--rate N] [--timeout SECONDS] [--exec-suite N] [--progress auto|always|never] [--quiet] [--color auto|always|never]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "verifier", value: "URI", help: "builtin:reference, builtin:reference-without:<rule>, exec:<command> (vectors/exec-contract.md), or http(s)://host:port (our verdict protocol; with --api, the server's own API)."),
        OptionSpec(name: "api", value: "MAP", help: "Drive the server's own routes as the API map MAP describes (docs/api-maps.md; apis/civiq.json, apis/striga.json, apis/fido.json)."),
        OptionSpec(name: "cacert", value: "FILE", help: "With --api: trust the PEM CA certificates in FILE for https (a staging server's private CA)."),
        OptionSpec(name: "real-time", value: nil, help: "With --api against a server without a clock header: wait out the time between steps of lifetime cases (else they are reported unsupported)."),
        OptionSpec(name: "dry-run", value: nil, help: "With --api: print the requests of the first selected case as curl lines (secrets redacted), answered by an in-process emulation of the map; nothing is sent."),
        OptionSpec(name: "profile", value: "P", help: "The policy the verifier should enforce (a built-in name or a JSON file)."),
        OptionSpec(name: "fail-on", value: "LIST", help: "What fails the run (exit 1, or 2 for harness errors): comma-separated rule levels MUST, SHOULD, POLICY and outcomes crash, unconfirmed, hang, error (default: MUST,SHOULD,POLICY,crash,hang,error). Reports still list everything."),
        OptionSpec(name: "allow-profile-mismatch", value: nil, help: "Run against a verdict-protocol server that judges by another profile than --profile (refused otherwise: its verdicts would read like a verifier's bugs)."),
        OptionSpec(name: "filter", value: "GLOB", help: "Only cases whose id matches GLOB (e.g. 'appattest.nonce.*'), and the controls they name (a refusal is a pass only when the control was accepted in the same run)."),
        OptionSpec(name: "cases", value: "FILE", help: "Run the cases of this vectors-format suite (vectors/*.json, a hunt's clusters/ID.json) instead of the catalogue."),
        OptionSpec(name: "format", value: "FORMAT", help: "console (default), json (docs/report.schema.json), junit, markdown, sarif (2.1.0) or html (one self-contained file). `attest-harness report` renders a saved JSON report in the others."),
        OptionSpec(name: "out", value: "FILE", help: "Write the report to FILE instead of stdout."),
        OptionSpec(name: "sarif-location", value: "PATH[:LINE]", help: "With --format sarif: point every result at this file of the verifier under test (relative to the repository root) and line, for code scanning to annotate (default: the case, under the ATTEST_HARNESS_CASES base, line 1)."),
        SARIFEvidenceFiles.option,
        OptionSpec(name: "baseline", value: "FILE", help: "A JSON report of an earlier run under the same profile and catalogue: failures it already had are reported as known and do not fail the run; passes it failed are listed as fixed."),
        OptionSpec(name: "baseline-any-profile", value: nil, help: "Compare with a baseline of another profile or catalogue anyway (else that is a usage error, exit 2)."),
        .quiet,
        .color,
        OptionSpec(name: "progress", value: "WHEN", help: "auto (default: a live line on a terminal, else a line every 10 s or 10% on stderr), always (the live line) or never."),
        .seed,
        OptionSpec(name: "jobs", value: "N", help: "Cases run in parallel (default: the number of cores; I/O-bound verifiers such as http:// servers can take far more, up to 256)."),
        OptionSpec(name: "rate", value: "N", help: "Start at most N cases per second (a deployed server's rate limit; default unlimited)."),
        OptionSpec(name: "timeout", value: "SECONDS", help: "Per-case limit for exec: and http: verifiers; past it the case is a HANG or a harness error (default 10)."),
        OptionSpec(name: "exec-suite", value: "N", help: "With exec: up to N cases per adapter process (one start-up for many cases, each still judged from fresh state by contract); a process that hangs or fails is stopped within --timeout and its cases are retried one per process (default 1)."),
    ]

    /// The largest suite file read: 9 times the largest the harness writes (vectors/webauthn.json, 3.5 MB). Decoding
    /// costs about 17 times the file in memory, so a bound of 256 MiB let a hostile suite take 4.5 GB.
    static let suiteSizeLimit = 32 << 20

    /// The cases of a vectors-format suite file (at most 32 MiB, a regular file): at least one, each id once, of a
    /// family and breaking a rule this harness knows (a suite with none would report a run that judged nothing as
    /// conformant; a rule it does not know no profile can expect refused).
    static func suiteCases(_ path: String) throws -> [Case] {
        guard let data = try InputFile.readIfPresent(URL(fileURLWithPath: path), limit: suiteSizeLimit) else { throw UsageError("no such suite \(path)") }
        do {
            let cases = try JSONDecoder.harness.decode(VectorSuite.self, from: data).runnableCases
            guard !cases.isEmpty else { throw UsageError("\(path) has no cases") }
            var seen = Set<String>()
            let families = Set(BuiltinCatalogue.families.map { $0.name }), rules = Set(BuiltinCatalogue.rules.map(\.id))
            for testCase in cases {
                guard seen.insert(testCase.id).inserted else { throw UsageError("\(path) has case \(testCase.id) twice") }
                guard families.contains(testCase.family) else {
                    throw UsageError("\(path): case \(testCase.id) is of family \(testCase.family), which this harness does not have")
                }
                for rule in [testCase.rule].compactMap({ $0 }) + testCase.steps.compactMap(\.breaks) where !rules.contains(rule) {
                    throw UsageError("\(path): case \(testCase.id) breaks \(rule.rawValue), which is no rule of this harness")
                }
            }
            return cases
        } catch let error as UsageError {
            throw error
        } catch let error as DecodingError {
            throw UsageError("\(path) is not a vectors suite: \(error.plainDescription)")
        } catch {
            throw UsageError("\(path) is not a vectors suite: \(error)")
        }
    }

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        var profile = try Selection.profile(try arguments.required("profile"))
        let timeout = try arguments.number("timeout", default: 10, in: 0.01...3600, "seconds")
        let seed = try arguments.seed()
        let api = try arguments.value("api").map {
            try MapOptions.load($0, caCertificates: arguments.value("cacert"), realTime: arguments.flag("real-time"))
        }
        if api == nil {
            for option in ["cacert", "real-time", "dry-run"] where arguments.value(option) != nil || arguments.flag(option) {
                throw UsageError("--\(option) goes with --api MAP")
            }
        }
        if let api, arguments.flag("dry-run") {
            return try await DryRun.run(api.map, profile: try SitePolicyProfile.stated(api.map, base: profile), seed: seed,
                                        filter: arguments.value("filter"), baseURL: try arguments.required("verifier"))
        }
        var execSuite = 1
        if let text = arguments.value("exec-suite") {
            guard let value = Int(text), (1...100_000).contains(value) else { throw UsageError("bad --exec-suite \"\(text)\": expected 1 to 100000") }
            execSuite = value
        }
        let verifier = try Selection.verifier(try arguments.required("verifier"), profile: profile, timeout: timeout, seed: seed, api: api,
                                              execSuite: execSuite, allowProfileMismatch: arguments.flag("allow-profile-mismatch"))
        let format: ReportFormat
        do {
            format = try ReportFormat.named(arguments.value("format") ?? "console")
        } catch {
            throw UsageError("\(error)")
        }
        // Checked before any case runs, as every option is.
        let sarifLocation = try Self.sarifLocation(arguments, format: format)
        let sarifArtifacts = try SARIFEvidenceFiles.chosen(arguments, format: format, location: sarifLocation)
        let colorWanted = try arguments.color(terminal: Output.colorOnStdout)
        let failOn = try arguments.value("fail-on").map { text -> FailureGate in
            switch FailureGate.parse(text) {
            case .success(let gate): return gate
            case .failure(let unknown):
                let word = unknown.word
                let suggestion = Suggestion.closest(to: word, among: FailureGate.words).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError("bad --fail-on \"\(word)\"\(suggestion); expected a comma-separated list of \(FailureGate.words.joined(separator: ", "))")
            }
        }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = arguments.value("jobs") {
            guard let value = Int(text), (1...256).contains(value) else { throw UsageError("bad --jobs \"\(text)\": expected 1 to 256") }
            jobs = value
        }
        let rate = try arguments.value("rate").map { _ in
            RateLimit(perSecond: try arguments.number("rate", default: 1, in: 0.01...10_000, "cases per second"))
        }
        let progressName = arguments.flag("quiet") ? "never" : arguments.value("progress") ?? "auto"
        guard let progressMode = ProgressMode(rawValue: progressName) else {
            throw UsageError("bad --progress \"\(progressName)\"; expected auto, always or never")
        }
        if arguments.flag("baseline-any-profile"), arguments.value("baseline") == nil {
            throw UsageError("--baseline-any-profile goes with --baseline FILE")
        }
        let baseline = try arguments.value("baseline").map { try ReportFile.load($0, role: "baseline") }
        let progress = ProgressReporter(mode: progressMode, label: "attest-harness run")
        if let api, let driver = verifier as? MapDriver, api.map.policy != nil {
            // The site's own policy (stated in the map, or read from its options) is what its cases are judged by.
            profile = try await SitePolicyProfile.derive(api.map, driver: driver, base: profile, seed: seed)
            Output.note("attest-harness run: judging by the site's policy (\(profile.name)): \(SitePolicyProfile.summary(profile))\n")
        }
        progress.note("forging the \(profile.name) catalogue (seed \(seed))")
        let catalogueCases = try arguments.value("cases").map(Self.suiteCases) ?? Selection.cases(profile: profile, seed: seed)
        let catalogue = BuiltinCatalogue.version(of: catalogueCases, under: profile)
        if let baseline, !arguments.flag("baseline-any-profile") {
            do {
                try baseline.checkBaseline(profile: profile.name, catalogue: catalogue)
            } catch {
                progress.finish()
                throw UsageError("baseline \(arguments.value("baseline") ?? ""): \(error)")
            }
        }
        if let api {
            // Every source the map reads exists in this profile's cases: a typo is one error before any case runs.
            do {
                try MapDriver.validate(api.map, against: catalogueCases)
            } catch let error as APIMapError {
                progress.finish()
                throw UsageError("API map \(arguments.value("api") ?? ""): \(error)")
            }
        }
        var cases = catalogueCases
        if let glob = arguments.value("filter") {
            cases = cases.filter { Selection.matches(glob, $0.id) }
            guard !cases.isEmpty else { throw UsageError("no case matches --filter \(glob)") }
            // The controls of the selected cases run too: a refusal is a pass only when its control was accepted.
            cases = Case.withControls(cases, from: catalogueCases)
        }
        if let api {
            // A map drives one family's routes; the profile's other families have no route there.
            let others = cases.filter { $0.family != api.map.family }.count
            cases.removeAll { $0.family != api.map.family }
            guard !cases.isEmpty else { throw UsageError("no case of the \(api.map.family) family is selected") }
            if others > 0 {
                Output.note("attest-harness run: \(others) cases of other families than \(api.map.family) are not run through the \(api.map.name) map\n")
            }
        }

        // A verifier that cannot be reached at all is one clear error before any case (exit 2).
        do {
            try await verifier.prepare()
        } catch {
            progress.finish()
            throw UsageError("\(error)")
        }
        progress.begin(total: cases.count)
        var report = await Runner(profile: profile, verifier: verifier).run(cases, seed: seed, jobs: jobs, rate: rate) { done, _, latest in
            progress.advance(done: done, failed: latest.status.isFinding)
        }
        progress.finish()
        report.catalogue = catalogue
        report.host = ProcessInfo.processInfo.hostName
        let referenced = Set(report.results.compactMap(\.rule))
        report.rules = BuiltinCatalogue.rules.filter { referenced.contains($0.id) }
        report.failOn = failOn
        var reproduction = Reproduction(verifier: try arguments.required("verifier"), profileArgument: try arguments.required("profile"),
                                        profile: profile, seed: seed, api: api, apiArgument: arguments.value("api"),
                                        casesFile: arguments.value("cases"))
        for option in ["timeout", "cacert", "exec-suite"] {
            if let value = arguments.value(option) { reproduction.options += ["--\(option)", value] }
        }
        if arguments.flag("real-time") { reproduction.options.append("--real-time") }
        report = await reproduction.annotate(report, cases: cases)
        if let driver = verifier as? MapDriver, driver.map.observesOptions {
            // The options checks: what the server issued, judged over every options response the cases received.
            report.results += driver.optionsLog.results
            report.rules += OptionsCheck.rules
        }
        // The Authorization value a live driver sends never reaches a report, whatever a server echoes back.
        let environment = ProcessInfo.processInfo.environment
        let secretNames = ["ATTEST_HARNESS_AUTHORIZATION"] + (api?.map.environmentNames.sorted() ?? [])
        report = report.redacting(secretNames.flatMap { RunReport.authorizationSecrets(environment[$0]) })
        report = report.boundingVerifierText(to: RunReport.verifierTextLimit)
        if let baseline { report = report.compared(with: baseline) }
        let out = arguments.value("out")
        let evidence = format == .html || sarifArtifacts != nil ? EvidenceTree.evidence(for: cases, in: report) : [:]
        let color = format == .console && out == nil && colorWanted
        let text = try format.render(report, evidence: evidence, color: color, sarifLocation: sarifLocation, sarifArtifacts: sarifArtifacts)
        // The files SARIF results name exist before the SARIF report does.
        if let sarifArtifacts { try SARIFEvidenceFiles.write(sarifArtifacts, report: report, evidence: evidence) }
        try Output.write(text, to: out)
        // Exit 2 for harness errors says why in one line on stderr, whatever the format and --quiet: the report
        // may be in a file, or JSON nobody reads in a CI log.
        if report.exitCode == 2, let first = report.errors.first {
            let cases = report.results.filter { $0.optionsCheck != true }.count
            let judged = cases - report.errors.count
            Output.standardError("attest-harness run: \(report.errors.count) of \(cases) cases got no verdict (harness errors\(judged == 0 ? ", every case" : "")); the first, \(first.caseId): \((first.message ?? first.summary).prefix(300))\n")
        }
        return report.exitCode
    }

    /// `--sarif-location`, parsed; refused with another format (it would be silently ignored).
    static func sarifLocation(_ arguments: Arguments, format: ReportFormat) throws -> SARIFLocation? {
        guard let text = arguments.value("sarif-location") else { return nil }
        guard format == .sarif else { throw UsageError("--sarif-location goes with --format sarif") }
        do {
            return try SARIFLocation(parsing: text)
        } catch {
            throw UsageError("--sarif-location: \(error)")
        }
    }
}
