import Foundation

/// How much a missed case matters (x509-limbo's scale).
public enum Importance: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    /// Accepting this lets a cloned, emulated or foreign device through.
    case critical
    /// Accepting this weakens a security property the policy relies on.
    case high
    /// Accepting this is a spec violation with limited direct impact.
    case medium
    /// Pedantic strictness.
    case low

    /// Larger is more important.
    private var rank: Int {
        switch self {
        case .critical: 3
        case .high: 2
        case .medium: 1
        case .low: 0
        }
    }

    public static func < (lhs: Importance, rhs: Importance) -> Bool { lhs.rank < rhs.rank }
}

/// What the verifier is told before the first step: the time it must treat as now, its trust anchors, and its
/// configuration (app id, environment...). Cases never depend on the machine's clock.
public struct CaseContext: Hashable, Sendable, Codable {
    public var time: Date
    /// PEM certificates.
    public var trustAnchors: [String]
    public var parameters: [String: String]

    public init(time: Date, trustAnchors: [String], parameters: [String: String]) {
        self.time = time
        self.trustAnchors = trustAnchors
        self.parameters = parameters
    }
}

/// One request to the verifier: a kind (`app-attest.attestation`, `app-attest.assertion`) and its inputs, all
/// byte strings (base64 in JSON). `breaks` names the rule this step violates, nil when the step is valid.
/// `time` is when the request arrives, for lifetimes (challenges, tokens); nil means the case's context time.
/// `expectedStatus` is what a documented API answers a broken step with (`403`, `100012 NONCE`); a verifier that
/// reports a status (`Verdict.status`) must report this one.
public struct Step: Hashable, Sendable, Codable {
    public let kind: StepKind
    public let inputs: [InputKey: [UInt8]]
    public let breaks: RuleID?
    public let time: Date?
    public let expectedStatus: String?
    /// The specification leaves this step's verdict to the relying party (an unsolicited extension, a statement
    /// that a relying party accepting any attestation may treat as none): either verdict conforms, under every
    /// profile. The verdict is recorded and shown, never a pass or a finding.
    public let either: Bool
    /// Nothing can be read past what this step breaks (an attestation object without authData, authenticator data
    /// that announces a credential and holds none): no verifier can accept it, only refuse or crash, so it is
    /// expected refused under every profile, one that does not enforce `breaks` too. `breaks` names the check that
    /// refuses it first.
    public let unreadable: Bool
    /// This step goes over an earlier step's ceremony again (a replayed request, an answer to a finished ceremony).
    public let repeats: StepRepetition?

    public init(kind: StepKind, inputs: [InputKey: [UInt8]], breaks: RuleID? = nil, time: Date? = nil, expectedStatus: String? = nil,
                either: Bool = false, unreadable: Bool = false, repeats: StepRepetition? = nil) {
        self.kind = kind
        self.inputs = inputs
        self.breaks = breaks
        self.time = time
        self.expectedStatus = expectedStatus
        self.either = either
        self.unreadable = unreadable
        self.repeats = repeats
    }

    /// The same step with its verdict left to the relying party.
    public var leavingVerdictToRelyingParty: Step {
        Step(kind: kind, inputs: inputs, breaks: breaks, time: time, expectedStatus: expectedStatus, either: true,
             unreadable: unreadable, repeats: repeats)
    }

    /// The same step, marked as one nothing can be read past.
    public var unreadableWithoutItsRule: Step {
        Step(kind: kind, inputs: inputs, breaks: breaks, time: time, expectedStatus: expectedStatus, either: either,
             unreadable: true, repeats: repeats)
    }

