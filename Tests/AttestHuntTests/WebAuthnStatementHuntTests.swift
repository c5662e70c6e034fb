import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestForge
import AttestHunt
import AttestReference
import Foundation
import Testing

/// The hunt's mutations of the tpm, android-key, apple and android-safetynet statements (`WebAuthnStatementMutations`):
/// each applies to the baseline of its format, rendering repairs the signatures so the reference refuses the mutant
/// under the rule of the field (not at a signature), and a verifier that skips the AIK certificate's profile is found
/// at that certificate's fields.
@Suite struct WebAuthnStatementHuntTests {
    /// Every statement mutation applied to every valid baseline it applies to (four draws each), judged by the
    /// reference: the field, and the rule of each mutant's first refusal.
    static func reach() async throws -> (applied: Set<String>, refusedUnder: [String: Set<RuleID>]) {
        let profile = Profile.webAuthnL3
        let baselines = try WebAuthnFamily.huntBaselines(parameters: profile.parameters, seed: ForgeSeed(1))
        var applied = Set<String>(), refusedUnder: [String: Set<RuleID>] = [:]
        for (index, mutation) in WebAuthnStatementMutations.all.enumerated() {
            guard case .repaired(let edit) = mutation.application else { continue }
            for baseline in baselines {
                for draw in 0..<4 {
                    var scenario = baseline.scenario
                    var random = HuntRandom(seed: UInt64(index), stream: UInt64(draw))
                    guard try edit(&scenario, &random, baseline.forge) != nil else { continue }
                    applied.insert(mutation.field.rawValue)
                    let mutant = try baseline.render(scenario, id: "statement-mutant", description: mutation.field.rawValue)
                    let verdicts = try await ReferenceVerifier(profile: profile).verdicts(for: mutant.request, profile: profile)
                    // The first refusal: an assertion after a refused registration has no credential to find.
                    if let refusal = verdicts.first(where: { $0.outcome == .reject }) {
                        refusedUnder[mutation.field.rawValue, default: []].insert(refusal.rule ?? "none")
                    }
                }
            }
        }
        return (applied, refusedUnder)
    }

    @Test func everyStatementFieldAppliesAndIsJudgedUnderItsRule() async throws {
        let (applied, refusedUnder) = try await Self.reach()
        let fields = Set(WebAuthnStatementMutations.all.map(\.field.rawValue))
        #expect(applied == fields, "never applied: \(fields.subtracting(applied).sorted())")
        // Repaired mutants reach the check of the field they change, not a signature that no longer verifies.
        let expected: [String: RuleID] = [
            "registration.attStmt.tpm.certInfo.magic": .webAuthnTPMCertInfo,
            "registration.attStmt.tpm.certInfo.extraData": .webAuthnTPMCertInfo,
            "registration.attStmt.tpm.pubArea": .webAuthnTPMPublicArea,
            "registration.attStmt.tpm.x5c[0].subject": .webAuthnTPMCertificate,
            "registration.attStmt.tpm.x5c[0].extendedKeyUsage": .webAuthnTPMCertificate,
            "registration.attStmt.tpm.x5c[0].aaguid": .webAuthnTPMAAGUID,
            "registration.attStmt.tpm.x5c": .webAuthnX5COrder,
            "registration.attStmt.androidKey.attestationChallenge": .webAuthnAndroidKeyChallenge,
            "registration.attStmt.apple.x5c[0].nonce": .webAuthnAppleNonce,
            "registration.attStmt.apple.x5c[0].publicKey": .webAuthnApplePublicKey,
            "registration.attStmt.safetyNet.response.nonce": .webAuthnSafetyNetNonce,
            "registration.attStmt.safetyNet.response.ctsProfileMatch": .webAuthnSafetyNetIntegrity,
            "registration.attStmt.safetyNet.response.timestampMs": .webAuthnSafetyNetTimestamp,
            "registration.attStmt.safetyNet.response.header.x5c[0].subjectAltName": .webAuthnSafetyNetCertificate,
        ]
        for (field, rule) in expected {
            #expect(refusedUnder[field] == [rule], "\(field): refused under \(refusedUnder[field]?.map(\.rawValue).sorted() ?? [])")
        }
        // What webauthn-l3 does not judge, by design: a valid variation (RS1, another nameAlg, another registered
        // vendor, a SafetyNet version string, basicIntegrity without ctsProfileMatch's), a vendor id's spelling (§8.3.1
        // asks for the TCG attribute, and the reference checks its presence, as python-fido2 does), and the
        // KeyDescription fields no WebAuthn step reads (§8.4 names the challenge, allApplications, origin and purpose).
        let accepted = fields.subtracting(refusedUnder.keys)
        #expect(accepted.isSubset(of: Self.unjudged), "accepted although judged: \(accepted.subtracting(Self.unjudged).sorted())")
        #expect(accepted.contains("registration.attStmt.tpm.alg") && accepted.contains("registration.attStmt.tpm.pubArea.nameAlg"))
    }

    /// The fields whose mutants webauthn-l3's reference may accept: valid variations, and what no rule of it reads.
    static let unjudged: Set<String> = Set([
        "registration.attStmt.tpm.alg", "registration.attStmt.tpm.pubArea.nameAlg",
        "registration.attStmt.tpm.x5c[0].subjectAltName.manufacturer",
        "registration.attStmt.safetyNet.ver", "registration.attStmt.safetyNet.response.basicIntegrity",
    ] + WebAuthnStatementMutations.all.map(\.field.rawValue).filter { field in
        field.hasPrefix("registration.attStmt.androidKey.keyDescription.")
            && !["allApplications", "origin", "purpose"].contains { field.contains($0) }
    })

    @Test func aSkippedAIKCertificateProfileIsFoundAtThatCertificate() async throws {
        let profile = Profile.webAuthnL3
        let planted = ReferenceVerifier(profile: profile.without(.webAuthnTPMCertificate), name: "planted:aik-certificate-unchecked")
        let state = try await boundedHunt(profile, [ReferenceVerifier(profile: profile), planted],
                                          names: ["builtin:reference", "planted:aik-certificate-unchecked"], mutants: 1_500, seed: 1)
        let found = state.clusters.filter { $0.key.field.rawValue.hasPrefix("registration.attStmt.tpm.x5c[0].") && $0.key.pattern == "RA" }
        #expect(!found.isEmpty, "clusters: \(state.clusters.map(\.key.id))")
        #expect(state.clusters.allSatisfy { $0.suggestedRule(verifiers: state.configuration.verifiers) == .webAuthnTPMCertificate },
                "the planted bug is the only disagreement: \(state.clusters.map(\.key.id))")
    }
}
