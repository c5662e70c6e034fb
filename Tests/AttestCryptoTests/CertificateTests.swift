import AttestCrypto
import AttestDER
import Foundation
import Testing

/// A three-level test PKI shaped like App Attest's (P-384 root and intermediate, P-256 leaf).
struct TestPKI {
    static let day: TimeInterval = 86_400
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    let rootKey: PrivateKey
    let intermediateKey: PrivateKey
    let leafKey: PrivateKey
    let rootName = X509Name([.commonName("TEST Attestation Root CA"), .organization("attest-harness"),
                                      .stateOrProvince("California")])
    let intermediateName = X509Name([.commonName("TEST Attestation CA 1"), .organization("attest-harness")])

    init() throws {
        rootKey = try PrivateKey.derive(.ec(.p384), seed: KeyTests.seed, label: "root")
        intermediateKey = try PrivateKey.derive(.ec(.p384), seed: KeyTests.seed, label: "intermediate")
        leafKey = try PrivateKey.derive(.ec(.p256), seed: KeyTests.seed, label: "leaf")
    }

    func root(key: PrivateKey? = nil) throws -> X509Certificate {
        let key = key ?? rootKey
        return try CertificateTemplate(
            serialNumber: [0x0b, 0xf3, 0xbe], signatureAlgorithm: .ecdsaWithSHA384, issuer: rootName, subject: rootName,
            notBefore: Self.epoch - 365 * Self.day, notAfter: Self.epoch + 3650 * Self.day,
            subjectPublicKeyInfo: key.publicKey.spki,
            extensions: [.basicConstraints(ca: true), .subjectKeyIdentifier(sha256(key.publicKey.spki).prefix(20).map { $0 }),
                         .keyUsage([.keyCertSign, .cRLSign])]
        ).signed(by: key)
    }

    func intermediate(ca: Bool = true, signer: PrivateKey? = nil) throws -> X509Certificate {
        try CertificateTemplate(
            serialNumber: [0x56, 0x32], signatureAlgorithm: .ecdsaWithSHA384, issuer: rootName, subject: intermediateName,
            notBefore: Self.epoch - 300 * Self.day, notAfter: Self.epoch + 1000 * Self.day,
            subjectPublicKeyInfo: intermediateKey.publicKey.spki,
            extensions: [.basicConstraints(ca: ca, pathLength: ca ? 0 : nil), .keyUsage(ca ? [.keyCertSign, .cRLSign] : [.digitalSignature])]
        ).signed(by: signer ?? rootKey)
    }

    func leaf(notBefore: Date = Self.epoch - Self.day, notAfter: Date = Self.epoch + 2 * Self.day,
              signer: PrivateKey? = nil, extensions: [CertificateExtension] = []) throws -> X509Certificate {
        try CertificateTemplate(
            serialNumber: [0x01, 0x77, 0x2f, 0x3a, 0x9c, 0x48], signatureAlgorithm: .ecdsaWithSHA256,
            issuer: intermediateName,
            subject: X509Name([.commonName(hex(sha256(try leafKey.publicKey.x963Point))),
                                        .organizationalUnit("AAA Certification"), .organization("attest-harness")]),
            notBefore: notBefore, notAfter: notAfter, subjectPublicKeyInfo: leafKey.publicKey.spki,
            extensions: [.basicConstraints(ca: false), .keyUsage([.digitalSignature, .nonRepudiation, .keyEncipherment, .dataEncipherment])]
                + extensions
        ).signed(by: signer ?? intermediateKey)
    }
}

@Suite struct CertificateTests {
    @Test func openSSLReadsEveryFieldWeWrite() throws {
        let pki = try TestPKI()
        let nonce = CertificateExtension(
            oid: "1.2.840.113635.100.8.2",
            value: DERElement.sequence([.explicit(1, .octetString([UInt8](repeating: 0xab, count: 32)))]).serialized)
        let template = CertificateTemplate(
            serialNumber: [0x80, 0x00, 0x01], signatureAlgorithm: .ecdsaWithSHA256, issuer: pki.intermediateName,
            subject: X509Name([.commonName("leaf"), .country("US"), .serialNumber("f92009e853b6b045")]),
            notBefore: Date(timeIntervalSince1970: 1_611_230_015), notAfter: Date(timeIntervalSince1970: 2_556_143_999 + 86_400),
            subjectPublicKeyInfo: pki.leafKey.publicKey.spki,
            extensions: [.basicConstraints(ca: false), nonce, CertificateExtension(oid: "1.2.3.4", critical: true, value: [0x05, 0x00])])
        let certificate = try template.signed(by: pki.intermediateKey)

        #expect(certificate.subjectDER == template.subject.der)
        #expect(certificate.issuerDER == template.issuer.der)
        #expect(certificate.subject == "serialNumber=f92009e853b6b045,C=US,CN=leaf")
        #expect(certificate.serialNumber == [0x80, 0x00, 0x01])
        #expect(certificate.notBefore == template.notBefore)
        #expect(certificate.notAfter == template.notAfter)
        #expect(certificate.extensions == template.extensions)
        #expect(certificate.subjectPublicKeyInfo == pki.leafKey.publicKey.spki)
        #expect(try certificate.publicKey == pki.leafKey.publicKey)
        #expect(certificate.isSigned(by: pki.intermediateKey.publicKey))
        #expect(!certificate.isSigned(by: pki.rootKey.publicKey))

        // Our reader parses the same bytes strictly; 2051 forces a GeneralizedTime.
        let parsed = try DERReader.parse(certificate.der)
        #expect(parsed.serialized == certificate.der)
        var certificateFields = try parsed.contents()
        var tbs = try certificateFields.next().contents()
        _ = try tbs.next()
        #expect(try tbs.next().unsignedIntegerBytes() == [0x80, 0x00, 0x01])
        _ = try (tbs.next(), tbs.next())
        var validity = try tbs.next().contents()
        #expect(try validity.next().identifier == DERIdentifier.utcTime)
        #expect(try validity.next().identifier == DERIdentifier.generalizedTime)
        // Certificates are deterministic for a seed.
        #expect(try template.signed(by: pki.intermediateKey).der == certificate.der)
    }

    @Test func malformedCertificatesAreRejected() throws {
        let der = try TestPKI().root().der
        #expect(throws: AttestCryptoError.self) { try X509Certificate(der: Array(der.dropLast())) }
        #expect(throws: AttestCryptoError.self) { try X509Certificate(der: der + [0]) }
        #expect(throws: AttestCryptoError.self) { try X509Certificate(der: []) }
    }
}
