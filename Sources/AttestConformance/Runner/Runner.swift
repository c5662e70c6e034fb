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
        /// The verifier cannot judge this case where it runs (a lifetime case against a server on real time):
        /// neither a pass nor a finding.
        case unsupported
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

    public init(caseId: String, rule: RuleID?, importance: Importance, status: Status, step: Int?, expected: Verdict.Outcome?,
                actual: Verdict?, message: String?, expectedStatus: String? = nil) {
        self.caseId = caseId
        self.rule = rule
        self.importance = importance
        self.status = status
        self.step = step
        self.expected = expected
        self.actual = actual
        self.expectedStatus = expectedStatus
        self.message = message
    }

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
        case .unsupported: return "\(caseId) [\(ruleText)]: unsupported: \(message ?? "")"
        }
    }
}

/// The outcome of running a suite against one verifier under one profile.
public struct RunReport: Hashable, Sendable, Codable {
    /// The attest-harness version that ran (absent in reports of versions before 0.3.0).
    public let harnessVersion: String?
    public let verifier: String
    public let profile: String
    public let seed: UInt64
    public internal(set) var results: [CaseResult]
    /// Case ids that are findings now but were not in the baseline, when one was given.
    public var regressions: [String]?

    public init(verifier: String, profile: String, seed: UInt64, results: [CaseResult], regressions: [String]? = nil,
                harnessVersion: String? = HarnessVersion.current) {
        self.harnessVersion = harnessVersion
        self.verifier = verifier
        self.profile = profile
        self.seed = seed
        self.results = results
        self.regressions = regressions
    }

    /// Wrong verdicts and hangs.
    public var findings: [CaseResult] { results.filter { $0.status == .finding || $0.status == .hang } }
    public var errors: [CaseResult] { results.filter { $0.status == .error } }
    /// Cases the verifier could not judge where it runs, with the reason (not counted as passes or findings).
    public var unsupported: [CaseResult] { results.filter { $0.status == .unsupported } }

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

    /// Runs one case: the verifier answers every step (a rejected request can change what later steps see), and
    /// the first answer that disagrees with its expectation decides the result. A passing result names the last
    /// rejected step.
    public func run(_ testCase: Case) async -> CaseResult {
        do {
            let verdicts = try await verifier.verdicts(for: testCase.request, profile: profile)
            return judge(testCase, verdicts)
        } catch VerifierFailure.hang(let seconds) {
            return CaseResult(testCase, .hang, message: "no answer within \(seconds) s")
        } catch VerifierFailure.unsupported(let reason) {
            return CaseResult(testCase, .unsupported, message: reason)
        } catch {
            return CaseResult(testCase, .error, message: "\(error)")
        }
    }

    /// The result of `verdicts` for `testCase`: exactly one verdict per step, each compared with the profile's
    /// expectation, statuses included when both sides state one.
    func judge(_ testCase: Case, _ verdicts: [Verdict]) -> CaseResult {
        var lastRejection: (index: Int, verdict: Verdict)?
        for (index, step) in testCase.steps.enumerated() {
            guard index < verdicts.count else {
                return CaseResult(testCase, .error, step: index, message: "the verifier gave no verdict for step \(index)")
            }
            let verdict = verdicts[index]
            // A step the verifier cannot judge ends the case as unsupported: what follows may depend on it.
            if verdict.outcome == .unsupported {
                return CaseResult(testCase, .unsupported, step: index, actual: verdict,
                                  message: "step \(index): " + (verdict.reason ?? "the verifier cannot judge this step"))
            }
            let expected = step.expectedVerdict(under: profile)
            // A refusal with the wrong status (403 for an account failure) is wrong too, when both are known.
            let wrongStatus = verdict.outcome == .reject && expected == .reject && step.expectedStatus != nil
                && verdict.status != nil && verdict.status != step.expectedStatus
            if verdict.outcome != expected || wrongStatus {
                var finding = CaseResult(testCase, .finding, step: index, expected: expected, actual: verdict)
                finding.expectedStatus = step.expectedStatus
                return finding
            }
            if verdict.outcome == .reject { lastRejection = (index, verdict) }
        }
        guard verdicts.count == testCase.steps.count else {
            return CaseResult(testCase, .error, message: "the verifier gave \(verdicts.count) verdicts for \(testCase.steps.count) steps")
        }
        return CaseResult(testCase, .pass, step: lastRejection?.index, expected: lastRejection.map { _ in .reject },
                          actual: lastRejection?.verdict)
    }

    /// Runs `cases` with up to `jobs` in flight (one when the verifier requires serial cases), starting at most
    /// `rate`'s cases per second when given. Cases run as child tasks, so an I/O-bound verifier (an HTTP server)
    /// keeps `jobs` requests in flight whatever the number of cores. Results keep the cases' order; `progress`
    /// is called after each, from this task.
    public func run(_ cases: [Case], seed: UInt64, jobs: Int = 1, rate: RateLimit? = nil,
                    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) async -> RunReport {
        let width = verifier.requiresSerialCases ? 1 : max(1, min(jobs, cases.count))
        var results = [CaseResult?](repeating: nil, count: cases.count)
        await withTaskGroup(of: (Int, CaseResult).self) { group in
            var next = 0
            func startNext() {
                guard next < cases.count else { return }
                let index = next
                next += 1
                group.addTask {
                    await rate?.acquire()
                    return (index, await run(cases[index]))
                }
            }
            for _ in 0..<width { startNext() }
            var done = 0
            for await (index, result) in group {
                results[index] = result
                done += 1
                progress?(done, cases.count)
                startNext()
            }
        }
        // Every index was started and collected above; compactMap keeps the order.
        return RunReport(verifier: verifier.name, profile: profile.name, seed: seed, results: results.compactMap { $0 },
                         regressions: nil)
    }
}

extension CaseResult {
    init(_ testCase: Case, _ status: Status, step: Int? = nil, expected: Verdict.Outcome? = nil, actual: Verdict? = nil,
         message: String? = nil) {
        self.init(caseId: testCase.id, rule: testCase.rule, importance: testCase.importance, status: status, step: step,
                  expected: expected, actual: actual, message: message)
    }
}
