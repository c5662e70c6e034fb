import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestServer
import AttestVerifiers
import Foundation

/// How to reproduce a failing case of a run outside the run: the commands that forge its evidence and run it alone,
/// and, for HTTP verifiers, its requests as curl lines with secrets redacted. Built from the arguments as given, so
/// that a profile file or an API map path stays a path.
struct Reproduction {
    let verifier: String
    let profileArgument: String
    let profile: Profile
    let seed: UInt64
    let api: MapOptions?
    let apiArgument: String?
    /// The suite file the run read its cases from (`run --cases`): its cases are not the catalogue's, so neither
    /// `forge --case` nor `--seed` makes them; the file does.
    var casesFile: String? = nil
    /// The other options of the run that change what a case sees (`--timeout 3`, `--cacert FILE`, `--real-time`,
    /// `--exec-suite 64`), repeated in the `run` line.
    var options: [String] = []

    /// At most this many failing cases get curl lines (each renders its requests through an in-process emulation).
    static let requestLimit = 200

    /// `results` with `reproduce` (and `requests`, for HTTP verifiers) set on every failing result.
    func annotate(_ report: RunReport, cases: [Case]) async -> RunReport {
        var report = report
        let byId = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var rendered = 0
        for index in report.results.indices where report.results[index].status.isFailure {
            let id = report.results[index].caseId
            report.results[index].reproduce = commands(for: id)
            if rendered < Self.requestLimit, let testCase = byId[id], let requests = await requests(for: testCase) {
                report.results[index].requests = requests
                rendered += 1
            }
        }
        return report
    }

    /// Forge the evidence (with request.json, the document a verifier receives), then run the case alone; for a
    /// case from a suite file, run it alone from that file.
    func commands(for caseId: String) -> [String] {
        var run = ["attest-harness", "run", "--verifier", verifier, "--profile", profileArgument]
        if let apiArgument { run += ["--api", apiArgument] }
        if let casesFile { return [Self.shell(run + options + ["--cases", casesFile, "--filter", caseId])] }
        run += options + ["--seed", String(seed), "--filter", caseId]
        let forge = ["attest-harness", "forge", "--case", caseId, "--seed", String(seed), "--profile", profileArgument,
                     "--out", caseId]
        return [Self.shell(forge), Self.shell(run)]
    }

    /// The requests the case sends: for our verdict protocol the POST of the forged request.json, for an exec
    /// adapter its command reading it, for an API map every request of the case as the map's emulation renders it.
    func requests(for testCase: Case) async -> [String]? {
        let file = "\(testCase.id)/request.json"
        // A suite file's case has no forge line to write its request.json: only a map's requests can be shown.
        if casesFile != nil, api == nil { return nil }
        if let api {
            guard let transport = try? InProcessMapServer(map: api.map, profile: profile, seed: seed, name: verifier) else { return nil }
            let placeholders = Dictionary(uniqueKeysWithValues: api.map.environmentNames.map { ($0, "<$\($0)>") })
            let lines = LineCollector()
            let driver = MapDriver(map: api.map, transport: transport, seed: seed, environment: placeholders) { event in
                if case .request(let curl) = event { lines.append(curl) }
            }
            _ = try? await driver.verdicts(for: testCase.request, profile: profile)
            return lines.all
        }
        if verifier.hasPrefix("http://") || verifier.hasPrefix("https://"), let base = URL(string: verifier) {
            // The URL the HTTP verifier posts to, built the same way (a query or fragment stays where it was).
            let url = base.appendingPathComponent("v1").appendingPathComponent("cases").absoluteString
            return [Self.shell(["curl", "-sS", "-X", "POST", url, "-H", "Content-Type: application/json",
                                "--data-binary", "@" + file])]
        }
        if verifier.hasPrefix("exec:") {
            // As the harness runs it: the whole command line through sh, the document on its stdin.
            let command = String(verifier.dropFirst("exec:".count)).trimmingCharacters(in: .whitespaces)
            return [Self.shell(["sh", "-c", "exec " + command]) + " < " + Self.quote(file)]
        }
        return nil
    }

    /// Words joined for a POSIX shell, each quoted unless it is plainly safe.
    static func shell(_ words: [String]) -> String { words.map(quote).joined(separator: " ") }

    static func quote(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@+,%")
        if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
