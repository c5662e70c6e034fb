import Foundation

/// What happened to one case.
public struct CaseResult: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable {
        /// Every step got its expected verdict.
        case pass
        /// A step got the opposite verdict: the verifier is wrong.
        case finding
        /// The verifier did not answer within the per-case timeout: a finding (a verifier that hangs is wrong).
        case hang
        /// The harness could not get a verdict (adapter failure, malformed answer).
        case error
    }

    public let caseId: String
    public let rule: RuleID?
    public let importance: Importance
    public let status: Status
    /// Index of the step that decided the status.
    public let step: Int?
    public let expected: Verdict.Outcome?
    public let actual: Verdict?
    /// The error a documented API answers the step with, when the case states one (`100012 NONCE`).
    public var expectedStatus: String? = nil
    public let message: String?

    /// One line: what was expected, what came back, which rule.
    public var summary: String {
        let ruleText = rule?.rawValue ?? "valid"
        switch status {
        case .pass: return "\(caseId): pass"
        case .finding:
            let got = actual.map { "\($0.outcome.rawValue)\($0.status.map { " \($0)" } ?? "")\($0.reason.map { " (\($0))" } ?? "")" } ?? "nothing"
            let expectedText = (expected?.rawValue ?? "?") + (expectedStatus.map { " (\($0))" } ?? "")
            return "\(caseId) [\(ruleText)] step \(step ?? 0): expected \(expectedText), got \(got)"
        case .hang: return "\(caseId) [\(ruleText)]: HANG: \(message ?? "")"
        case .error: return "\(caseId) [\(ruleText)]: harness error: \(message ?? "")"
        }
    }
}

/// The outcome of running a suite against one verifier under one profile.
public struct RunReport: Hashable, Sendable, Codable {
    public let verifier: String
    public let profile: String
    public let seed: UInt64
    public let results: [CaseResult]
    /// Case ids that are findings now but were not in the baseline, when one was given.
    public var regressions: [String]?

    /// Wrong verdicts and hangs.
    public var findings: [CaseResult] { results.filter { $0.status == .finding || $0.status == .hang } }
    public var errors: [CaseResult] { results.filter { $0.status == .error } }

    /// 0 conformant (or no regressions against the baseline), 1 findings, 2 harness errors.
    public var exitCode: Int32 {
        if !errors.isEmpty { return 2 }
        if let regressions { return regressions.isEmpty ? 0 : 1 }
        return findings.isEmpty ? 0 : 1
    }
}

/// Runs cases against a verifier and compares each step's verdict with the profile's expectation.
public struct Runner: Sendable {
    public let profile: Profile
    public let verifier: any AttestationVerifier

    public init(profile: Profile, verifier: any AttestationVerifier) {
        self.profile = profile
        self.verifier = verifier
    }

    /// Runs one case: a fresh session, then every step in order (a rejected request can change what later steps
    /// see), until one disagrees with its expectation. A passing result names the last rejected step.
    public func run(_ testCase: Case) -> CaseResult {
        func result(_ status: CaseResult.Status, step: Int? = nil, expected: Verdict.Outcome? = nil,
                    actual: Verdict? = nil, message: String? = nil) -> CaseResult {
            CaseResult(caseId: testCase.id, rule: testCase.rule, importance: testCase.importance, status: status,
                       step: step, expected: expected, actual: actual, message: message)
        }
        do {
            let next = try verdictSource(for: testCase)
            var lastRejection: (index: Int, verdict: Verdict)?
            for (index, step) in testCase.steps.enumerated() {
                let expected = step.expectedVerdict(under: profile)
                guard let verdict = try next(step) else {
                    return result(.error, step: index, message: "the verifier gave no verdict for step \(index)")
                }
                // A refusal with the wrong status (403 for an account failure) is wrong too, when both are known.
                let wrongStatus = verdict.outcome == .reject && expected == .reject && step.expectedStatus != nil
                    && verdict.status != nil && verdict.status != step.expectedStatus
                if verdict.outcome != expected || wrongStatus {
                    var finding = result(.finding, step: index, expected: expected, actual: verdict)
                    finding.expectedStatus = step.expectedStatus
                    return finding
                }
                if verdict.outcome == .reject { lastRejection = (index, verdict) }
            }
            return result(.pass, step: lastRejection?.index, expected: lastRejection.map { _ in .reject }, actual: lastRejection?.verdict)
        } catch VerifierFailure.hang(let seconds) {
            return result(.hang, message: "no answer within \(seconds) s")
        } catch {
            return result(.error, message: "\(error)")
        }
    }

    /// Step by step from a fresh session, or, for whole-case verifiers, from the verdicts they return at once.
    private func verdictSource(for testCase: Case) throws -> (Step) throws -> Verdict? {
        if let whole = verifier as? any WholeCaseVerifier {
            var verdicts = try whole.verdicts(for: ExecSuite(profile: profile, cases: [testCase]).cases[0], profile: profile)[...]
            return { _ in verdicts.popFirst() }
        }
        let session = try verifier.startCase(testCase.context)
        return { try session.verify($0) }
    }

    /// Runs `cases` with up to `jobs` in parallel, starting at most `rate`'s cases per second when given; results
    /// keep the cases' order. `progress` is called after each.
    public func run(_ cases: [Case], seed: UInt64, jobs: Int = 1, rate: RateLimit? = nil,
                    progress: (@Sendable (Int, Int) -> Void)? = nil) -> RunReport {
        let results = ResultSlots(count: cases.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, cases.count))) { worker in
            var index = worker
            while index < cases.count {
                rate?.acquire()
                results.set(index, run(cases[index]))
                progress?(results.completed, cases.count)
                index += max(1, min(jobs, cases.count))
            }
        }
        return RunReport(verifier: verifier.name, profile: profile.name, seed: seed, results: results.values, regressions: nil)
    }
}

/// Results written by concurrent workers, each to its own slot.
private final class ResultSlots: @unchecked Sendable {
    private var slots: [CaseResult?]
    private let lock = NSLock()
    private(set) var completed = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: CaseResult) {
        lock.lock()
        slots[index] = result
        completed += 1
        lock.unlock()
    }

    var values: [CaseResult] { slots.map { $0! } }
}
