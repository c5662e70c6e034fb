import Foundation

/// Runs cases against a verifier and compares each step's verdict with the profile's expectation.
public struct Runner: Sendable {
    public let profile: Profile
    public let verifier: any AttestationVerifier
    /// Where the report's `startedAt` comes from: the wall clock by default, a fixed one in tests.
    public let clock: @Sendable () -> Date

    public init(profile: Profile, verifier: any AttestationVerifier, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.profile = profile
        self.verifier = verifier
        self.clock = clock
    }

    /// Runs one case: the verifier answers every step (a rejected request can change what later steps see), and
    /// the first answer that disagrees with its expectation decides the result. A passing refusal is provisional
    /// here: only `run(_:seed:...)`, which sees the case's control, can prove it.
    public func run(_ testCase: Case) async -> CaseResult {
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: Result<[Verdict], any Error>
        do {
            outcome = .success(try await verifier.verdicts(for: testCase.request, profile: profile))
        } catch {
            outcome = .failure(error)
        }
        var result = judge(testCase, outcome)
        result.durationSeconds = (clock.now - start).seconds
        return result
    }

    /// The result of one case from what the verifier answered: its verdicts, or why it gave none.
    func judge(_ testCase: Case, _ outcome: Result<[Verdict], any Error>) -> CaseResult {
        switch outcome {
        case .success(let verdicts): return judge(testCase, verdicts)
        case .failure(VerifierFailure.hang(let seconds)): return CaseResult(testCase, .hang, message: "no answer within \(seconds) s")
        case .failure(VerifierFailure.unsupported(let reason)): return CaseResult(testCase, .unsupported, message: reason)
        case .failure(VerifierFailure.crash(let reason)): return CaseResult(testCase, .crash, message: reason)
        case .failure(let error): return CaseResult(testCase, .error, message: "\(error)")
        }
    }

