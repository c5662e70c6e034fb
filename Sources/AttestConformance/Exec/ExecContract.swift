import Foundation

/// The document an `exec:` verifier reads on stdin: the cases to judge, without their expectations (x509-limbo's
/// harness contract, extended with stateful steps). Schema: vectors/exec-suite.schema.json.
public struct ExecSuite: Codable, Hashable, Sendable {
    public static let formatVersion = "attest-harness-exec-suite/1"

    public struct Profile: Codable, Hashable, Sendable {
        public let name: String
        /// The rules the verifier is asked to enforce, sorted.
        public let rules: [RuleID]
        public let parameters: [String: String]
    }

    public let format: String
    public let profile: Profile
    /// The cases as the verifier sees them (`VerifierCase`: no rule, no expectation).
    public let cases: [VerifierCase]

    public init(profile: AttestConformance.Profile, cases: [Case]) {
        self.init(profile: profile, requests: cases.map(\.request))
    }

    public init(profile: AttestConformance.Profile, requests: [VerifierCase]) {
        format = Self.formatVersion
        self.profile = Profile(name: profile.name, rules: profile.rules.sorted(), parameters: profile.parameters)
        cases = requests
    }

    /// The profile the document asks for.
    public var requestedProfile: AttestConformance.Profile {
        AttestConformance.Profile(name: profile.name, description: "", families: Array(Set(cases.map(\.family))).sorted(),
                            rules: Set(profile.rules), parameters: profile.parameters)
    }
}

/// The document an `exec:` verifier writes on stdout: one verdict per step, in order, for each case, rejections
/// included (a rejected request can change the server's state, as a consumed challenge does). Schema:
/// vectors/exec-results.schema.json.
public struct ExecResults: Codable, Hashable, Sendable {
    public static let formatVersion = "attest-harness-exec-results/1"

    public struct CaseVerdicts: Codable, Hashable, Sendable {
        public let id: String
        public let verdicts: [Verdict]

        public init(id: String, verdicts: [Verdict]) {
            self.id = id
            self.verdicts = verdicts
        }
    }

    public let format: String
    /// The verifier's name, for reports.
    public let harness: String
    public let results: [CaseVerdicts]

    public init(harness: String, results: [CaseVerdicts]) {
        format = Self.formatVersion
        self.harness = harness
        self.results = results
    }
}
