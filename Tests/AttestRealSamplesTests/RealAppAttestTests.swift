import AttestCBOR
import AttestCrypto
import AttestDER
import Foundation
import Testing

/// The 7 real App Attest samples decode with our CBOR reader and re-encode byte for byte; their chains verify.
@Suite struct RealAppAttestTests {
    @Test(arguments: try RealSamples.appAttestSamples())
    func attestationAndAssertionsRoundTrip(path: String) throws {
        let sample = try RealSamples.json(path)
        let bytes = try #require(RealSamples.base64(sample["attestationObject"] as? String ?? ""))
        let object = try CBORReader.decode(bytes)
        #expect(CBORWriter.encode(object, canonical: false) == bytes)
        // Apple's encoder happens to produce CTAP2 canonical form.
        #expect(try CBORReader.decode(bytes, options: .ctap2Canonical) == object)
        #expect(object.mapEntries?.map(\.key) == ["fmt", "attStmt", "authData"])
        #expect(object["fmt"] == "apple-appattest")
        #expect(object["attStmt"]?.mapEntries?.map(\.key) == ["x5c", "receipt"])
        #expect(object["authData"]?.bytesValue?.count == 164)

        let assertions = try #require(sample["assertions"] as? [[String: Any]])
        #expect(!assertions.isEmpty)
        for assertion in assertions {
            let assertionBytes = try #require(RealSamples.base64(assertion["assertion"] as? String ?? ""))
            let decoded = try CBORReader.decode(assertionBytes)
            #expect(CBORWriter.encode(decoded, canonical: false) == assertionBytes)
            #expect(decoded.mapEntries?.map(\.key) == ["signature", "authenticatorData"])
            #expect(decoded["authenticatorData"]?.bytesValue?.count == 37)
        }
    }

    @Test(arguments: try RealSamples.appAttestSamples())
    func chainVerifiesAgainstTheAppleRootAtItsTime(path: String) throws {
        let sample = try RealSamples.json(path)
        let object = try CBORReader.decode(try #require(RealSamples.base64(sample["attestationObject"] as? String ?? "")))
        let x5c = try #require(object["attStmt"]?["x5c"]?.arrayValue).map { try X509Certificate(der: $0.bytesValue ?? []) }
        let root = try X509Certificate.parseChain(pem: RealSamples.text("roots/apple-app-attestation-root-ca.pem"))
        let time = try #require(RealSamples.date(sample["validAt"] as? String ?? ""))
        let verifier = ChainVerifier(trustAnchors: root)
        try verifier.verify(leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: time)
        // Three days later the credential certificate has expired.
        #expect(throws: ChainVerificationError.self) {
            try verifier.verify(leaf: x5c[0], intermediates: Array(x5c.dropFirst()), at: time + 4 * 86_400)
        }
    }
}
