import Foundation

/// A case as the verifier under test sees it: what it is told before the first step and the steps in order, without
/// the rule the case breaks or the verdicts the harness expects. Its JSON is the exec contract's case
/// (vectors/exec-suite.schema.json).
public struct VerifierCase: Hashable, Sendable, Codable {
    public let id: String
    public let family: FamilyName
    public let context: CaseContext
    public let steps: [VerifierStep]

    public init(id: String, family: FamilyName, context: CaseContext, steps: [VerifierStep]) {
        self.id = id
        self.family = family
        self.context = context
        self.steps = steps
    }
}

/// One request of a `VerifierCase`: its kind, its byte-string inputs (base64 in JSON) and when it arrives (nil: the
/// case's context time).
public struct VerifierStep: Hashable, Sendable, Codable {
    public let kind: StepKind
    public let inputs: [InputKey: [UInt8]]
    public let time: Date?

    public init(kind: StepKind, inputs: [InputKey: [UInt8]], time: Date? = nil) {
        self.kind = kind
        self.inputs = inputs
        self.time = time
    }

    enum CodingKeys: String, CodingKey { case kind, inputs, time }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(StepKind.self, forKey: .kind)
        inputs = try StepInputs.decode(from: container, forKey: .inputs)
        time = try container.decodeIfPresent(Date.self, forKey: .time)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(StepInputs.spelled(inputs), forKey: .inputs)
        try container.encodeIfPresent(time, forKey: .time)
    }

    /// The input `key`, or `VerifierFailure.contract` when the step lacks it (a broken suite, never a verdict).
    public func input(_ key: InputKey) throws -> [UInt8] {
        guard let value = inputs[key] else { throw VerifierFailure.contract("step \(kind) has no input \(key)") }
        return value
    }

    /// The input `key` as UTF-8 text, empty when absent.
    public func text(_ key: InputKey) -> String { String(decoding: inputs[key] ?? [], as: UTF8.self) }
}
