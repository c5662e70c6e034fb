import Foundation
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import AttestReference
import Testing

/// The one certificate of an Android chain that RFC 5280's CA checks do not judge: the device's attestation key
/// certificate (the first above the leaf without a KeyDescription), which older factory keyboxes issue cA FALSE.
/// The exemption must not reach any other certificate: not the attested leaf when it signs another (chain
/// extension), nor a provisioning CA named by a stray certificate the client appends.
@Suite struct AttestationKeyCertificateTests {
    static let profile = Profile.androidKeyAttestation
    static let optedIn = Profile(name: "strict-keybox", description: "", families: [AndroidFamily.name],
                                 rules: profile.rules.union([.androidChainAttestationKeyIsCA]), parameters: profile.parameters)

    /// The verdict for `scenario` forged from seed 1 under `profile`.
    static func verdict(_ profile: Profile, _ change: (inout AndroidScenario, AndroidForge) throws -> Void) throws -> Verdict {
        let app = try AndroidParameters(forging: ParameterReader(profile.parameters))
        let forge = try AndroidForge(seed: ForgeSeed(1), packageName: app.packageName, signatureDigest: app.signatureDigest)
        var scenario = try forge.scenario()
        try change(&scenario, forge)
        var context = CaseContext(time: forge.time, trustAnchors: [forge.pki.rsaRoot.certificate.pem, forge.pki.ecRoot.certificate.pem],
                                  parameters: profile.parameters)
        context.parameters["attestationStatusList"] = String(decoding: try scenario.statusList.json, as: UTF8.self)
        let step = Step(kind: .androidKeyAttestation, inputs: [
            .certificateChain: try scenario.render(pki: forge.pki).flatMap(\.der), .publicKey: scenario.submittedKey.spki,
            .challenge: scenario.challenge,
        ])
        return try ReferenceVerifier(profile: profile).verdict(for: step.request, context: context)
    }

    @Test func anEndEntityKeyboxIsAcceptedUnlessTheProfileOptsIn() throws {
        let keybox: (inout AndroidScenario, AndroidForge) -> Void = { scenario, _ in
            scenario.attestation.shape = .factory
            scenario.endEntityAuthority = 0
        }
        #expect(try Self.verdict(Self.profile, keybox) == .accept)
        let refused = try Self.verdict(Self.optedIn, keybox)
        #expect(refused.outcome == .reject && refused.rule == .androidChainAttestationKeyIsCA, "\(refused)")
    }

    /// Chain extension on an end-entity keybox: the exempt certificate is the keybox's, never the attested leaf that
    /// signed the attacker's certificate.
    @Test func chainExtensionStaysAMustFailure() throws {
        let verdict = try Self.verdict(Self.profile) { scenario, forge in
            scenario.attestation.shape = .factory
            scenario.endEntityAuthority = 0
            scenario.extensionKey = try forge.key("chain extension")
            scenario.submittedKey = try forge.key("chain extension").publicKey
        }
        #expect(verdict.outcome == .reject && verdict.rule == .chainBasicConstraints, "\(verdict)")
    }

    /// A provisioning CA issued cA FALSE stays under chain.basicConstraints, even when the client appends a
    /// certificate with a KeyDescription that names that CA as its issuer (the exemption follows the path up from
    /// the leaf, not whatever else was sent).
    @Test func aProvisioningCAIsNotExemptedByAStrayCertificate() throws {
        let plain = try Self.verdict(Self.profile) { scenario, _ in scenario.endEntityAuthority = 1 }
        #expect(plain.outcome == .reject && plain.rule == .chainBasicConstraints, "\(plain)")
        let decoy = try Self.verdict(Self.profile) { scenario, forge in
            scenario.endEntityAuthority = 1
            let description = CertificateExtension(oid: KeyDescription.extensionOID, value: scenario.attestation.keyDescription.der)
            scenario.appended = [try CertificateAuthority.issue(
                serial: [0x77], subject: X509Name([.commonName("decoy")]), key: try forge.key("decoy").publicKey,
                issuer: try X509Name(der: forge.pki.rkpCA3.certificate.subjectDER), signer: try forge.key("decoy"),
                validity: (forge.time - 86_400, forge.time + 86_400), extensions: [description])]
        }
        #expect(decoy.outcome == .reject && decoy.rule == .chainBasicConstraints, "\(decoy)")
    }
}
