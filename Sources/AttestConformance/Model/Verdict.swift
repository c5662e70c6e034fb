/// A verifier's answer to one step.
public struct Verdict: Hashable, Sendable, Codable {
    public enum Outcome: String, Hashable, Sendable, Codable {
        case accept
        case reject
        /// The verifier cannot judge this step (a statement format or algorithm it does not implement): neither an
        /// acceptance nor a refusal. The case is reported unsupported, apart from passes and findings.
        case unsupported
        /// The verifier failed on the step instead of judging it (an adapter caught an exception that is not its
        /// library's verification error, a server answered 5xx): never a rejection. The case is reported `crash`.
        case crash
        /// Only as an expectation, never a verifier's answer: the specification leaves this step's verdict to the
        /// relying party's policy, so accepting and refusing both conform (Wycheproof's "acceptable").
        case either
    }

    public let outcome: Outcome
    /// Why, in the verifier's words.
    public let reason: String?
    /// The rule the verifier says failed, when it knows our rule ids.
    public let rule: RuleID?
    /// The API's answer, when the verifier reports one: an HTTP status (`403`) or an API error (`100012 NONCE`).
    public let status: String?

    public init(_ outcome: Outcome, reason: String? = nil, rule: RuleID? = nil, status: String? = nil) {
        self.outcome = outcome
        self.reason = reason
        self.rule = rule
        self.status = status
    }

    public static let accept = Verdict(.accept)

    public static func reject(_ rule: RuleID, _ reason: String, status: String? = nil) -> Verdict {
        Verdict(.reject, reason: reason, rule: rule, status: status)
    }
}
