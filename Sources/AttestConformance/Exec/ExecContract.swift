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

    /// A case as the verifier sees it: what it is told and the steps in order, not what is expected.
    public struct ExecCase: Codable, Hashable, Sendable {
        public let id: String
        public let family: String
        public let context: CaseContext
        public let steps: [ExecStep]
    }

    public struct ExecStep: Codable, Hashable, Sendable {
        public let kind: String
        public let inputs: [String: String]
        /// When the request arrives; absent means the case's context time.
        public let time: Date?
    }

    public let format: String
    public let profile: Profile
    public let cases: [ExecCase]

    public init(profile: AttestConformance.Profile, cases: [Case]) {
        self.init(profile: profile, execCases: cases.map { testCase in
            ExecCase(id: testCase.id, family: testCase.family, context: testCase.context, steps: testCase.steps.map {
                ExecStep(kind: $0.kind, inputs: $0.inputs.mapValues { Data($0).base64EncodedString() }, time: $0.time)
            })
        })
    }

    public init(profile: AttestConformance.Profile, execCases: [ExecCase]) {
        format = Self.formatVersion
        self.profile = Profile(name: profile.name, rules: profile.rules.sorted(), parameters: profile.parameters)
        cases = execCases
    }

    /// The profile the document asks for.
    public var requestedProfile: AttestConformance.Profile {
        AttestConformance.Profile(name: profile.name, description: "", families: Array(Set(cases.map(\.family))).sorted(),
                            rules: Set(profile.rules), parameters: profile.parameters)
    }

    /// The cases back as runnable steps (for verifiers written in Swift that read this document).
    public var runnableSteps: [String: [Step]] {
        Dictionary(uniqueKeysWithValues: cases.map { testCase in
            (testCase.id, testCase.steps.map {
                Step(kind: $0.kind, inputs: $0.inputs.mapValues { Array(Data(base64Encoded: $0) ?? Data()) }, time: $0.time)
            })
        })
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

/// A verifier that judges a whole case at once, because its state lives elsewhere (a child process, a server).
/// The runner hands it the case without expectations and compares the verdicts it returns.
public protocol WholeCaseVerifier: AttestationVerifier {
    /// Verdicts for the case's steps in order.
    /// - Throws: `VerifierFailure` when no verdict could be had.
    func verdicts(for testCase: ExecSuite.ExecCase, profile: Profile) throws -> [Verdict]
}

/// Why a verifier adapter got no verdict: the case timed out (HANG), or the verifier broke the contract.
public enum VerifierFailure: Error, Hashable, Sendable, CustomStringConvertible {
    case hang(seconds: Double)
    case contract(String)

    public var description: String {
        switch self {
        case .hang(let seconds): return "no answer within \(seconds) s"
        case .contract(let reason): return reason
        }
    }
}
