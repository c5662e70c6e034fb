import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import Testing


/// A refusal with the wrong documented status is a finding: a server that answers 401 for a device failure or 403 for
/// an account failure (docs/protocols/per-request-device-attestation.md §5) fails every negative per-request case,
/// while its verdicts are all "reject".
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

/// A server that echoes the configured Authorization value into its errors never gets it into a report.
@Suite struct RedactionTests {
    @Test func theAuthorizationValueIsRedactedFromEveryFormat() throws {
        let secret = "Bearer sk_live_0123456789abcdef"
        let echoed = Verdict(.accept, reason: "HTTP 200: {\"authorization\":\"\(secret)\"}", status: "sk_live_0123456789abcdef")
        var finding = CaseResult(caseId: "appattest.nonce.31-bytes", rule: .appAttestNonce, importance: .critical,
                                 status: .finding, step: 0, expected: .reject, actual: echoed,
                                 message: "token sk_live_0123456789abcdef refused")
        finding.expectedStatus = "403"
        finding.requests = ["curl -X POST 'http://127.0.0.1:1/v1/import' -H 'Authorization: Bearer sk_live_0123456789abcdef'"]
        var report = RunReport(verifier: "striga+http://127.0.0.1:1", profile: "apple-app-attest", seed: 1, results: [finding])
            .redacting(RunReport.authorizationSecrets(secret))
        report.rules = BuiltinCatalogue.rules
        for format in ReportFormat.allCases {
            let text = try format.render(report, color: false)
            #expect(!text.contains("sk_live_0123456789abcdef"), "\(format) leaks the token")
            #expect(text.contains(RunReport.redactionMark) || format == .markdown || format == .console, "\(format)")
        }
        #expect(report.results[0].actual?.reason?.contains(RunReport.redactionMark) == true)
        #expect(report.results[0].message == "token [redacted] refused")
    }

    /// A server that echoes the secret JSON-escaped, percent-encoded or in another case leaks nothing either.
    @Test func encodedEchoesAreRedacted() {
        let secret = "Bearer abC/d+efGH12/xyz=="
        for echo in [#"abC\/d+efGH12\/xyz=="#, "ABC/D+EFGH12/XYZ==", "abC%2Fd%2BefGH12%2Fxyz%3D%3D"] {
            let leaky = CaseResult(caseId: "c", rule: nil, importance: .high, status: .finding, step: 0, expected: .accept,
                                   actual: Verdict(.reject, reason: "HTTP 500: {\"token\":\"\(echo)\"}"), message: nil)
            let reason = RunReport(verifier: "v", profile: "p", seed: 1, results: [leaky])
                .redacting(RunReport.authorizationSecrets(secret)).results[0].actual?.reason ?? ""
            #expect(!reason.lowercased().contains("efgh12"), "\(echo): \(reason)")
        }
    }

    /// Whitespace around or inside the configured value, and an excerpt cut inside the secret, leak nothing.
    @Test func variantsOfTheSecretAreRedactedToo() {
        let leaky = CaseResult(caseId: "import.valid.ios", rule: nil, importance: .critical, status: .finding, step: 0,
                               expected: .accept, actual: Verdict(.reject, reason: "HTTP 400: token=sk_test_123456; echo Bearer sk_test_12345"),
                               message: nil)
        for configured in ["Bearer\tsk_test_123456", "Bearer  sk_test_123456 ", " Bearer sk_test_123456\n"] {
            let report = RunReport(verifier: "striga+http://127.0.0.1:1", profile: "p", seed: 1, results: [leaky])
                .redacting(RunReport.authorizationSecrets(configured))
            let reason = report.results[0].actual?.reason ?? ""
            #expect(!reason.contains("sk_test_1234"), "\(configured.debugDescription): \(reason)")
            #expect(reason.hasPrefix("HTTP 400: token=[redacted]"), "\(reason)")
        }
    }
}