    /// The result of `verdicts` for `testCase`: exactly one verdict per step, each compared with the profile's
    /// expectation, statuses included when both sides state one. A crash on any step is the case's result, never a
    /// rejection. A pass names the step that breaks the case's rule (else the last refused step) and its verdict;
    /// whether the refusal is backed is decided once the whole run is in (`ControlProof`).
    func judge(_ testCase: Case, _ verdicts: [Verdict]) -> CaseResult {
        var lastRejection: (index: Int, verdict: Verdict)?
        var breaking: (index: Int, verdict: Verdict)?
        var leftToRelyingParty: (index: Int, verdict: Verdict)?
        // Once a step left to the relying party is refused, the steps after it are not compared: they depend on it
        // (an assertion of a credential the verifier chose not to register). They are still read for crashes.
        var dependsOnRefusal = false
        let breakingStep = testCase.breakingStep
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
            if verdict.outcome == .crash {
                return CaseResult(testCase, .crash, step: index, expected: expected, actual: verdict,
                                  message: "step \(index): " + (verdict.reason ?? "the verifier failed on this step"))
            }
            if verdict.outcome == .either {
                return CaseResult(testCase, .error, step: index, message: "step \(index): \"either\" is an expectation, not a verdict")
            }
            // Either verdict conforms: recorded (the first refusal, else the last answer), never compared.
            if expected == .either || dependsOnRefusal {
                if leftToRelyingParty?.verdict.outcome != .reject { leftToRelyingParty = (index, verdict) }
                if expected == .either, verdict.outcome == .reject { dependsOnRefusal = true }
                continue
            }
            // A refusal with the wrong status (403 for an account failure) is wrong too, when both are known.
            let wrongStatus = verdict.outcome == .reject && expected == .reject && step.expectedStatus != nil
                && verdict.status != nil && verdict.status != step.expectedStatus
            if verdict.outcome != expected || wrongStatus {
                var finding = CaseResult(testCase, .finding, step: index, expected: expected, actual: verdict)
                finding.expectedStatus = step.expectedStatus
                return finding
            }
            if verdict.outcome == .reject {
                lastRejection = (index, verdict)
                if index == breakingStep { breaking = (index, verdict) }
            }
        }
        guard verdicts.count == testCase.steps.count else {
            return CaseResult(testCase, .error, message: "the verifier gave \(verdicts.count) verdicts for \(testCase.steps.count) steps")
        }
        // Left to the relying party: when a step it could refuse was refused (what followed was not judged), or
        // when no compared step refused. A compared step refused as expected is the case's evidence: a pass.
        if let leftToRelyingParty, dependsOnRefusal || lastRejection == nil {
            return CaseResult(testCase, .acceptable, step: leftToRelyingParty.index, expected: .either, actual: leftToRelyingParty.verdict,
                              message: "the specification leaves this verdict to the relying party")
        }
        let shown = breaking ?? lastRejection
        return CaseResult(testCase, .pass, step: shown?.index, expected: shown.map { _ in .reject }, actual: shown?.verdict)
    }

    /// Runs `cases` with up to `jobs` in flight (no more than the verifier's `concurrentCaseLimit`), starting at most
    /// `rate`'s cases per second when given. Cases run as child tasks, so an I/O-bound verifier (an HTTP server)
    /// keeps `jobs` requests in flight whatever the number of cores; with one in flight they run one after another
    /// in this task, without a child task and a thread hop per case. Results keep the cases' order; `progress` is
    /// called after each, from this task. Once every case is in, each refusal is checked against its control and
    /// its reason (`ControlProof`): include the controls (`Case.withControls`), or those refusals are unconfirmed.
    public func run(_ cases: [Case], seed: UInt64, jobs: Int = 1, rate: RateLimit? = nil,
                    progress: (@Sendable (_ done: Int, _ total: Int, _ latest: CaseResult) -> Void)? = nil) async -> RunReport {
        let started = clock()
        let monotonic = ContinuousClock()
        let start = monotonic.now
        // Units of work: single cases, or runs of `suiteSize` cases for a verifier that judges suites at once.
        let size = max(1, verifier.suiteSize)
        let units = stride(from: 0, to: cases.count, by: size).map { $0..<min($0 + size, cases.count) }
        let width = max(1, min(jobs, units.count, verifier.concurrentCaseLimit ?? Int.max))
        var results = [CaseResult?](repeating: nil, count: cases.count)
        var done = 0
        func collect(_ finished: [(Int, CaseResult)]) {
            for (index, result) in finished {
                results[index] = result
                done += 1
                progress?(done, cases.count, result)
            }
        }
        if width == 1 {
            for unit in units { collect(await run(unit, of: cases, suiteSize: size, rate: rate)) }
        } else {
            await withTaskGroup(of: [(Int, CaseResult)].self) { group in
                var next = 0
                func startNext() {
                    guard next < units.count else { return }
                    let unit = units[next]
                    next += 1
                    group.addTask { await run(unit, of: cases, suiteSize: size, rate: rate) }
                }
                for _ in 0..<width { startNext() }
                for await finished in group {
                    collect(finished)
                    startNext()
                }
            }
        }
        // Every index was started and collected above; compactMap keeps the order.
        let proven = ControlProof(profile: profile, cases: cases).prove(results.compactMap { $0 })
        var report = RunReport(verifier: verifier.name, profile: profile.name, seed: seed, results: proven)
        report.startedAt = started
        report.durationSeconds = (monotonic.now - start).seconds
        return report
    }

    /// One unit of work: a single case, or a suite of `suiteSize` cases the verifier judges at once.
    private func run(_ unit: Range<Int>, of cases: [Case], suiteSize: Int, rate: RateLimit?) async -> [(Int, CaseResult)] {
        for _ in unit { await rate?.acquire() }
        if suiteSize == 1 { return [(unit.lowerBound, await run(cases[unit.lowerBound]))] }
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await verifier.verdicts(forSuite: unit.map { cases[$0].request }, profile: profile)
        let share = (clock.now - start).seconds / Double(unit.count)
        return unit.enumerated().map { offset, index in
            let outcome = offset < outcomes.count ? outcomes[offset]
                : .failure(VerifierFailure.contract("the verifier gave no answer for this case of its suite"))
            var result = judge(cases[index], outcome)
            result.durationSeconds = share
            return (index, result)
        }
    }
}

extension CaseResult {
    init(_ testCase: Case, _ status: Status, step: Int? = nil, expected: Verdict.Outcome? = nil, actual: Verdict? = nil,
         message: String? = nil) {
        self.init(caseId: testCase.id, rule: testCase.rule, importance: testCase.importance, status: status, step: step,
                  expected: expected, actual: actual, message: message)
        family = testCase.family
        description = testCase.description
    }
}

extension Duration {
    /// This duration in seconds, to the microsecond.
    var seconds: Double {
        let (whole, attoseconds) = components
        return (Double(whole) + Double(attoseconds / 1_000_000_000_000) / 1_000_000)
    }
}
