import AttestCatalogue
import AttestConformance
import AttestReference
import Testing
import AttestVerifiers

/// A refusal with the wrong documented status is a finding: a server that answers 401 for a device failure or 403
/// for an account failure (seeds/001) fails every negative per-request case, while its verdicts are all "reject".
@Suite struct StatusTests {
    /// The reference verifier with 401 and 403 swapped.
    struct SwappedStatuses: SessionVerifier {
        let inner: ReferenceVerifier
        var name: String { "swapped-statuses" }

        struct Session: VerificationSession {
            var inner: ReferenceSession

            mutating func verify(_ step: VerifierStep) throws -> Verdict {
                let verdict = try inner.verify(step)
                let swapped = ["401": "403", "403": "401"][verdict.status ?? ""] ?? verdict.status
                return Verdict(verdict.outcome, reason: verdict.reason, rule: verdict.rule, status: swapped)
            }
        }

        func startSession(_ context: CaseContext, profile: Profile) throws -> Session {
            Session(inner: try inner.startCase(context))
        }
    }

    @Test func swappedStatusesAreFindingsInEveryNegativeCase() async throws {
        let profile = try #require(BuiltinCatalogue.profile(named: "per-request-device-attestation"))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let report = await Runner(profile: profile, verifier: SwappedStatuses(inner: ReferenceVerifier(profile: profile))).run(cases, seed: 1)
        let negative = Set(cases.filter { $0.rule != nil }.map(\.id))
        #expect(Set(report.findings.map(\.caseId)) == negative)
        #expect(report.findings.allSatisfy { $0.actual?.outcome == .reject && $0.expectedStatus != $0.actual?.status })
        #expect(report.findings.contains { $0.summary.contains("expected reject (401), got reject 403") })
    }
}
