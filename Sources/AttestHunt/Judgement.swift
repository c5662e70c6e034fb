import AttestConformance

/// What one verifier made of one mutant: every step accepted, a step refused (with the rule and reason it gave), or
/// no verdict at all. A crash or a hang is never a refusal: it is a cluster of its own.
package enum Judgement: Hashable, Sendable, Codable {
    case accepted
    case refused(step: Int, rule: RuleID?, reason: String?)
    case crashed(String)
    case hung
    /// The verifier broke its contract or could not judge the case (unsupported).
    case failed(String)

    /// One letter per class, the unit verifiers are compared by: A accepted, R refused, C crashed, H hung, E failed.
    package var verdictClass: String {
        switch self {
        case .accepted: "A"
        case .refused: "R"
        case .crashed: "C"
        case .hung: "H"
        case .failed: "E"
        }
    }

    package var words: String {
        switch self {
        case .accepted: return "accepts"
        case .refused(let step, let rule, let reason):
            return "refuses step \(step)" + (rule.map { " under \($0)" } ?? "") + (reason.map { ": \($0.prefix(200))" } ?? "")
        case .crashed(let reason): return "crashes: \(reason.prefix(200))"
        case .hung: return "hangs"
        case .failed(let reason): return "gives no verdict: \(reason.prefix(200))"
        }
    }

    /// The judgement of a case from its verdicts, or from the failure that stood in for them.
    package init(_ result: Result<[Verdict], any Error>) {
        switch result {
        case .success(let verdicts):
            // The first step that is not accepted decides; steps after a refusal judge nothing new.
            guard let index = verdicts.firstIndex(where: { $0.outcome != .accept }) else {
                self = .accepted
                return
            }
            let verdict = verdicts[index]
            switch verdict.outcome {
            case .crash: self = .crashed(verdict.reason ?? "crash at step \(index)")
            case .reject: self = .refused(step: index, rule: verdict.rule, reason: verdict.reason)
            case .unsupported, .either, .accept: self = .failed("step \(index) \(verdict.outcome.rawValue)" + (verdict.reason.map { ": \($0)" } ?? ""))
            }
        case .failure(let error as VerifierFailure):
            switch error {
            case .crash(let reason): self = .crashed(reason)
            case .hang: self = .hung
            case .contract(let reason), .unsupported(let reason): self = .failed(reason)
            }
        case .failure(let error):
            self = .failed("\(error)")
        }
    }
}
