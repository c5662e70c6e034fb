import Foundation

/// The outcome of running a suite against one verifier under one profile: the document `run --format json` writes,
/// `run --baseline` reads and `report` renders in other formats. Its JSON Schema is docs/report.schema.json.
public struct RunReport: Hashable, Sendable, Codable {
    /// The value of `format` in every report.
    public static let formatName = "attest-harness-report"
    /// The schema version this build writes and reads. A report of another version is refused as a baseline.
    public static let currentFormatVersion = 1

    /// Always `attest-harness-report`: tells a reader what the document is.
    public private(set) var format: String = RunReport.formatName
    /// Raised when a field changes meaning or goes away; new optional fields keep it.
    public private(set) var formatVersion: Int = RunReport.currentFormatVersion
    /// The attest-harness version that ran.
    public let harnessVersion: String?
    public let verifier: String
    public let profile: String
    /// The catalogue the cases came from under this profile: the harness version and a fingerprint of every case
    /// id, its rule and its expected verdict (`0.3.0+1f2e3d4c5b6a`). Two reports compare only when these agree.
    public var catalogue: String?
    public let seed: UInt64
    /// When the run started (from the caller's clock) and how long it took.
    public var startedAt: Date?
    public var durationSeconds: Double?
    /// The machine that ran it (JUnit's `hostname`).
    public var host: String?
    /// The rules the results break, with statement, level and clause, so that the report explains itself.
    public var rules: [Rule] = []
    public var results: [CaseResult]
    /// Set when the run was compared with a baseline report.
    public var baseline: BaselineSummary?
    /// What fails this run (`--fail-on`); absent: `FailureGate.default`.
    public var failOn: FailureGate?

    public init(verifier: String, profile: String, seed: UInt64, results: [CaseResult], catalogue: String? = nil,
                harnessVersion: String? = HarnessVersion.current) {
        self.harnessVersion = harnessVersion
        self.verifier = verifier
        self.profile = profile
        self.catalogue = catalogue
        self.seed = seed
        self.results = results
    }

    /// Wrong verdicts and hangs.
    public var findings: [CaseResult] { results.filter { $0.status.isFinding } }
    public var errors: [CaseResult] { results.filter { $0.status == .error } }
    /// Cases the verifier could not judge where it runs, with the reason (not counted as passes or findings).
    public var unsupported: [CaseResult] { results.filter { $0.status == .unsupported } }
    /// The verifier failed instead of judging (a signal, a 5xx, an adapter's unexpected exception).
    public var crashes: [CaseResult] { results.filter { $0.status == .crash } }
    /// Refusals whose control the verifier did not accept in the same run.
    public var unconfirmed: [CaseResult] { results.filter { $0.status == .unconfirmed } }
    /// Refusals that name another rule than the one the case breaks.
    public var masked: [CaseResult] { results.filter { $0.status == .masked } }
    /// Cases whose verdict the specification leaves to the relying party, with what the verifier chose.
    public var acceptable: [CaseResult] { results.filter { $0.status == .acceptable } }
    /// The passes backed by `proof`.
    public func passes(provenBy proof: CaseResult.Proof) -> [CaseResult] {
        results.filter { $0.status == .pass && $0.proof == proof }
    }
    /// Failing results the gate counts: those `failOn` names, or against a baseline only the new ones of them.
    public var gating: [CaseResult] {
        let gate = failOn ?? .default
        let levels = Dictionary(rules.map { ($0.id, $0.level) }, uniquingKeysWith: { first, _ in first })
        return results.filter { result in
            result.baseline != .known && gate.fails(result, level: result.rule.flatMap { levels[$0] } ?? .must)
        }
    }

    /// 2 when a harness error counts (a new one, against a baseline) or when no case was judged at all (no pass,
    /// finding, hang or crash, and some result a harness error, unconfirmed or masked: nothing backs a pass, and a
    /// baseline of the same breakage must not turn it into one), else 1 when a finding, hang or crash counts, else 0.
    /// Unsupported cases alone are reported apart and leave the status at 0. Known findings and errors of a
    /// baseline are reported but do not fail the gate.
    public var exitCode: Int32 {
        let gating = gating
        if gating.contains(where: { $0.status == .error }) { return 2 }
        let judged = results.contains { $0.status == .pass || $0.status.isFinding || $0.status == .crash || $0.status == .acceptable }
        if !judged, results.contains(where: { $0.status == .error || $0.status.isUnproven }) { return 2 }
        return gating.isEmpty ? 0 : 1
    }

    /// One line per control the verifier did not accept that leaves refusals unconfirmed, and one per family whose
    /// valid cases it mostly refuses: `refuses every valid webauthn case (31): 180 negatives unconfirmed`.
    public var controlNotes: [String] {
        let unconfirmed = unconfirmed
        guard !unconfirmed.isEmpty else { return [] }
        var notes: [String] = []
        let valid = results.filter { $0.rule == nil }
        for family in Set(valid.compactMap(\.family)).sorted() {
            let cases = valid.filter { $0.family == family }
            let refused = cases.filter { $0.status != .pass }
            let left = unconfirmed.filter { $0.family == family }.count
            guard refused.count * 2 > cases.count, left > 0 else { continue }
            let share = refused.count == cases.count ? "every valid \(family.rawValue) case (\(cases.count))"
                : "\(refused.count) of \(cases.count) valid \(family.rawValue) cases"
            notes.append("refuses \(share): \(left) negative\(left == 1 ? "" : "s") unconfirmed")
        }
        let byControl = Dictionary(grouping: unconfirmed.filter { $0.control != nil }) { $0.control?.caseId ?? "" }
        for (control, cases) in byControl.sorted(by: { $0.key < $1.key }) {
            let status = cases.first?.control?.status.map(\.rawValue) ?? "not run"
            notes.append("control \(control) \(status == "not run" ? "was not run" : "is \(status)"): \(cases.count) negative\(cases.count == 1 ? "" : "s") unconfirmed")
        }
        return notes.map(DisplayText.safe)
    }
}

/// What comparing a run with a baseline found: the baseline's identity and the case ids that are new, known and
/// fixed (also marked on each result).
public struct BaselineSummary: Hashable, Sendable, Codable {
    public let profile: String
    public let catalogue: String?
    public let seed: UInt64
    public let harnessVersion: String?
    public let new: [String]
    public let known: [String]
    public let fixed: [String]
}
