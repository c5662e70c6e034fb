import AttestCatalogue
import AttestConformance

/// Runs `profile`'s catalogue against `verifier` and throws `ConformanceFailure`, listing every finding, unless the
/// verifier passes every case. Call it from XCTest or swift-testing; a thrown error fails the test in both:
///
///     @Test func conformsToAppAttest() async throws {
///         try await expectConformance(of: MyVerifier(), profile: .appleAppAttest)
///     }
///
/// - Parameters:
///   - verifier: the verifier under test, usually a `SessionVerifier` wrapping your production checks.
///   - profile: the policy your verifier enforces: a built-in one (`.appleAppAttest`, `.webAuthnL3`, ...) or your
///     own `Profile`; a case breaking a rule the profile does not enforce is expected to be accepted.
///   - seed: the forge seed; the same seed gives the same cases (and the same `forge --case` reproduction).
///   - filter: only cases whose id matches this shell glob (`appattest.nonce.*`), and the controls they name.
///   - jobs: cases in flight at once (ignored when the verifier requires serial cases).
/// - Returns: the report, when every case passed.
@discardableResult
public func expectConformance(of verifier: some AttestationVerifier, profile: Profile, seed: UInt64 = 1,
                              filter: String? = nil, jobs: Int = 4) async throws -> RunReport {
    let catalogue = try BuiltinCatalogue.cases(for: profile, seed: seed)
    var cases = catalogue
    if let filter { cases = cases.filter { CaseFilter.matches(filter, $0.id) } }
    guard !cases.isEmpty else { throw ConformanceFailure.noCases(profile: profile.name, filter: filter) }
    // The controls of the selected cases run too: a refusal passes only when its control was accepted.
    cases = Case.withControls(cases, from: catalogue)
    try await verifier.prepare()
    var report = await Runner(profile: profile, verifier: verifier).run(cases, seed: seed, jobs: jobs)
    report.catalogue = BuiltinCatalogue.version(of: catalogue, under: profile)
    let referenced = Set(report.results.compactMap(\.rule))
    report.rules = BuiltinCatalogue.rules.filter { referenced.contains($0.id) }
    guard report.results.allSatisfy({ $0.status == .pass }) else {
        throw ConformanceFailure.findings(report, rules: BuiltinCatalogue.rules)
    }
    return report
}

/// Why `expectConformance` failed: the cases that did not pass, each with what reproduces it, or no case to run.
public enum ConformanceFailure: Error, CustomStringConvertible {
    /// Cases that did not pass (findings, hangs, harness errors), with the whole report.
    case findings(RunReport, rules: [Rule])
    /// The profile (and filter) selected no case.
    case noCases(profile: String, filter: String?)

    /// The results that are not passes, in catalogue order.
    public var failures: [CaseResult] {
        guard case .findings(let report, _) = self else { return [] }
        return report.results.filter { $0.status != .pass }
    }

    public var description: String {
        switch self {
        case .noCases(let profile, let filter):
            return "no case of profile \(profile)" + (filter.map { " matches \($0)" } ?? "")
        case .findings(let report, let rules):
            let statements = Dictionary(rules.map { ($0.id, $0.statement) }, uniquingKeysWith: { first, _ in first })
            var lines = ["\(report.verifier) is not conformant to \(report.profile): \(failures.count) of "
                         + "\(report.results.count) cases did not pass"]
            for result in failures {
                lines.append("- " + result.summary)
                if let rule = result.rule, let statement = statements[rule] { lines.append("    rule \(rule): \(statement)") }
                lines.append("    reproduce: attest-harness forge --case \(result.caseId) --seed \(report.seed) --out /tmp/\(result.caseId)")
            }
            return lines.joined(separator: "\n")
        }
    }
}
