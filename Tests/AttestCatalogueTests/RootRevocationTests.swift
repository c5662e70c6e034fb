import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import Testing

/// A revoked root cannot be slipped past the status list by leaving it out of the chain: the verifier looks up
/// the trust anchor that issued the top certificate, not only what the client sent.
@Suite struct RootRevocationTests {
    @Test func aRevokedRootIsRefusedEvenWhenTheChainOmitsIt() async throws {
        let profile = Profile.androidKeyAttestation
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let withoutRoot = try #require(cases.first { $0.id == "android.chain.includesRoot.without-root" })
        let revokedRoot = try #require(cases.first { $0.id == "android.chain.rootRevoked.ec-root" })
        var context = withoutRoot.context
        context.parameters["attestationStatusList"] = revokedRoot.context.parameters["attestationStatusList"]
        let verdict = try ReferenceVerifier(profile: profile).verdict(for: withoutRoot.steps[0].request, context: context)
        #expect(verdict.outcome == .reject && verdict.rule == .chainRootRevoked, "\(verdict)")
        // The same chain with the status list it was forged with is accepted (the documentation profile does not
        // require the root in the chain).
        let accepted = try ReferenceVerifier(profile: profile).verdict(for: withoutRoot.steps[0].request, context: withoutRoot.context)
        #expect(accepted == .accept, "\(accepted)")
    }
}
