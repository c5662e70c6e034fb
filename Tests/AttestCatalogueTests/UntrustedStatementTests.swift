import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import Testing

/// A site that asked for no attestation and holds no roots (trust none) may refuse a registration whose statement
/// it cannot trust (§7.1 step 24) or register it as unattested (the note after it). Its profile leaves those
/// registrations to it: a site that refuses every statement but `none` (as py_webauthn does with an apple statement
/// against Apple's real root) has no finding for it, its `none` registrations must still be accepted, and a
/// refusal is backed by a control only when that control was accepted.
@Suite struct UntrustedStatementTests {
    /// The reference verifier, but every registration whose fmt is not "none" is refused.
    struct RefusesStatements: SessionVerifier {
        let inner: ReferenceVerifier
        var name: String { "refuses-statements" }
        /// CBOR `"fmt": "none"`.
        static let fmtNone: [UInt8] = [0x63, 0x66, 0x6d, 0x74, 0x64, 0x6e, 0x6f, 0x6e, 0x65]

        struct Session: VerificationSession {
            var inner: ReferenceSession

            mutating func verify(_ step: VerifierStep) throws -> Verdict {
                if step.kind == .webAuthnRegistration, let object = step.inputs[.attestationObject],
                   !object.indices.contains(where: { object[$0...].starts(with: RefusesStatements.fmtNone) }) {
                    return Verdict(.reject, reason: "untrusted attestation statement")
                }
                return try inner.verify(step)
            }
        }

        func startSession(_ context: CaseContext, profile: Profile) throws -> Session {
            Session(inner: try inner.startCase(context))
        }
    }

    static func siteProfile() -> Profile {
        var policy = RelyingPartyPolicy()
        policy.attestation = "none"
        policy.userVerification = "required"
        return WebAuthnFamily.profile(.webAuthnL3, following: policy)
    }

    @Test func aSiteThatRefusesStatementsItCannotTrustHasNoFindingForIt() async throws {
        let profile = Self.siteProfile()
        #expect(profile.parameters["attestationTrust"] == "none")
        // Statement and trust rules are the site's; the ceremony's, the attestation object's CBOR included, are not.
        #expect(profile.leavesToRelyingParty(.webAuthnAttestationSignature) && profile.leavesToRelyingParty(.chainTrustAnchor))
        #expect([RuleID.cborTrailingBytes, .cborDuplicateMapKey, .cborIndefiniteLength, .webAuthnOrigin].allSatisfy(profile.enforces))
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let packed = try #require(cases.first { $0.id == "webauthn.valid.packed" })
        #expect(packed.steps.first?.expectedVerdict(under: profile) == .either)
        #expect(packed.steps.dropFirst().allSatisfy { $0.expectedVerdict(under: profile) == .accept })
        #expect(cases.first { $0.id == "webauthn.valid.none" }?.steps.allSatisfy { $0.expectedVerdict(under: profile) == .accept } == true)

        let verifier = RefusesStatements(inner: ReferenceVerifier(profile: profile))
        let report = await Runner(profile: profile, verifier: verifier).run(cases, seed: 1)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.summary))")
        #expect(report.errors.isEmpty)
        let byId = Dictionary(report.results.map { ($0.caseId, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byId["webauthn.valid.none"]?.status == .pass)
        // Its registration refused, the assertions after it are not compared: acceptable, not a finding.
        #expect(byId["webauthn.valid.packed"]?.status == .acceptable)
        #expect(byId["webauthn.valid.packed"]?.actual?.outcome == .reject)
        // A negative whose control (valid.packed) was refused shows nothing.
        let onPacked = cases.filter { $0.control == "webauthn.valid.packed" && $0.rule.map(profile.enforces) == true }
        #expect(!onPacked.isEmpty)
        for testCase in onPacked { #expect(byId[testCase.id]?.status != .pass, "\(testCase.id)") }
    }

    @Test func anAcceptedControlLeftToTheSiteBacksARefusal() async throws {
        let profile = Self.siteProfile()
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let report = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(cases, seed: 1)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.summary))")
        let byId = Dictionary(report.results.map { ($0.caseId, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byId["webauthn.valid.packed"]?.status == .acceptable)
        #expect(byId["webauthn.valid.packed"]?.actual?.outcome == .accept)
        let onPacked = cases.filter { $0.control == "webauthn.valid.packed" && $0.rule.map(profile.enforces) == true }
        for testCase in onPacked {
            let result = byId[testCase.id]
            #expect(result?.status == .pass, "\(testCase.id): \(result.map { "\($0.status) \($0.summary) \($0.message ?? "")" } ?? "")")
            #expect(result?.control?.status == .acceptable)
        }
    }
}
