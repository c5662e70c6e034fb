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
        var cases = try Selection.cases(profile: profile, seed: seed).filter { $0.family == map.family }
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
        let driver = MapDriver(map: map, transport: transport, seed: seed, environment: [:]) { event in
            switch event {
            case .request(let curl): lines.append(curl)
            case .waiting(let message): lines.append("# " + message)
            }
        }
        lines.append("# \(testCase.id): \(testCase.description)")
        do {
            let verdicts = try await driver.verdicts(for: testCase.request, profile: profile)
            lines.append("# verdicts (from the emulation): " + verdicts.map { $0.outcome.rawValue + ($0.status.map { " \($0)" } ?? "") }.joined(separator: ", "))
        } catch {
            lines.append("# the case stopped: \(error)")
        }
        try Output.write(lines.text, to: nil)
        return 0
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

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return lines.joined(separator: "\n") + "\n"
    }
}
