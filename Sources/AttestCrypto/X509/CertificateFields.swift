import AttestDER

/// The fields of an X.509 certificate read by our own strict DER reader (RFC 5280 §4.1), independently of
/// OpenSSL, so the two can be compared:
///
///     Certificate  ::= SEQUENCE { tbsCertificate, signatureAlgorithm AlgorithmIdentifier, signatureValue BIT STRING }
///     TBSCertificate ::= SEQUENCE { version [0] EXPLICIT Version DEFAULT v1, serialNumber INTEGER,
///         signature AlgorithmIdentifier, issuer Name, validity Validity, subject Name,
///         subjectPublicKeyInfo SubjectPublicKeyInfo, issuerUniqueID [1] IMPLICIT OPTIONAL,
///         subjectUniqueID [2] IMPLICIT OPTIONAL, extensions [3] EXPLICIT Extensions OPTIONAL }
public struct CertificateFields: Hashable, Sendable {
    /// 0 for v1 ... 2 for v3.
    public let version: Int64
    /// DER of the serialNumber INTEGER.
    public let serialNumber: [UInt8]
    public let issuer: [UInt8]
    public let subject: [UInt8]
    /// Seconds since 1970.
    public let notBefore: Int64
    public let notAfter: Int64
    public let subjectPublicKeyInfo: [UInt8]
    public let extensions: [CertificateExtension]

    public init(der: [UInt8]) throws {
        var certificate = try DERReader.parse(der).contents(field: "Certificate")
        var tbs = try certificate.next("tbsCertificate").contents(field: "tbsCertificate")
        if let versionElement = tbs.next(ifIdentifier: .explicit(0)) {
            version = try versionElement.explicitlyTagged(0, field: "version").integerValue(field: "version")
            // DER never encodes a DEFAULT value (X.690 §11.5).
            guard version != 0 else { throw DERError(.encodedDefault, at: versionElement.location, field: "version") }
        } else {
            version = 0
        }
        let serial = try tbs.next("serialNumber")
        serialNumber = try serial.expect(.integer, field: "serialNumber").serialized
        _ = try tbs.next("signature").contents(field: "signature")
        issuer = try tbs.next("issuer").expect(.sequence, field: "issuer").serialized
        var validity = try tbs.next("validity").contents(field: "validity")
        notBefore = try ASN1Time.value(of: try validity.next("notBefore"), field: "notBefore")
        notAfter = try ASN1Time.value(of: try validity.next("notAfter"), field: "notAfter")
        try validity.finish()
        subject = try tbs.next("subject").expect(.sequence, field: "subject").serialized
        subjectPublicKeyInfo = try tbs.next("subjectPublicKeyInfo").expect(.sequence, field: "subjectPublicKeyInfo").serialized
        _ = tbs.next(ifIdentifier: .implicit(1))
        _ = tbs.next(ifIdentifier: .implicit(2))
        var extensions: [CertificateExtension] = []
        if let wrapper = tbs.next(ifIdentifier: .explicit(3)) {
            var list = try wrapper.explicitlyTagged(3, field: "extensions").contents(field: "extensions")
            while !list.remaining.isEmpty {
                var fields = try list.next().contents(field: "Extension")
                let oid = try fields.next("extnID").oidValue(field: "extnID")
                var critical = false
                if let flag = fields.next(ifIdentifier: .boolean) {
                    critical = try flag.booleanValue(field: "critical")
                    guard critical else { throw DERError(.encodedDefault, at: flag.location, field: "critical") }
                }
                let value = try fields.next("extnValue").octetStringValue(field: "extnValue")
                try fields.finish()
                extensions.append(CertificateExtension(oid: oid, critical: critical, value: value))
            }
        }
        self.extensions = extensions
        try tbs.finish()
        _ = try certificate.next("signatureAlgorithm").contents(field: "signatureAlgorithm")
        _ = try certificate.next("signatureValue").bitStringValue(field: "signatureValue")
        try certificate.finish()
    }
}
