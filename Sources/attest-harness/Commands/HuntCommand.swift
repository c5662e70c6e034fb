import AttestCatalogue
import CAttestSpawn
import AttestConformance
import AttestForge
import AttestHunt
import Dispatch
import Foundation

/// `hunt`: mutate valid evidence, send every mutant to every verifier, keep the disagreements as clusters.
/// `hunt report DIR`: the triage of a hunt directory.
enum HuntCommand: Command {
    static let name = "hunt"
    static let abstract = "Mutate valid evidence against several verifiers at once and keep their disagreements as replayable clusters."
    static let usage = "--verifier URI --verifier URI [...] --profile P --out DIR [--time DURATION] [--mutants N] [--seed N] [--shard I/N] [--timeout SECONDS] [--exec-suite N] [--jobs N] [--quiet]\n"
        + "       attest-harness hunt report DIR [--format markdown|json|html] [--out FILE]\n"
        + "       attest-harness hunt merge DIR DIR [...] --out DIR"
    static let options: [OptionSpec] = [
        OptionSpec(name: "verifier", value: "URI", help: "A verifier, as run takes it (given twice or more; the reference may be one). Cluster patterns list them in this order."),
        OptionSpec(name: "profile", value: "P", help: "The policy the mutated valid cases come from (a built-in name or a JSON file; its webauthn family is hunted)."),
        OptionSpec(name: "out", value: "DIR", help: "The hunt directory: hunt.json (resumable state), clusters/ID.json (replay suites). With report: the triage file."),
        OptionSpec(name: "time", value: "DURATION", help: "Stop after this long (90s, 10m, 8h; default 10m unless --mutants is given)."),
        OptionSpec(name: "mutants", value: "N", help: "Stop after N more mutants tried in this run."),
        .seed,
        OptionSpec(name: "shard", value: "I/N", help: "Draw only mutant numbers congruent to I modulo N (a CI matrix runs the shards of one seed in parallel)."),
        OptionSpec(name: "timeout", value: "SECONDS", help: "Per-case limit for exec: and http: verifiers; past it the mutant is a hang for that verifier (default 10)."),
        OptionSpec(name: "exec-suite", value: "N", help: "Cases per exec adapter process (default 16: one start-up per batch)."),
        OptionSpec(name: "jobs", value: "N", help: "Cases a one-case-per-call verifier judges at once (default 2)."),
        OptionSpec(name: "format", value: "FORMAT", help: "With report: markdown (default), json, or html (a page with each cluster's decoded evidence against the valid case)."),
        .quiet,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        if arguments.positional.first == "report" { return try report(arguments) }
        if arguments.positional.first == "merge" { return try merge(arguments) }
        try arguments.rejectPositional()
        let names = arguments.all("verifier")
        guard names.count >= 2 else { throw UsageError("hunt compares verifiers: give --verifier at least twice") }
        let profileName = try arguments.required("profile")
        let profile = try Selection.profile(profileName)
        let out = try arguments.required("out")
        let seed = try arguments.seed()
        let timeout = try arguments.number("timeout", default: 10, in: 0.01...3600, "seconds")
        let execSuite = try integer(arguments, "exec-suite", default: 16, in: 1...10_000)
        let jobs = try integer(arguments, "jobs", default: 2, in: 1...256)
        let budget = try arguments.value("mutants").map { _ in try integer(arguments, "mutants", default: 1, in: 1...1_000_000_000) }
        let seconds = try arguments.value("time").map(duration) ?? (budget == nil ? 600 : nil)
        let (shard, shards) = try arguments.value("shard").map(shardOption) ?? (0, 1)
        // Refused before anything is made or started: a profile with nothing to hunt.
        if !HuntFamily.names.contains(where: profile.families.contains) { throw UsageError("\(HuntError.noFamily(profile: profile.name))") }
        let verifiers = try names.map { name in
            try Selection.verifier(name, profile: profile, timeout: timeout, seed: seed, execSuite: name.hasPrefix("exec:") ? execSuite : 1)
        }
        for verifier in verifiers {
            do {
                try await verifier.prepare()
            } catch {
                throw UsageError("verifier \(verifier.name): \(error)")
            }
        }
        let directory = try Output.directory(out)
        let stateFile = directory.appendingPathComponent("hunt.json")
        let configuration = HuntState.Configuration(profile: profileName, verifiers: names, seed: seed, shard: shard, shards: shards)
        var state = HuntState(configuration: configuration)
        if let data = try InputFile.readIfPresent(stateFile) {
            let saved = try HuntState.load(data)
            guard saved.configuration == configuration else {
                throw UsageError("\(out): \(HuntError.otherConfiguration("profile \(saved.configuration.profile), verifiers \(saved.configuration.verifiers.joined(separator: " ")), seed \(saved.configuration.seed), shard \(saved.configuration.shard)/\(saved.configuration.shards)"))")
            }
            guard saved.mergedShards == nil else { throw UsageError("\(out) holds merged shards, which are for reports; hunt into another --out") }
            state = saved
            Output.note("attest-harness hunt: resuming at mutant \(state.nextIndex) with \(state.clusters.count) clusters\n")
        }
        Output.note("attest-harness hunt: judging the valid \(profile.name) cases with every verifier\n")
        let hunter: Hunter
        do {
            hunter = try await Hunter.prepare(profile: profile, verifiers: verifiers, state: &state, batchSize: 16, jobs: jobs)
        } catch let error as HuntError {
            throw UsageError("\(error)")
        }
        for (id, why) in state.excludedBaselines.sorted(by: { $0.key < $1.key }) {
            Output.note("attest-harness hunt: left out \(id): \(why)\n")
        }
        Output.note("attest-harness hunt: \(hunter.forge.baselineCount) valid cases, \(hunter.forge.mutationCount) mutations; verifiers "
                    + names.enumerated().map { "\($0 + 1): \($1)" }.joined(separator: ", ") + "\n")

        let interruption = Interruption()
        let startTried = state.mutantsTried
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var lastNote = Date.distantPast
        try await hunter.run(&state, stop: { state in
            if let budget, state.mutantsTried - startTried >= UInt64(budget) { return true }
            if let deadline, Date() >= deadline { return true }
            return false
        }, interrupted: { interruption.happened }, save: { state in
            try Output.writeFile(Array(try state.json), to: stateFile)
        }, progress: { progress in
            guard Date().timeIntervalSince(lastNote) >= 10 else { return }
            lastNote = Date()
            Output.note(progressLine(progress.state, run: progress.runSeconds, tried: progress.state.mutantsTried - startTried) + "\n")
        })
        if interruption.happened { Output.note("attest-harness hunt: interrupted; saved, resume with the same command\n") }
        Output.note(progressLine(state, run: nil, tried: state.mutantsTried - startTried) + "\n")
        Output.note("attest-harness hunt: checking which clusters the catalogue already catches\n")
        let catalogue = try Selection.cases(profile: profile, seed: seed)
        await hunter.measureCoverage(&state, catalogue: catalogue)
        try Output.writeFile(Array(try state.json), to: stateFile)
        let report = try writeSuites(state, profile: profile, directory: directory)
        try Output.standardOutput(summary(report))
        return interruption.happened ? 130 : 0
    }

