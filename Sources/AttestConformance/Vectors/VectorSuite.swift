import Foundation

/// One family's vectors as a flat JSON file any language can consume (Wycheproof and x509-limbo style):
/// rules explained once in `rules`, every case with its steps and, per built-in profile, the verdict expected at
/// each step. Regenerating with the same seed gives a byte-identical file.
public struct VectorSuite: Codable, Hashable, Sendable {
    public static let formatVersion = "attest-harness-vectors/1"

    public struct VectorCase: Codable, Hashable, Sendable {
        public let id: String
        public let rule: RuleID?
        public let description: String
        public let importance: Importance
        public let context: CaseContext
        public let steps: [Step]
        /// Profile name to the verdict expected at each step.
        public let expected: [String: [Verdict.Outcome]]
        /// The public test-suite checks the case answers; absent when none.
        public let anchors: [String]?
        /// The public bugs and library faults the case would have caught; absent when none is cited.
        public let references: [String]?
        /// For a negative case: the id of its control, the valid case of this file with the same baseline and no
        /// mutation. A harness counts a refusal as a pass only when the verifier accepted the control in the same
        /// run. Absent for valid cases.
        public let control: String?
    }

    public let format: String
    public let family: FamilyName
    public let seed: UInt64
    /// Step kind (wire spelling) to the meaning of its inputs.
    public let stepKinds: [String: String]
    public let rules: [Rule]
    public let profiles: [Profile]
    public let numberOfCases: Int
    public let cases: [VectorCase]

    public init(family: FamilyName, seed: UInt64, stepKinds: [StepKind: String], rules: [Rule], profiles: [Profile], cases: [Case]) {
        format = Self.formatVersion
        self.family = family
        self.seed = seed
        self.stepKinds = stepKinds.spelled
        self.rules = rules
        self.profiles = profiles
        numberOfCases = cases.count
        self.cases = cases.map { testCase in
            VectorCase(
                id: testCase.id, rule: testCase.rule, description: testCase.description, importance: testCase.importance,
                context: testCase.context, steps: testCase.steps,
                expected: Dictionary(uniqueKeysWithValues: profiles.map { profile in
                    (profile.name, testCase.steps.map { $0.expectedVerdict(under: profile) })
                }), anchors: testCase.anchors.isEmpty ? nil : testCase.anchors,
                references: testCase.references.isEmpty ? nil : testCase.references, control: testCase.control)
        }
    }

    /// The cases back as `Case` values, for running a suite read from a file (which may be anyone's: a negative
    /// case none of whose steps breaks its rule throws `CaseShapeError`).
    public var runnableCases: [Case] {
        get throws {
            try cases.map { vector in
                var testCase = try Case.checked(id: vector.id, family: family, rule: vector.rule, description: vector.description,
                                                importance: vector.importance, context: vector.context, steps: vector.steps)
                testCase.anchors = vector.anchors ?? []
                testCase.references = vector.references ?? []
                testCase.control = vector.control
                return testCase
            }
        }
    }

    public var json: Data {
        get throws { try JSONEncoder.harness.encode(self) + Data("\n".utf8) }
    }
}
