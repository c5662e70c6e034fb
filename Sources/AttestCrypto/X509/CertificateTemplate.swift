import AttestDER
import Foundation

/// Everything that goes into a certificate's `TBSCertificate` (RFC 5280 §4.1), built with our DER writer so that
/// any field can be set to any value, including values a CA would never issue.
public struct CertificateTemplate: Sendable {
    /// Big-endian magnitude; encoded as a positive INTEGER.
    public var serialNumber: [UInt8]
    public var signatureAlgorithm: SignatureAlgorithm
    public var issuer: X509Name
    public var subject: X509Name
    public var notBefore: Date
    public var notAfter: Date
    /// DER SubjectPublicKeyInfo of the certified key.
    public var subjectPublicKeyInfo: [UInt8]
    /// In wire order.
    public var extensions: [CertificateExtension]
    /// The `version` INTEGER: 2 for v3 (the default), 0 for v1 (then omitted, as DER omits DEFAULT values).
    public var version: Int64 = 2

    public init(
        serialNumber: [UInt8], signatureAlgorithm: SignatureAlgorithm, issuer: X509Name,
        subject: X509Name, notBefore: Date, notAfter: Date, subjectPublicKeyInfo: [UInt8],
        extensions: [CertificateExtension]
    ) {
        self.serialNumber = serialNumber
        self.signatureAlgorithm = signatureAlgorithm
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectPublicKeyInfo = subjectPublicKeyInfo
        self.extensions = extensions
    }

    /// `TBSCertificate` (v3 unless `version` says otherwise); times use UTCTime through 2049 (RFC 5280 §4.1.2.5).
    public func tbsCertificate() throws -> DERElement {
        var fields: [DERElement] = (version == 0 ? [] : [.explicit(0, .integer(version))]) + [
            .integer(unsignedBigEndian: serialNumber),
            signatureAlgorithm.element,
            issuer.element,
            .sequence([ASN1Time.element(seconds(notBefore)), ASN1Time.element(seconds(notAfter))]),
            subject.element,
            try DERReader.parse(subjectPublicKeyInfo),
        ]
        if !extensions.isEmpty {
            fields.append(.explicit(3, .sequence(extensions.map(\.element))))
        }
        return .sequence(fields)
    }

    /// The signed certificate: `SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }`.
    public func signed(by issuerKey: PrivateKey) throws -> X509Certificate {
        let tbs = try tbsCertificate()
        let signature = try issuerKey.sign(tbs.serialized, digest: signatureAlgorithm.digest)
        let certificate = DERElement.sequence([tbs, signatureAlgorithm.element, .bitString(signature)])
        return try X509Certificate(der: certificate.serialized)
    }

    private func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
