import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestServer
import AttestVerifiers
import Foundation

/// `run --api MAP --dry-run`: the requests one case would send, as curl lines with secrets redacted, answered by an
/// in-process emulation of the same map so that server-issued values flow as they would. Nothing leaves the process.
enum DryRun {
    static func run(_ map: APIMap, profile: Profile, seed: UInt64, filter: String?, baseURL: String) async throws -> Int32 {
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://"), URL(string: baseURL)?.host != nil else {
            throw UsageError("--dry-run shows requests to an http:// or https:// server, not \"\(baseURL)\"")
        }
        var cases = try Selection.cases(profile: profile, seed: seed).filter { $0.family == map.family }
        do {
            try MapDriver.validate(map, against: cases)
        } catch let error as APIMapError {
            throw UsageError("API map: \(error)")
        }
        if let filter { cases = cases.filter { Selection.matches(filter, $0.id) } }
        guard let testCase = cases.first else {
            throw UsageError("no case of the \(map.family) family matches\(filter.map { " --filter \($0)" } ?? "") under profile \(profile.name)")
        }
        let lines = LineCollector()
        let transport: InProcessMapServer
        do {
            transport = try InProcessMapServer(map: map, profile: profile, seed: seed, name: baseURL)
        } catch {
            throw UsageError("\(error)")
        }
        // Secrets are never read in a dry run: each env.NAME stands as a placeholder (and its header is redacted).
        let placeholders = Dictionary(uniqueKeysWithValues: map.environmentNames.map { ($0, "<$\($0)>") })
        let driver = MapDriver(map: map, transport: transport, seed: seed, environment: placeholders) { event in
            switch event {
            case .request(let curl): lines.append(curl)
            case .waiting(let message): lines.append("# " + message)
            }
        }
        lines.append("# \(testCase.id): \(testCase.description)")
        var status: Int32 = 0
        do {
            let verdicts = try await driver.verdicts(for: testCase.request, profile: profile)
            lines.append("# verdicts (from the emulation): " + verdicts.map { $0.outcome.rawValue + ($0.status.map { " \($0)" } ?? "") }.joined(separator: ", "))
            for (index, verdict) in verdicts.enumerated() where verdict.outcome != .accept {
                lines.append("#   step \(index): \(verdict.reason ?? "")")
            }
        } catch {
            lines.append("# the case stopped: \(error)")
            status = 2
        }
        try Output.write(lines.text, to: nil)
        return status
    }
}

/// Lines gathered from a Sendable callback.
final class LineCollector: @unchecked Sendable {
    private var lines: [String] = []
    private let lock = NSLock()

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    var text: String { all.joined(separator: "\n") + "\n" }
}
