import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import AttestCrypto
import Foundation
import Testing

/// The reference verifier, configured with the real Apple root and each sample's App ID, environment and time,
/// accepts all 7 real samples, and rejects each once any single byte of a signed part is changed.
@Suite struct RealAppAttestVerificationTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        let path: String
        let context: CaseContext
        let attestation: Step
        let assertions: [Step]
        var testDescription: String { path }

        init(path: String) throws {
            self.path = path
            let json = try RealSamples.json(path)
            func bytes(_ object: [String: Any], _ key: String) throws -> [UInt8] {
                try #require(RealSamples.base64(object[key] as? String ?? ""), "\(path): \(key)")
            }
            let root = try RealSamples.text("roots/apple-app-attestation-root-ca.pem")
            context = CaseContext(
                time: try #require(RealSamples.date(json["validAt"] as? String ?? "")), trustAnchors: [root],
                parameters: ["appId": json["appId"] as? String ?? "", "environment": json["environment"] as? String ?? ""])
            let keyId = try bytes(json, "keyId")
            attestation = Step(kind: StepKind.appAttestAttestation, inputs: [
                .attestationObject: try bytes(json, "attestationObject"), .keyId: keyId,
                .challenge: Array((json["clientData"] as? String ?? "").utf8),
            ])
            assertions = try (json["assertions"] as? [[String: Any]] ?? []).map { assertion in
                Step(kind: StepKind.appAttestAssertion, inputs: [
                    .assertion: try bytes(assertion, "assertion"), .clientData: try bytes(assertion, "clientDataBase64"),
                    .keyId: keyId, .challenge: Array((assertion["challenge"] as? String ?? "").utf8),
                ])
            }
        }

        /// Verdicts for the attestation and the assertions in order, in a fresh session.
        func verdicts(_ steps: [Step]) throws -> [Verdict] {
            let profile = BuiltinCatalogue.profile(named: "apple-app-attest")!
            var session = try ReferenceVerifier(profile: profile).startCase(context)
            return try steps.map { try session.verify($0.request) }
        }
    }

    static func samples() throws -> [Sample] { try RealSamples.appAttestSamples().map { try Sample(path: $0) } }

    @Test(arguments: try samples())
    func acceptsTheRealSample(sample: Sample) throws {
        let verdicts = try sample.verdicts([sample.attestation] + sample.assertions)
        #expect(verdicts.count == 2)
        for verdict in verdicts { #expect(verdict == .accept, "\(verdict.rule?.rawValue ?? ""): \(verdict.reason ?? "")") }
    }

    /// `step` with byte `index` of input `name` flipped.
    static func flipping(_ step: Step, _ name: InputKey, at index: Int) -> Step {
        var inputs = step.inputs
        inputs[name]![index] ^= 0x01
        return Step(kind: step.kind, inputs: inputs)
    }

    @Test(arguments: try samples())
    func rejectsAnyChangedByteOfTheSignedAttestation(sample: Sample) throws {
        let object = sample.attestation.inputs[.attestationObject]!
        // authData (164 bytes) ends the object; the certificates sit inside x5c.
        var positions = Array((object.count - 164)..<object.count)
        let x5c = try #require(CBORReader.decode(object)["attStmt"]?["x5c"]?.arrayValue).compactMap(\.bytesValue)
        for certificate in x5c {
            let start = try #require(RealSamplesTests.find(certificate, in: object))
            positions += stride(from: start, to: start + certificate.count, by: 3)
        }
        for position in positions {
            let verdict = try sample.verdicts([Self.flipping(sample.attestation, .attestationObject, at: position)])[0]
            #expect(verdict.outcome == .reject, "byte \(position) of the attestation object changed, still accepted")
        }
        for name in [InputKey.challenge, .keyId] {
            for position in sample.attestation.inputs[name]!.indices {
                let verdict = try sample.verdicts([Self.flipping(sample.attestation, name, at: position)])[0]
                #expect(verdict.outcome == .reject, "byte \(position) of \(name) changed, still accepted")
            }
        }
    }

    @Test(arguments: try samples())
    func rejectsAnyChangedByteOfTheSignedAssertion(sample: Sample) throws {
        let assertion = sample.assertions[0]
        let object = assertion.inputs[.assertion]!
        let decoded = try CBORReader.decode(object)
        let signature = try #require(decoded["signature"]?.bytesValue)
        let signatureStart = try #require(RealSamplesTests.find(signature, in: object))
        // authenticatorData (37 bytes) ends the object.
        let positions = Array(signatureStart..<(signatureStart + signature.count)) + Array((object.count - 37)..<object.count)
        for position in positions {
            let verdict = try sample.verdicts([sample.attestation, Self.flipping(assertion, .assertion, at: position)])[1]
            #expect(verdict.outcome == .reject, "byte \(position) of the assertion changed, still accepted")
        }
        for position in assertion.inputs[.clientData]!.indices {
            let verdict = try sample.verdicts([sample.attestation, Self.flipping(assertion, .clientData, at: position)])[1]
            #expect(verdict.outcome == .reject, "byte \(position) of clientData changed, still accepted")
        }
    }
}

enum RealSamplesTests {
    /// The offset of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