    enum CodingKeys: String, CodingKey { case kind, inputs, breaks, time, expectedStatus, either, unreadable, repeats }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(StepKind.self, forKey: .kind)
        breaks = try container.decodeIfPresent(RuleID.self, forKey: .breaks)
        time = try container.decodeIfPresent(Date.self, forKey: .time)
        expectedStatus = try container.decodeIfPresent(String.self, forKey: .expectedStatus)
        either = try container.decodeIfPresent(Bool.self, forKey: .either) ?? false
        unreadable = try container.decodeIfPresent(Bool.self, forKey: .unreadable) ?? false
        repeats = try container.decodeIfPresent(StepRepetition.self, forKey: .repeats)
        inputs = try StepInputs.decode(from: container, forKey: .inputs)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(StepInputs.spelled(inputs), forKey: .inputs)
        try container.encodeIfPresent(breaks, forKey: .breaks)
        try container.encodeIfPresent(time, forKey: .time)
        try container.encodeIfPresent(expectedStatus, forKey: .expectedStatus)
        if either { try container.encode(true, forKey: .either) }
        if unreadable { try container.encode(true, forKey: .unreadable) }
        try container.encodeIfPresent(repeats, forKey: .repeats)
    }

    /// Either, when the specification leaves the verdict to the relying party; else accept unless this step breaks
    /// a rule the profile enforces or cannot be read at all.
    public func expectedVerdict(under profile: Profile) -> Verdict.Outcome {
        if either || breaks.map(profile.leavesToRelyingParty) == true { return .either }
        if unreadable, breaks != nil { return .reject }
        guard let breaks, profile.enforces(breaks) else { return .accept }
        return .reject
    }

    /// The step as the verifier under test sees it: what is sent, not what is expected.
    public var request: VerifierStep { VerifierStep(kind: kind, inputs: inputs, time: time) }
}

/// How a step goes over an earlier step's ceremony again, for a verifier that keeps ceremony state. In-process and
/// exec verifiers see the step's inputs as they are (a replay has the earlier step's inputs); a driver of a deployed
/// server acts it out: `replay` sends the earlier step's completing request again byte for byte (same body, same
/// cookies, same state token), `answer` sends a new response to the earlier step's ceremony without asking for a new
/// one (its challenge, and any state token the server handed the client for it, reused).
public struct StepRepetition: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable { case replay, answer }
    public let kind: Kind
    /// The index of the earlier step.
    public let step: Int

    public init(_ kind: Kind, of step: Int) {
        self.kind = kind
        self.step = step
    }

    enum CodingKeys: String, CodingKey { case kind = "as", step }
}

/// Step inputs on the wire: an object of base64 strings keyed by input name.
enum StepInputs {
    static func spelled(_ inputs: [InputKey: [UInt8]]) -> [String: String] {
        inputs.spelled.mapValues { Data($0).base64EncodedString() }
    }

    static func decode<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> [InputKey: [UInt8]] {
        var decoded: [InputKey: [UInt8]] = [:]
        for (name, text) in try container.decode([String: String].self, forKey: key) {
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "input \(name) is not base64")
            }
            decoded[InputKey(name)] = Array(data)
        }
        return decoded
    }
}

/// A scenario: a valid baseline, or that baseline with one mutation that breaks exactly one rule.
public struct Case: Hashable, Sendable, Codable {
    /// Stable id, `<family>.<rule or valid>.<variant>`.
    public let id: String
    public let family: FamilyName
    /// The rule the case breaks; nil for valid cases.
    public let rule: RuleID?
    public let description: String
    public let importance: Importance
    public let context: CaseContext
    public let steps: [Step]
    /// The checks of public test suites and studies this case answers (`fido2-server:<test id>`,
    /// `state-of-passkeys:<manipulation>`), from the family's anchor maps; empty when it answers none.
    public var anchors: [String] = []
    /// The public bugs, advisories and library faults this case would have caught (a CVE, an issue or pull request,
    /// a library's code at a version), for cases whose check no public test suite anchors; empty when none is cited.
    public var references: [String] = []
    /// For a negative case: the id of its control, a valid case of the same family with the same baseline and no
    /// mutation (for a stateful case, the same ceremony with the breaking step unbroken). A refusal of this case is
    /// a pass only when the verifier accepted the control in the same run (`CaseResult.Status.unconfirmed`
    /// otherwise). Nil for valid cases.
    public var control: String? = nil

