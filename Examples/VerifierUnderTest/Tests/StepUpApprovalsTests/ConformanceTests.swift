import AttestConformance
import AttestEvidence
import AttestTesting
import StepUpApprovals
import Testing

/// The adapter between the harness and the server code: a fresh server per case, each step mapped to a call.
struct ApprovalVerifier: SessionVerifier {
    var name: String { "StepUpApprovals" }

    struct Session: VerificationSession {
        var server: ApprovalServer

        mutating func verify(_ step: VerifierStep) throws -> Verdict {
            do {
                switch step.kind {
                case .stepUpRegister:
                    try server.register(keyId: step.text(.keyId), spki: try step.input(.publicKey))
                case .stepUpChallenge:
                    server.issue(challengeId: step.text(.challengeId), bytes: try step.input(.challenge),
                                 account: step.text(.account), keyId: step.text(.keyId), action: step.text(.action))
                case .stepUpApprove:
                    try server.approve(challengeId: step.text(.challengeId), account: step.text(.account),
                                       keyId: step.text(.keyId), action: step.text(.action),
                                       signature: try step.input(.signature))
                default:
                    throw VerifierFailure.contract("not a step-up step: \(step.kind)")
                }
                return .accept
            } catch let refusal as ApprovalServer.Refusal {
                return Verdict(.reject, reason: "\(refusal)")
            }
        }
    }

    func startSession(_ context: CaseContext, profile: Profile) throws -> Session {
        let form = ApprovalServer.MessageForm(rawValue: context.parameters["stepUpMessage"] ?? "") ?? .challenge
        return Session(server: ApprovalServer(messageForm: form))
    }
}

@Suite struct ConformanceTests {
    /// The server misses exactly two rules, and the harness names exactly their cases.
    @Test func findsExactlyTheMissingChecks() async throws {
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await expectConformance(of: ApprovalVerifier(), profile: .stepUpSigning)
        }
        let findings = failure?.failures ?? []
        #expect(Set(findings.map(\.caseId)) == ["stepup.challenge.singleUse.reused", "stepup.challenge.lifetime.expired"])
        #expect(findings.allSatisfy { $0.status == .finding && $0.expected == .reject && $0.actual?.outcome == .accept })
        let message = failure.map { "\($0)" } ?? ""
        #expect(message.contains("attest-harness forge --case stepup.challenge.lifetime.expired --seed 1"))
    }

    /// Every other rule of the profile holds: the catalogue without the two known gaps passes.
    @Test func everyOtherRuleHolds() async throws {
        var profile = Profile.stepUpSigning
        profile.rules.subtract([.stepUpSingleUse, .stepUpLifetime])
        try await expectConformance(of: ApprovalVerifier(), profile: profile)
    }
}
