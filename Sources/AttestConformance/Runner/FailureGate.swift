/// What fails a run (`run --fail-on`): findings under rules of the chosen levels, and the chosen outcomes. Reports
/// list everything either way; only the exit status and the summary's verdict line follow the gate. The default is
/// every finding, hang, crash and harness error, as trivy's `--severity` or semgrep's `--min-severity` would be
/// before a team narrows them.
public struct FailureGate: Hashable, Sendable, Codable {
    /// The outcomes a gate can name besides findings by level.
    public enum Outcome: String, Hashable, Sendable, Codable, CaseIterable {
        case crash, unconfirmed, hang, error
    }

    /// Findings under rules of these levels fail (a refused valid case counts as MUST).
    public var levels: Set<RuleLevel>
    public var outcomes: Set<Outcome>

    public init(levels: Set<RuleLevel>, outcomes: Set<Outcome>) {
        self.levels = levels
        self.outcomes = outcomes
    }

    enum CodingKeys: String, CodingKey { case levels, outcomes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        levels = Set(try container.decode([RuleLevel].self, forKey: .levels))
        outcomes = Set(try container.decode([Outcome].self, forKey: .outcomes))
    }

    /// In a fixed order, so the same gate always writes the same bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(RuleLevel.allCases.filter(levels.contains), forKey: .levels)
        try container.encode(Outcome.allCases.filter(outcomes.contains), forKey: .outcomes)
    }

    /// Every finding, hang, crash and harness error; unconfirmed refusals are reported but do not fail.
    public static let `default` = FailureGate(levels: Set(RuleLevel.allCases), outcomes: [.crash, .hang, .error])

    /// A word of `--fail-on` that names no level or outcome.
    public struct UnknownWord: Error, Hashable, Sendable {
        public let word: String
    }

    /// `MUST,crash`: the words of `--fail-on`, or the first word that is none of them.
    public static func parse(_ text: String) -> Result<FailureGate, UnknownWord> {
        var gate = FailureGate(levels: [], outcomes: [])
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if let level = RuleLevel(rawValue: word.uppercased()) {
                gate.levels.insert(level)
            } else if let outcome = Outcome(rawValue: word.lowercased()) {
                gate.outcomes.insert(outcome)
            } else {
                return .failure(UnknownWord(word: word))
            }
        }
        return gate.levels.isEmpty && gate.outcomes.isEmpty ? .failure(UnknownWord(word: text)) : .success(gate)
    }

    /// All the words, for help and errors.
    public static var words: [String] { RuleLevel.allCases.map(\.rawValue) + Outcome.allCases.map(\.rawValue) }

    /// `MUST,crash`, in a fixed order.
    public var description: String {
        (RuleLevel.allCases.filter(levels.contains).map(\.rawValue) + Outcome.allCases.filter(outcomes.contains).map(\.rawValue))
            .joined(separator: ",")
    }

    /// Whether `result`, whose rule's level is `level`, fails under this gate.
    func fails(_ result: CaseResult, level: RuleLevel) -> Bool {
        switch result.status {
        case .finding: levels.contains(level)
        case .hang: outcomes.contains(.hang)
        case .crash: outcomes.contains(.crash)
        case .error: outcomes.contains(.error)
        case .unconfirmed: outcomes.contains(.unconfirmed)
        case .pass, .masked, .unsupported, .acceptable: false
        }
    }
}