    enum CodingKeys: String, CodingKey { case id, family, rule, description, importance, context, steps, anchors, references, control }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id), rule = try container.decodeIfPresent(RuleID.self, forKey: .rule)
        let steps = try container.decode([Step].self, forKey: .steps)
        if let problem = Self.problem(id: id, rule: rule, steps: steps) {
            throw DecodingError.dataCorruptedError(forKey: .steps, in: container, debugDescription: problem)
        }
        self.init(id: id, family: try container.decode(FamilyName.self, forKey: .family), rule: rule,
                  description: try container.decode(String.self, forKey: .description),
                  importance: try container.decode(Importance.self, forKey: .importance),
                  context: try container.decode(CaseContext.self, forKey: .context), steps: steps)
        anchors = try container.decodeIfPresent([String].self, forKey: .anchors) ?? []
        references = try container.decodeIfPresent([String].self, forKey: .references) ?? []
        control = try container.decodeIfPresent(String.self, forKey: .control)
    }

    /// Why `steps` cannot be the steps of a case breaking `rule` (a negative case needs a step that breaks its
    /// rule), or nil. Cases read from outside (a suite file, a request) are checked with it before they are made.
    public static func problem(id: String, rule: RuleID?, steps: [Step]) -> String? {
        guard let rule, !steps.contains(where: { $0.breaks == rule }) else { return nil }
        return "case \(id) breaks \(rule.rawValue) but none of its steps does"
    }

    /// A case whose parts came from outside: refused with `CaseShapeError` where the memberwise initializer would
    /// stop the process.
    public static func checked(id: String, family: FamilyName, rule: RuleID?, description: String, importance: Importance,
                               context: CaseContext, steps: [Step]) throws -> Case {
        if let problem = problem(id: id, rule: rule, steps: steps) { throw CaseShapeError(message: problem) }
        return Case(id: id, family: family, rule: rule, description: description, importance: importance, context: context, steps: steps)
    }

    /// The catalogue's own cases: a negative one without a step breaking its rule is a bug in the catalogue.
    public init(id: String, family: FamilyName, rule: RuleID?, description: String, importance: Importance,
                context: CaseContext, steps: [Step]) {
        precondition(rule == nil || steps.contains { $0.breaks == rule }, "a negative case has a step that breaks its rule")
        self.id = id
        self.family = family
        self.rule = rule
        self.description = description
        self.importance = importance
        self.context = context
        self.steps = steps
    }

    /// The case as the verifier under test sees it: its context and steps, without the rule it breaks or the
    /// verdicts expected.
    public var request: VerifierCase {
        VerifierCase(id: id, family: family, context: context, steps: steps.map(\.request))
    }

    /// The verdict expected for the whole case under `profile`: reject when a step is to be refused, either when a
    /// step's verdict is left to the relying party, else accept.
    public func expectedOutcome(under profile: Profile) -> Verdict.Outcome {
        let expected = steps.map { $0.expectedVerdict(under: profile) }
        return expected.contains(.reject) ? .reject : expected.contains(.either) ? .either : .accept
    }

    /// Whether a pass of this case under `profile` is a refusal that its control must confirm: the case breaks a
    /// rule the profile enforces.
    public func needsControl(under profile: Profile) -> Bool {
        guard rule.map(profile.enforces) ?? false else { return false }
        // The step that breaks the rule must be expected refused; steps before it left to the relying party (a
        // registration it may decline) do not make the refusal need no proof.
        if let index = breakingStep { return steps[index].expectedVerdict(under: profile) == .reject }
        return !steps.contains { $0.expectedVerdict(under: profile) == .either }
    }

    /// The index of the step that breaks the case's rule (the last one, when several do), or nil for a valid case.
    public var breakingStep: Int? {
        guard let rule else { return nil }
        return steps.lastIndex { $0.breaks == rule }
    }

    /// `selected` and the controls they name from `catalogue`, in catalogue order (selected cases that are not in
    /// the catalogue keep their place at the end): what `run --filter` judges, so that every refusal can be proven.
    public static func withControls(_ selected: [Case], from catalogue: [Case]) -> [Case] {
        let wanted = Set(selected.map(\.id)).union(selected.compactMap(\.control))
        let known = Set(catalogue.map(\.id))
        return catalogue.filter { wanted.contains($0.id) } + selected.filter { !known.contains($0.id) }
    }
}

/// A case read from outside whose parts do not make a case (`Case.problem`).
public struct CaseShapeError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
