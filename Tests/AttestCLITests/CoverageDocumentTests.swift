import AttestCatalogue
import AttestConformance
import AttestEvidence
import Foundation
import Testing

/// docs/coverage.md is exactly what scripts/coverage writes from docs/anchors/ and the catalogue (so every case id
/// it names exists), it maps all 173 FIDO server checks and every State of Passkeys manipulation, and each rule
/// states how binding it is.
@Suite struct CoverageDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCoverageDocumentIsWhatTheScriptWrites() throws {
        let result = try CommandLineTests.launch(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", Self.root.appendingPathComponent("scripts/coverage").path, "--check", "--harness", CommandLineTests.binary.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The catalogue side of the same map: each case carries the checks it answers (vectors, `list`), generated
    /// into WebAuthnAnchors.swift by the script the first test runs in --check mode.
    @Test func casesCarryTheAnchorChecksTheyAnswer() throws {
        let cases = try BuiltinCatalogue.cases(for: .webAuthnL3, seed: 1)
        let byId = Dictionary(uniqueKeysWithValues: cases.map { ($0.id, $0) })
        #expect(byId["webauthn.valid.tpm"]?.anchors == ["fido2-server:Server-ServerAuthenticatorAttestationResponse-Resp-9/P-1"])
        #expect(byId["webauthn.x5c.order.packed-misordered"]?.anchors == ["fido2-server:Server-ServerAuthenticatorAttestationResponse-Resp-5/F-11"])
        #expect(cases.filter { !$0.anchors.isEmpty }.count > 150)
        let suite = VectorSuite(family: .webAuthn, seed: 1, stepKinds: [:], rules: [], profiles: [.webAuthnL3], cases: cases)
        #expect(try suite.runnableCases.map(\.anchors) == cases.map(\.anchors))
    }

    /// The cases real verifiers showed the catalogue lacked (issue 29) each cite what they answer: a public test
    /// suite's check (anchors) or the public bug, advisory or library fault they would have caught (references),
    /// carried into the vectors and back.
    @Test func theCasesRealVerifiersMissedCiteAnAnchorOrAReference() throws {
        let cases = try BuiltinCatalogue.cases(for: .webAuthnL3, seed: 1)
        let byId = Dictionary(uniqueKeysWithValues: cases.map { ($0.id, $0) })
        let missed = ["signature.encoding.extra-integer", "assertion.signature.zero-r-and-s", "assertion.signature.r-is-order",
                      "credentialKey.fit.point-off-curve", "credentialKey.fit.compressed-point", "clientData.origin.with-path",
                      "clientData.origin.trailing-slash", "clientData.origin.userinfo", "clientData.origin.explicit-port",
                      "clientData.origin.upper-case-host", "clientData.origin.idn-unicode", "valid.idn-relying-party",
                      "attestation.signature.packed-alg-missing", "attestation.signature.packed-alg-text",
                      "fidoU2F.certificate.fido-u2f-two-certificates", "valid.packed-p384-batch", "valid.packed-rsa-batch",
                      "structure.client-data-duplicate-challenge", "structure.client-data-duplicate-type",
                      "clientData.challenge.assertion-in-another-member", "authenticatorData.registration-attested-flag-clear",
                      "authenticatorData.registration-without-attested-data", "chain.validity.packed-intermediate-expired",
                      "valid.credential-id-1023-bytes", "credentialId.length.1024-bytes", "valid.uv-discouraged",
                      "valid.uv-discouraged-uv-set", "assertion.credential.not-allowed", "valid.allow-credentials",
                      "assertion.credential.deleted", "attestation.structure.safetynet-ver-empty"].map { "webauthn." + $0 }
        for id in missed {
            let testCase = try #require(byId[id], "\(id) is no case")
            #expect(!testCase.anchors.isEmpty || !testCase.references.isEmpty, "\(id) cites neither an anchor check nor a reference")
        }
        #expect(byId["webauthn.assertion.signature.zero-r-and-s"]?.references.first?.hasPrefix("CVE-2022-21449") == true)
        let suite = VectorSuite(family: .webAuthn, seed: 1, stepKinds: [:], rules: [], profiles: [.webAuthnL3], cases: cases)
        #expect(try suite.runnableCases.map(\.references) == cases.map(\.references))
        let listed = try CommandLineTests.run("list", "--profile", "webauthn-l3", "--format", "json")
        let entries = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect((entries.first { $0["id"] as? String == "webauthn.clientData.origin.userinfo" }?["references"] as? [String])?.count == 1)
    }

    @Test func everyAnchorCheckHasARow() throws {
        let fido = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent("docs/anchors/fido2-server-conformance.json"))) as? [String: Any]
        let checks = try #require(fido?["checks"] as? [[String: Any]])
        #expect(checks.count == 173)
        let map = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.root.appendingPathComponent("docs/anchors/fido2-coverage-map.json"))) as? [String: Any]
        let entries = try #require(map?["checks"] as? [String: [String: Any]])
        #expect(Set(checks.compactMap { $0["id"] as? String }) == Set(entries.keys))
        for (id, entry) in entries where entry["status"] as? String != "covered" {
            #expect(!((entry["note"] as? String) ?? "").isEmpty, "\(id) says neither which case covers it nor why none does")
        }
        let document = try String(contentsOf: Self.root.appendingPathComponent("docs/coverage.md"), encoding: .utf8)
        #expect(document.components(separatedBy: "\n| `ServerAuthenticator").count + document.components(separatedBy: "\n| `ServerPublicKey").count - 2 == 173)
    }

    @Test func everyRuleStatesItsLevelAndTheKnownOverstatementsAreNotMUSTs() {
        for rule in BuiltinCatalogue.rules where rule.level != .policy {
            #expect(!(rule.quote ?? "").isEmpty, "\(rule.id) is \(rule.level.rawValue) without the words it quotes")
        }
        let levels = Dictionary(BuiltinCatalogue.rules.map { ($0.id, $0.level) }, uniquingKeysWith: { first, _ in first })
        #expect(levels[.webAuthnStructure] == .policy)
        #expect(levels[.webAuthnSignCount] == .policy)
        #expect(levels[.cborTrailingBytes] == .should && levels[.cborDuplicateMapKey] == .should && levels[.cborIndefiniteLength] == .should)
        #expect(levels[.webAuthnChallenge] == .must)
        #expect(Set(levels.values) == Set(RuleLevel.allCases))
    }
}
