/// Decides what backs each pass of a run: a refusal counts only when the verifier accepted the case's control (the
/// same baseline without the mutation) in the same run, and, when its verdict names a rule, that rule is the one
/// the case breaks. Otherwise the case is `unconfirmed` (the verifier refuses the unbroken twin too, so the refusal
/// shows nothing) or `masked` (it refused for another reason). Acceptances are backed by their outcome.
struct ControlProof {
    let profile: Profile
    let cases: [Case]

    func prove(_ results: [CaseResult]) -> [CaseResult] {
        let byId = Dictionary(results.map { ($0.caseId, $0) }, uniquingKeysWith: { first, _ in first })
        let casesById = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return results.map { result in
            guard result.status == .pass, let testCase = casesById[result.caseId] else { return result }
            return prove(result, of: testCase, controls: byId)
        }
    }

    private func prove(_ result: CaseResult, of testCase: Case, controls: [String: CaseResult]) -> CaseResult {
        var proven = result
        guard testCase.needsControl(under: profile), let rule = testCase.rule else {
            proven.proof = .outcome
            return proven
        }
        guard let controlId = testCase.control else {
            return proven.unconfirmed(ControlResult(caseId: "", status: nil, actual: nil),
                                      "the case names no control, so its refusal cannot be proven")
        }
        guard let control = controls[controlId] else {
            return proven.unconfirmed(ControlResult(caseId: controlId, status: nil, actual: nil),
                                      "its control \(controlId) was not run")
        }
        // A control whose verdict the specification leaves to the relying party backs a refusal when the verifier
        // accepted every step of it (an acceptable result records its first refusal, else its last answer).
        let accepted = control.status == .pass || (control.status == .acceptable && control.actual?.outcome == .accept)
        let evidence = ControlResult(caseId: controlId, status: control.status, actual: accepted ? "accept" : control.actualText)
        proven.control = evidence
        guard accepted else {
            return proven.unconfirmed(evidence, "its control \(controlId) was not accepted (\(control.status.rawValue): \(control.actualText))")
        }
        switch result.actual?.rule {
        case nil:
            proven.proof = .control
        case rule?:
            proven.proof = .reasonAndControl
        case let other?:
            proven.status = .masked
            proven.message = "refused under \(other.rawValue), not under \(rule.rawValue), the rule the case breaks"
        }
        return proven
    }
}

private typealias ControlResult = CaseResult.ControlResult

extension CaseResult {
    fileprivate func unconfirmed(_ control: ControlResult, _ message: String) -> CaseResult {
        var result = self
        result.status = .unconfirmed
        result.control = control.caseId.isEmpty ? nil : control
        result.message = message
        return result
    }
}
