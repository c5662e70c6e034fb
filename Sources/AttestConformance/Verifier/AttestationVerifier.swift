/// The one contract every verifier meets, in-process or behind an adapter (a child process, our verdict protocol, a
/// deployed server's API): given a case as the verifier sees it, answer one verdict per step, in order, rejections
/// included, from state no other case touched.
///
/// Throwing means the harness could not get a verdict, never a verdict: throw `VerifierFailure.hang` for a timeout,
/// `VerifierFailure.crash` when the verifier itself failed (a signal, a 5xx), and `VerifierFailure.contract` for
/// anything else (garbage, an adapter that cannot start).
///
/// Verifiers written in Swift that keep state per case conform to `SessionVerifier` instead and get this method
/// for free.
public protocol AttestationVerifier: Sendable {
    /// A name for reports (`builtin:reference`, `exec:./adapter`).
    var name: String { get }

    /// True when the verifier's cases must run one at a time, e.g. a live server whose simulated device keeps one key
    /// and one counter across cases. The runner then ignores `--jobs`. Default: false.
    var requiresSerialCases: Bool { get }

    /// At most this many cases at once, whatever `--jobs` asks (a deployed site with a pool of four accounts and
    /// two simulated users per case takes two). Nil: no limit of the verifier's own. Default: 1 when
    /// `requiresSerialCases`, else nil.
    var concurrentCaseLimit: Int? { get }

    /// The verdicts for `testCase`'s steps, in order. `profile` is the policy the harness asks for: what it expects
    /// is derived from it, and verifiers configured elsewhere may ignore it.
    func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict]

    /// Checks, before any case runs, that the verifier can be reached at all (an exec command that starts, a server
    /// that accepts a connection), so a setup mistake is one clear error instead of one per case. Throws
    /// `VerifierFailure.contract` with the reason. Default: nothing to check.
    func prepare() async throws

    /// How many cases the verifier prefers to judge in one call of `verdicts(forSuite:profile:)` (an adapter with
    /// an expensive start-up judging a whole suite in one process); 1, the default, means one case per call.
    var suiteSize: Int { get }

    /// The verdicts (or the failure) for each of `cases`, in order, each case still from fresh state. Called only
    /// when `suiteSize` is above 1. Default: each case through `verdicts(for:profile:)`.
    func verdicts(forSuite cases: [VerifierCase], profile: Profile) async -> [Result<[Verdict], any Error>]
}

extension AttestationVerifier {
    public var requiresSerialCases: Bool { false }
    public var concurrentCaseLimit: Int? { requiresSerialCases ? 1 : nil }
    public func prepare() async throws {}
    public var suiteSize: Int { 1 }

    public func verdicts(forSuite cases: [VerifierCase], profile: Profile) async -> [Result<[Verdict], any Error>] {
        await verdictsOneByOne(cases, profile: profile)
    }

    /// Each of `cases` through `verdicts(for:profile:)`, its failure kept as its result: the default suite answer,
    /// and the fallback of a verifier whose suite failed as a whole.
    public func verdictsOneByOne(_ cases: [VerifierCase], profile: Profile) async -> [Result<[Verdict], any Error>] {
        var results: [Result<[Verdict], any Error>] = []
        for testCase in cases {
            do {
                results.append(.success(try await verdicts(for: testCase, profile: profile)))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}

/// A verifier that judges a case step by step from a session it starts fresh for the case: the shape of most
/// in-process verifiers (the session holds stored keys, counters and used challenges).
public protocol SessionVerifier: AttestationVerifier {
    associatedtype Session: VerificationSession
    /// A fresh session for one case, configured from what the case tells the verifier (time, anchors, parameters).
    func startSession(_ context: CaseContext, profile: Profile) async throws -> Session
}

/// The state a `SessionVerifier` keeps across the steps of one case.
public protocol VerificationSession {
    /// The verdict for the next step. Throwing means no verdict could be had.
    mutating func verify(_ step: VerifierStep) async throws -> Verdict
}

extension SessionVerifier {
    /// A fresh session, then every step in order (a rejected request can change what later steps see).
    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        var session = try await startSession(testCase.context, profile: profile)
        var verdicts: [Verdict] = []
        verdicts.reserveCapacity(testCase.steps.count)
        for step in testCase.steps { verdicts.append(try await session.verify(step)) }
        return verdicts
    }
}

/// Why a verifier adapter got no verdict: the case timed out (HANG), or the verifier broke the contract.
public enum VerifierFailure: Error, Hashable, Sendable, CustomStringConvertible {
    case hang(seconds: Double)
    case contract(String)
    /// The verifier cannot judge this case here (a lifetime case against a server that keeps real time): reported
    /// apart, never as a pass or a finding.
    case unsupported(String)
    /// The verifier failed instead of answering (killed by a signal, HTTP 5xx, a connection reset mid-answer):
    /// reported `crash`, never a rejection.
    case crash(String)

    public var description: String {
        switch self {
        case .crash(let reason): return "crash: " + reason
        case .hang(let seconds): return "no answer within \(seconds) s"
        case .contract(let reason): return reason
        case .unsupported(let reason): return "unsupported: \(reason)"
        }
    }
}
