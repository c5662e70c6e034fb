import AttestCBOR
import AttestCrypto
import AttestDER
import Foundation
import Testing

/// Our DER reader reads real certificates exactly as devices and CAs wrote them.
@Suite struct RealCertificateTests {
    @Test func everyRealCertificateParsesStrictlyAndRoundTrips() throws {
        var count = 0
        for path in try RealSamples.pemFiles() {
            for document in try PEMBlock.parseAll(RealSamples.text(path)) where document.label == "CERTIFICATE" {
                let element = try DERReader.parse(document.der)
                #expect(element.serialized == document.der, "\(path) certificate \(count)")
                // OpenSSL reads the same bytes.
                _ = try X509Certificate(der: document.der)
                count += 1
            }
        }
        #expect(count == 134)
    }

    @Test func attestationObjectCertificatesParseStrictly() throws {
        var count = 0
        for path in try RealSamples.appAttestSamples() {
            let sample = try RealSamples.json(path)
            let object = try CBORReader.decode(try #require(RealSamples.base64(sample["attestationObject"] as? String ?? "")))
            for certificate in try #require(object["attStmt"]?["x5c"]?.arrayValue) {
                let der = try #require(certificate.bytesValue)
                #expect(try DERReader.parse(der).serialized == der)
                count += 1
            }
        }
        #expect(count == 14)
    }
}
