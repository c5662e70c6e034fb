import AttestCatalogue
import AttestConformance

/// attest-harness's own verifier: every rule of its profile, checked strictly, naming the rule that failed.
/// `builtin:reference-without:<rule>` is the same verifier with one rule removed from the profile, which the
/// catalogue must catch.
public struct ReferenceVerifier: AttestationVerifier {
    public let profile: Profile
    public let name: String

    public init(profile: Profile, name: String = "builtin:reference") {
        self.profile = profile
        self.name = name
    }

    public func startCase(_ context: CaseContext) throws -> any VerificationSession {
        ReferenceSession(policy: try Policy(profile: profile, context: context))
    }

    /// Judges every case of an exec suite document, each from fresh state, every step: the reference verifier's
    /// side of the exec contract and of `serve`.
    public func judge(_ suite: ExecSuite) throws -> ExecResults {
        let steps = suite.runnableSteps
        let results = try suite.cases.map { testCase -> ExecResults.CaseVerdicts in
            let session = try startCase(testCase.context)
            return ExecResults.CaseVerdicts(id: testCase.id, verdicts: try (steps[testCase.id] ?? []).map(session.verify))
        }
        return ExecResults(harness: name, results: results)
    }
}

/// What the reference server has stored so far in one case. Imported passkeys become WebAuthn credentials; iOS
/// imports also keep their App Attest key for per-approval assertions.
struct ServerState {
    var appAttest = AppAttestState()
    var webAuthn = WebAuthnState()
    var imports = PasskeyImportState()
    var perRequest = PerRequestState()
    var stepUp = StepUpState()
}

/// One case's session.
final class ReferenceSession: VerificationSession {
    let policy: Policy
    var state = ServerState()

    init(policy: Policy) { self.policy = policy }

    func verify(_ step: Step) throws -> Verdict {
        let policy = self.policy.at(step.time)
        do {
            switch step.kind {
            case AppAttestFamily.attestationStep: try AttestationVerification.verify(step, policy: policy, state: &state.appAttest)
            case AppAttestFamily.assertionStep: try AssertionVerification.verify(step, policy: policy, state: &state.appAttest)
            case AndroidFamily.attestationStep: try AndroidAttestationVerification.verify(step, policy: policy)
            case WebAuthnFamily.registrationStep: try RegistrationVerification.verify(step, policy: policy, state: &state.webAuthn)
            case WebAuthnFamily.assertionStep: try WebAuthnAssertionVerification.verify(step, policy: policy, server: &state)
            case PasskeyImportFamily.startStep: try PasskeyImportVerification.start(step, policy: policy, server: &state)
            case PasskeyImportFamily.completeStep: try PasskeyImportVerification.complete(step, policy: policy, server: &state)
            case PerRequestFamily.challengeStep: try PerRequestVerification.challenge(step, policy: policy, server: &state)
            case PerRequestFamily.attestStep: try PerRequestVerification.attest(step, policy: policy, server: &state)
            case PerRequestFamily.requestStep: try PerRequestVerification.request(step, policy: policy, server: &state)
            case StepUpFamily.registerStep: try StepUpVerification.register(step, policy: policy, state: &state.stepUp)
            case StepUpFamily.challengeStep: try StepUpVerification.challenge(step, policy: policy, state: &state.stepUp)
            case StepUpFamily.approveStep: try StepUpVerification.approve(step, policy: policy, state: &state.stepUp)
            default: throw HarnessError("the reference verifier does not know step kind \(step.kind)")
            }
            return .accept
        } catch let violation as RuleViolation {
            return .reject(violation.rule, violation.reason, status: violation.status)
        }
    }
}