    /// `hunt report DIR`: the triage as Markdown or JSON (stdout or --out), and the replay suites written again.
    static func report(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positional.count == 2 else { throw UsageError("usage: attest-harness hunt report DIR [--format markdown|json|html] [--out FILE]") }
        let path = arguments.positional[1]
        let state = try savedState(in: path)
        let profile = try Selection.profile(state.configuration.profile)
        let report = try writeSuites(state, profile: profile, directory: URL(fileURLWithPath: path, isDirectory: true))
        switch arguments.value("format") ?? "markdown" {
        case "markdown": try Output.write(report.markdown(directory: path), to: arguments.value("out"))
        case "json": try Output.write(String(decoding: try report.json(), as: UTF8.self), to: arguments.value("out"))
        case "html": try Output.write(HuntTriagePage(report: report, directory: path).text, to: arguments.value("out"))
        case let other: throw UsageError("bad --format \"\(other)\"; expected markdown, json or html")
        }
        return 0
    }

    /// `hunt merge DIR... --out DIR`: the shards of one hunt as one directory (clusters, suites, counts).
    static func merge(_ arguments: Arguments) throws -> Int32 {
        let sources = Array(arguments.positional.dropFirst())
        guard sources.count >= 2 else { throw UsageError("usage: attest-harness hunt merge DIR DIR [...] --out DIR") }
        let out = try arguments.required("out")
        let states = try sources.map(savedState)
        let merged: HuntState
        do {
            merged = try HuntState.merge(states)
        } catch {
            throw UsageError("\(error)")
        }
        let directory = try Output.directory(out)
        if try InputFile.readIfPresent(directory.appendingPathComponent("hunt.json")) != nil { throw UsageError("\(out) already holds a hunt; merge into a new directory") }
        try Output.writeFile(Array(try merged.json), to: directory.appendingPathComponent("hunt.json"))
        let report = try writeSuites(merged, profile: try Selection.profile(merged.configuration.profile), directory: directory)
        try Output.standardOutput(summary(report))
        return 0
    }

