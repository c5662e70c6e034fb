/// What happened to one case.
public struct CaseResult: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// Every step got its expected verdict, and a refusal is backed: the verifier accepted the case's control in
        /// the same run and, when it names a rule, named the broken one (`proof` says how much backs it).
        case pass
        /// A step got the opposite verdict: the verifier is wrong.
        case finding
        /// The verifier refused the case, but it did not accept the case's control (the same evidence without the
        /// mutation) in the same run: the refusal shows nothing. Neither a pass nor a finding; the control's own
        /// result is where the verifier is wrong.
        case unconfirmed
        /// The verifier refused the case naming another rule than the one the case breaks: the refusal does not
        /// show that it checks this rule. Neither a pass nor a finding.
        case masked
        /// The verifier failed instead of judging (a signal, an HTTP 5xx, a connection reset mid-answer, an
        /// adapter's unexpected exception): never a rejection, and it fails the run like a finding.
        case crash
        /// The verifier did not answer within the per-case timeout: a finding (a verifier that hangs is wrong).
        case hang
        /// The harness could not get a verdict (adapter failure, malformed answer).
        case error
        /// The verifier cannot judge this case where it runs (a lifetime case against a server on real time):
        /// neither a pass nor a finding.
        case unsupported
        /// The specification leaves the case's verdict to the relying party (`"expected": "either"`): what the
        /// verifier chose is recorded and shown, never a pass or a finding.
        case acceptable

        /// A finding or a hang: the verifier is wrong.
        public var isFinding: Bool { self == .finding || self == .hang }
        /// What a CI gate fails on: findings, hangs, crashes and harness errors.
        public var isFailure: Bool { isFinding || self == .crash || self == .error }
        /// A refusal the run cannot back (unconfirmed or masked): shown apart, never a pass.
        public var isUnproven: Bool { self == .unconfirmed || self == .masked }
    }

    /// What backs a pass, strongest first.
    public enum Proof: String, Hashable, Sendable, Codable, CaseIterable {
        /// A refusal whose control the verifier accepted in the same run and whose verdict names the broken rule.
        case reasonAndControl = "reason-and-control"
        /// A refusal whose control the verifier accepted in the same run; the verdict names no rule.
        case control
        /// An acceptance of a case expected to be accepted (a valid case, or one breaking a rule the profile does
        /// not enforce): the outcome itself is the evidence.
        case outcome
        /// A check of what the server itself issues (its options, through an API map), which every response the run
        /// observed met; `message` says how many it judged.
        case observed
    }

    /// A negative case's control as the run judged it: its id, its status and what the verifier answered.
    public struct ControlResult: Hashable, Sendable, Codable {
        public let caseId: String
        /// The control's status in this run, or nil when the run did not include it.
        public let status: Status?
        /// What the verifier answered the control, in words (`accept`, `reject 400 (...)`).
        public let actual: String?

        public init(caseId: String, status: Status?, actual: String?) {
            self.caseId = caseId
            self.status = status
            self.actual = actual
        }
    }

    /// How a result compares with the same case in a baseline report (`run --baseline`).
    public enum BaselineState: String, Hashable, Sendable, Codable {
        /// Failing now, and the baseline did not fail this case the same way (a finding, or a harness error): the
        /// gate fails on it.
        case new
        /// Failing now the same way as in the baseline: reported, but the gate passes.
        case known
        /// Passing now, failing in the baseline.
        case fixed
    }

    public let caseId: String
    public let rule: RuleID?
    public let importance: Importance
    public internal(set) var status: Status
    /// Index of the step that decided the status.
    public let step: Int?
    public let expected: Verdict.Outcome?
    public internal(set) var actual: Verdict?
    /// The error a documented API answers the step with, when the case states one (`100012 NONCE`).
    public var expectedStatus: String? = nil
    public internal(set) var message: String?
    /// The case's family and one-line description, so that a report explains itself.
    public var family: FamilyName? = nil
    public var description: String? = nil
    /// Wall time the verifier took for the whole case (from a monotonic clock).
    public var durationSeconds: Double? = nil
    /// Set when the run was compared with a baseline and the case is new, known or fixed.
    public var baseline: BaselineState? = nil
    /// For a failing case: commands that reproduce it (forge the evidence, run the case alone).
    public var reproduce: [String]? = nil
    /// For a failing case against an HTTP verifier: the requests, as curl lines with secrets redacted.
    public var requests: [String]? = nil
    /// For a pass: what backs it.
    public var proof: Proof? = nil
    /// For a case expected to be refused: its control and what the verifier did with it.
    public var control: ControlResult? = nil
    /// True on the result of an options check (what the server issued, judged over a map run's options responses):
    /// not a catalogue case, so summaries count it apart.
    public var optionsCheck: Bool? = nil

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

    /// What came back, in words: `accept`, `reject 403 (nonce mismatch)`, or `nothing` (control characters from
    /// the verifier made visible).
    public var actualText: String {
        DisplayText.safe(actual.map { "\($0.outcome.rawValue)\($0.status.map { " \($0)" } ?? "")\($0.reason.map { " (\($0))" } ?? "")" } ?? "nothing")
    }

    /// What was expected, in words: `reject`, `reject (100012 NONCE)`.
    public var expectedText: String {
        (expected?.rawValue ?? "?") + (expectedStatus.map { " (\($0))" } ?? "")
    }

    /// One line: what was expected, what came back, which rule (never more than one line, whatever the verifier
    /// said).
    public var summary: String {
        let ruleText = rule?.rawValue ?? "valid"
        let text: String
        switch status {
        case .pass where optionsCheck == true: text = "\(caseId): pass: \(message ?? "")"
        case .pass: text = "\(caseId): pass"
        case .finding where expected == nil: text = "\(caseId) [\(ruleText)]: \(message ?? "")"
        case .finding: text = "\(caseId) [\(ruleText)] step \(step ?? 0): expected \(expectedText), got \(actualText)"
        case .hang: text = "\(caseId) [\(ruleText)]: HANG: \(message ?? "")"
        case .error: text = "\(caseId) [\(ruleText)]: harness error: \(message ?? "")"
        case .unsupported: text = "\(caseId) [\(ruleText)]: unsupported: \(message ?? "")"
        case .crash: text = "\(caseId) [\(ruleText)] step \(step ?? 0): CRASH: \(message ?? actualText)"
        case .unconfirmed: text = "\(caseId) [\(ruleText)]: unconfirmed: \(message ?? "")"
        case .masked: text = "\(caseId) [\(ruleText)]: masked: \(message ?? "")"
        case .acceptable: text = "\(caseId) [\(ruleText)]: acceptable (either verdict conforms): \(actualText)"
        }
        return DisplayText.safe(text)
    }
}
