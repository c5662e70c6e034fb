import AttestConformance
import Foundation
import Testing

/// The two real Django passkey sites of `Examples/DeployedServers`, each run end to end as a user runs it:
/// `run.sh NAME` makes the site's virtualenv from PyPI (pinned), starts it on loopback with a fresh database, runs
/// the whole webauthn-l3 catalogue through the site's API map with only the password in the environment, writes
/// the JSON report and stops the site. The report's findings and crashes are exactly the rows of the site's
/// README table (each with its cause in the server's code), so a new finding, true or false, fails here until it
/// is explained; the known weaknesses are among them, and the valid unattested registration passes.
@Suite(.serialized) struct DeployedServerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let sites = root.appendingPathComponent("Examples/DeployedServers")

    struct Site: Sendable {
        let name: String
        /// Case ids that must be findings (the site's known weaknesses, PROBE.md).
        let known: Set<String>
        /// Case ids that must pass.
        let passing: Set<String>
    }

    static let all: [Site] = [
        Site(name: "django-passkeys",
             known: ["webauthn.challenge.singleUse.assertion-replayed", "webauthn.signCount.lower", "webauthn.signCount.nonzero-then-zero",
                     "webauthn.clientData.origin.subdomain", "webauthn.clientData.origin.assertion-subdomain",
                     "webauthn.flags.backupEligible.swap-to-on", "webauthn.flags.backupState.registration"],
             passing: ["webauthn.valid.none", "webauthn.clientData.challenge.other-challenge", "webauthn.flags.userPresent.registration"]),
        Site(name: "django-otp-webauthn",
             known: ["webauthn.assertion.userHandle.mismatch", "webauthn.flags.backupEligible.swap-to-on"],
             passing: ["webauthn.valid.none", "webauthn.assertion.owner.other-user", "webauthn.signCount.lower",
                       "webauthn.challenge.singleUse.assertion-replayed", "webauthn.clientData.origin.subdomain",
                       "webauthn.challenge.session.other-session", "webauthn.flags.backupState.registration"]),
    ]

    /// The case ids and results of the `| case | result | ...` table under `## Findings` in the site's README.
    static func documentedFindings(_ site: String) throws -> [String: String] {
        let text = try String(contentsOf: sites.appendingPathComponent("\(site)/README.md"), encoding: .utf8)
        var rows: [String: String] = [:]
        var inFindings = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inFindings = line == "## Findings" }
            guard inFindings, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            rows[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
        }
        return rows
    }

    /// Runs `run.sh site` with a deadline (SIGTERM to it past 15 minutes: its trap stops the site), the report
    /// written to a temporary directory.
    static func run(_ site: String, reportDirectory: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = sites.appendingPathComponent("run.sh")
        process.arguments = [site]
        var environment = ProcessInfo.processInfo.environment
        environment["ATTEST_HARNESS"] = CommandLineTests.binary.path
        environment["ATTEST_REPORT_DIR"] = reportDirectory.path
        environment["ATTEST_SITE_PASSWORD"] = "attest-\(UUID().uuidString)"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = PipeReader(err)
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 900, execute: deadline)
        let data = stderr.wait()
        process.waitUntilExit()
        deadline.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: all.map(\.name))
    func theWholeCatalogueThroughTheSitesMapFindsWhatItsReadmeExplains(site: String) throws {
        let expectations = try #require(Self.all.first { $0.name == site })
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, stderr) = try Self.run(site, reportDirectory: directory)
        #expect(status == 1, "\(stderr.suffix(2000))")
        let report = try RunReport.decode(Data(contentsOf: directory.appendingPathComponent("\(site).json")))
        #expect(report.results.count > 200)
        #expect(report.errors.isEmpty, "\(report.errors.map(\.summary))")
        // The site's own policy judged it (stated and read from its options), and only the password was needed.
        #expect(stderr.contains("judging by the site's policy (webauthn-l3+site)"), "\(stderr.suffix(1000))")
        let failing = Dictionary(report.results.filter { [.finding, .crash, .hang].contains($0.status) }.map { ($0.caseId, $0.status.rawValue) },
                                 uniquingKeysWith: { first, _ in first })
        let documented = try Self.documentedFindings(site)
        #expect(!documented.isEmpty)
        #expect(failing == documented, "reported but not in the README: \(failing.filter { documented[$0.key] != $0.value }.keys.sorted()); in the README but not reported: \(documented.filter { failing[$0.key] != $0.value }.keys.sorted())")
        for id in expectations.known { #expect(failing[id] == "finding", "\(id)") }
        for id in expectations.passing {
            #expect(report.results.first { $0.caseId == id }?.status == .pass, "\(id): \(report.results.first { $0.caseId == id }?.summary ?? "not run")")
        }
        // The site was stopped: nothing listens on its port any more.
        let port: UInt16 = site == "django-passkeys" ? 8741 : 8742
        #expect(!Self.listening(port))
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func listening(_ port: UInt16) -> Bool {
        #if os(Linux)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let socket = Foundation.socket(AF_INET, stream, 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