    /// The hunt saved in directory `path` (its hunt.json).
    static func savedState(in path: String) throws -> HuntState {
        guard let data = try InputFile.readIfPresent(URL(fileURLWithPath: path).appendingPathComponent("hunt.json")) else {
            throw UsageError("\(path) holds no hunt (no hunt.json)")
        }
        do {
            return try HuntState.load(data)
        } catch {
            throw UsageError("\(path)/hunt.json: \(error)")
        }
    }

    /// Writes each cluster's replay suite under DIR/clusters and returns the report over them.
    static func writeSuites(_ state: HuntState, profile: Profile, directory: URL) throws -> HuntReport {
        let baselines = try HuntFamily.all(for: profile, seed: state.configuration.seed).flatMap(\.baselineCases)
        let catalogue = try Selection.cases(profile: profile, seed: state.configuration.seed)
        let named = Dictionary(catalogue.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var rules: [Rule] = []
        for family in BuiltinCatalogue.families where profile.families.contains(family.name) { rules += family.rules }
        let report = HuntReport(state: state, baselines: baselines.map { named[$0.id] ?? $0 }, rules: rules)
        let clusters = try Output.directory(directory.appendingPathComponent("clusters").path)
        for cluster in state.clusters {
            try Output.writeFile(Array(try report.suite(cluster, profile: profile).json), to: clusters.appendingPathComponent("\(cluster.key.id).json"))
        }
        return report
    }

    static func summary(_ report: HuntReport) -> String {
        let state = report.state
        var lines = ["hunt: \(state.mutantsTried) mutants, \(state.clusters.count) clusters (\(state.clusters.filter(report.isNew).count) new to the catalogue)"]
        for cluster in report.clusters {
            let rule = cluster.suggestedRule(verifiers: state.configuration.verifiers).map(\.rawValue) ?? "-"
            lines.append("  \(cluster.key.pattern)  \(cluster.key.field) \(cluster.key.kind)  seen \(cluster.count)  rule \(rule)  \(report.coverage(cluster))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func progressLine(_ state: HuntState, run: Double?, tried: UInt64) -> String {
        let rates = state.verifierSeconds.enumerated().map { index, seconds in
            "\(index + 1): \(seconds > 0 ? String(format: "%.1f", Double(state.mutantsTried) / seconds) : "-")/s"
        }.joined(separator: ", ")
        return "attest-harness hunt: \(state.mutantsTried) mutants (\(tried) this run), \(state.clusters.count) clusters, "
            + "\(String(format: "%.0f", state.elapsed)) s; mutants per second of each verifier's own time \(rates)"
    }

    /// `90s`, `10m`, `8h`, or plain seconds.
    static func duration(_ text: String) throws -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        var number = Substring(text)
        var unit = 1.0
        if let last = text.last, let factor = units[last] {
            number = text.dropLast()
            unit = factor
        }
        guard !number.isEmpty, number.allSatisfy(\.isNumber), let value = Double(number), value * unit >= 1, value * unit <= 7 * 86_400 else {
            throw UsageError("bad --time \"\(text)\": expected a duration from 1s to 168h, such as 90s, 10m or 8h")
        }
        return value * unit
    }

    static func shardOption(_ text: String) throws -> (Int, Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...10_000).contains(count), (0..<count).contains(index) else {
            throw UsageError("bad --shard \"\(text)\": expected I/N with 0 <= I < N <= 10000")
        }
        return (index, count)
    }

    static func integer(_ arguments: Arguments, _ name: String, default fallback: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = arguments.value(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("bad --\(name) \"\(text)\": expected \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

/// SIGINT and SIGTERM during a hunt: the first one stops it after the current batch (whose answers are dropped, as
/// the signal may have reached the adapters too) and saves; a second one stops at once, killing every adapter.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var sources: [DispatchSourceSignal] = []

    init() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in self?.received(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    var happened: Bool {
        lock.lock()
        defer { lock.unlock() }
        return count > 0
    }

    private func received(_ signalNumber: Int32) {
        lock.lock()
        count += 1
        let again = count > 1
        lock.unlock()
        Output.note("attest-harness hunt: signal \(signalNumber): stopping after this batch (again to stop now)\n")
        if again {
            attest_install_cleanup_handlers()
            raise(signalNumber)
        }
    }
}
