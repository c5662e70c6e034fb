import AttestEvidence
import AttestConformance

/// attest-harness's own verifier: every rule of its profile, checked strictly, naming the rule that failed.
/// `builtin:reference-without:<rule>` is the same verifier with one rule removed from the profile, which the
/// catalogue must catch.
///
/// It judges synchronously (`startCase`, `ReferenceSession.verify`) for fuzz targets and servers, and meets the
/// async `AttestationVerifier` contract through `SessionVerifier`.
public struct ReferenceVerifier: SessionVerifier {
    /// The rules it enforces (its own: the harness's profile only sets the expectations).
    public let profile: Profile
    public let name: String

    public init(profile: Profile, name: String = "builtin:reference") {
        self.profile = profile
        self.name = name
    }

    public func startSession(_ context: CaseContext, profile _: Profile) throws -> ReferenceSession {
        try startCase(context)
    }

    /// A fresh session for one case.
    public func startCase(_ context: CaseContext) throws -> ReferenceSession {
        ReferenceSession(policy: try Policy(profile: profile, context: context))
    }

    /// The verdict for `step` alone, from a fresh session.
    public func verdict(for step: VerifierStep, context: CaseContext) throws -> Verdict {
        var session = try startCase(context)
        return try session.verify(step)
    }

    /// Judges every case of an exec suite document, each from fresh state, every step: the reference verifier's
    /// side of the exec contract and of `serve`.
    public func judge(_ suite: ExecSuite) throws -> ExecResults {
        let results = try suite.cases.map { testCase -> ExecResults.CaseVerdicts in
            var session = try startCase(testCase.context)
            return ExecResults.CaseVerdicts(id: testCase.id, verdicts: try testCase.steps.map { try session.verify($0) })
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

/// One case's session: the policy and what the server has stored so far.
public struct ReferenceSession: VerificationSession {
    let policy: Policy
    var state = ServerState()

    init(policy: Policy) { self.policy = policy }

    /// The verdict for the next step; throws only when the suite itself is broken (a missing input or parameter, an
    /// unknown step kind), never for what the evidence holds.
    public mutating func verify(_ step: VerifierStep) throws -> Verdict {
        let policy = self.policy.at(step.time)
        do {
            switch step.kind {
            case StepKind.appAttestAttestation: try AttestationVerification.verify(step, policy: policy, state: &state.appAttest)
            case StepKind.appAttestAssertion: try AssertionVerification.verify(step, policy: policy, state: &state.appAttest)
            case StepKind.androidKeyAttestation: try AndroidAttestationVerification.verify(step, policy: policy)
            case StepKind.webAuthnRegistration: try RegistrationVerification.verify(step, policy: policy, state: &state.webAuthn)
            case StepKind.webAuthnAssertion: try WebAuthnAssertionVerification.verify(step, policy: policy, server: &state)
            case StepKind.webAuthnDeletion: state.webAuthn.delete(try step.input(.credentialId))
            case StepKind.passkeyImportStart: try PasskeyImportVerification.start(step, policy: policy, server: &state)
            case StepKind.passkeyImportComplete: try PasskeyImportVerification.complete(step, policy: policy, server: &state)
            case StepKind.perRequestChallenge: try PerRequestVerification.challenge(step, policy: policy, server: &state)
            case StepKind.perRequestAttest: try PerRequestVerification.attest(step, policy: policy, server: &state)
            case StepKind.perRequestRequest: try PerRequestVerification.request(step, policy: policy, server: &state)
            case StepKind.stepUpRegister: try StepUpVerification.register(step, policy: policy, state: &state.stepUp)
            case StepKind.stepUpChallenge: try StepUpVerification.challenge(step, policy: policy, state: &state.stepUp)
            case StepKind.stepUpApprove: try StepUpVerification.approve(step, policy: policy, state: &state.stepUp)
            default: throw HarnessError("the reference verifier does not know step kind \(step.kind)")
            }
            return .accept
        } catch let violation as RuleViolation {
            return .reject(violation.rule, violation.reason, status: violation.status)
        } catch let fault as HarnessError {
            throw fault
        } catch let fault as ParameterError {
            throw fault
        } catch let fault as VerifierFailure {
            throw fault
        } catch {
            // Everything else was raised while reading the step's evidence (a certificate whose fields do not
            // decode, a key that is not an SubjectPublicKeyInfo, an encoding OpenSSL refuses): evidence the checks
            // cannot read is refused, in every family alike, and never sinks the rest of the suite.
            return .reject(Self.unreadable(step.kind), "the evidence cannot be read: \(error)")
        }
    }

    /// The rule a step's evidence breaks when it cannot be read at all: its family's own structure rule, the one
    /// its checks already name for evidence that does not parse.
    static func unreadable(_ kind: StepKind) -> RuleID {
        switch kind {
        case .appAttestAttestation, .appAttestAssertion: .appAttestStructure
        case .androidKeyAttestation: .androidChainLength
        case .passkeyImportStart, .passkeyImportComplete: .importProofMembers
        case .perRequestChallenge, .perRequestAttest, .perRequestRequest: .requestHeaders
        case .stepUpRegister, .stepUpChallenge: .stepUpKey
        case .stepUpApprove: .stepUpSignature
        default: .webAuthnStructure
        }
    }
}

