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

    public static func < (lhs: Importance, rhs: Importance) -> Bool {
        allCases.firstIndex(of: lhs)! > allCases.firstIndex(of: rhs)!
    }
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
    public let kind: String
    public let inputs: [String: [UInt8]]
    public let breaks: RuleID?
    public let time: Date?
    public let expectedStatus: String?

    public init(kind: String, inputs: [String: [UInt8]], breaks: RuleID? = nil, time: Date? = nil, expectedStatus: String? = nil) {
        self.kind = kind
        self.inputs = inputs
        self.breaks = breaks
        self.time = time
        self.expectedStatus = expectedStatus
    }

    enum CodingKeys: String, CodingKey { case kind, inputs, breaks, time, expectedStatus }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        breaks = try container.decodeIfPresent(RuleID.self, forKey: .breaks)
        time = try container.decodeIfPresent(Date.self, forKey: .time)
        expectedStatus = try container.decodeIfPresent(String.self, forKey: .expectedStatus)
        var decoded: [String: [UInt8]] = [:]
        for (name, text) in try container.decode([String: String].self, forKey: .inputs) {
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .inputs, in: container, debugDescription: "input \(name) is not base64")
            }
            decoded[name] = Array(data)
        }
        inputs = decoded
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(inputs.mapValues { Data($0).base64EncodedString() }, forKey: .inputs)
        try container.encodeIfPresent(breaks, forKey: .breaks)
        try container.encodeIfPresent(time, forKey: .time)
        try container.encodeIfPresent(expectedStatus, forKey: .expectedStatus)
    }

    /// Accept unless this step breaks a rule the profile enforces.
    public func expectedVerdict(under profile: Profile) -> Verdict.Outcome {
        guard let breaks, profile.enforces(breaks) else { return .accept }
        return .reject
    }
}

/// A scenario: a valid baseline, or that baseline with one mutation that breaks exactly one rule.
public struct Case: Hashable, Sendable, Codable {
    /// Stable id, `<family>.<rule or valid>.<variant>`.
    public let id: String
    public let family: String
    /// The rule the case breaks; nil for valid cases.
    public let rule: RuleID?
    public let description: String
    public let importance: Importance
    public let context: CaseContext
    public let steps: [Step]

    public init(id: String, family: String, rule: RuleID?, description: String, importance: Importance,
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

    /// The verdict expected for the whole case under `profile`.
    public func expectedOutcome(under profile: Profile) -> Verdict.Outcome {
        steps.contains { $0.expectedVerdict(under: profile) == .reject } ? .reject : .accept
    }
}
