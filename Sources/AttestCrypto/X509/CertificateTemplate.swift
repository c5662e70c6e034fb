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

    /// The DER of `tbsCertificate()`, assembled from the encodings of its fields: a SEQUENCE's DER is its header
    /// followed by its fields' DER, so these are the same bytes, without building the whole tree again for every
    /// certificate. The subjectPublicKeyInfo goes in as given once the strict reader has accepted it, exactly as
    /// `tbsCertificate()` requires: DER the strict reader accepts re-encodes to itself (the round trip fuzz-der
    /// checks), so this is also what `tbsCertificate()` would write for it. Also returns the certificate's
    /// `ParseShape`, whose fields are these bytes up to the extensions.
    func tbsCertificateDER() throws -> (der: [UInt8], shape: ParseShape) {
        // Once per distinct key: a forge certifies the same few keys again and again.
        _ = try Self.acceptedKeys.value(for: ExactBytes(subjectPublicKeyInfo)) {
            _ = try DERReader.parse(subjectPublicKeyInfo)
            return true
        }
        var body: [UInt8] = []
        body.reserveCapacity(subjectPublicKeyInfo.count + extensions.reduce(0) { $0 + $1.value.count } + 256)
        if version != 0 { body += DERElement.explicit(0, .integer(version)).serialized }
        body += DERElement.integer(unsignedBigEndian: serialNumber).serialized
        body += signatureAlgorithm.element.serialized
        body += issuer.element.serialized
        body += DERElement.sequence([ASN1Time.element(seconds(notBefore)), ASN1Time.element(seconds(notAfter))]).serialized
        body += subject.element.serialized
        body += subjectPublicKeyInfo
        let shape = ParseShape(fields: body, extensions: extensions.map { ParseShape.ExtensionShape(oid: $0.oid, critical: $0.critical) })
        if !extensions.isEmpty {
            var list: [UInt8] = []
            for item in extensions { list += item.element.serialized }
            let sequence = DERElement.header(.sequence, contentLength: list.count) + list
            body += DERElement.header(.explicit(3), contentLength: sequence.count) + sequence
        }
        return (DERElement.header(.sequence, contentLength: body.count) + body, shape)
    }

    /// The signed certificate: `SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue BIT STRING }`.
    public func signed(by issuerKey: PrivateKey) throws -> X509Certificate {
        let (tbs, shape) = try tbsCertificateDER()
        let signature = try issuerKey.sign(tbs, digest: signatureAlgorithm.digest)
        // SEQUENCE { tbs, algorithm, signature } from the TBSCertificate bytes just signed, not serialized again.
        let body = tbs + signatureAlgorithm.element.serialized + DERElement.bitString(signature).serialized
        let der = DERElement.header(.sequence, contentLength: body.count) + body
        // The first certificate of a shape is parsed now (a refusal throws and is not remembered); the others wait.
        var parsed: X509Certificate?
        _ = try ParseShape.accepted.value(for: shape) {
            parsed = try X509Certificate(der: der)
            return true
        }
        return parsed ?? X509Certificate(deferringParseOf: der)
    }

    /// Everything in a certificate signed from a template that d2i_X509 examines: every field but the octets inside
    /// each extension's extnValue OCTET STRING and inside the signature BIT STRING, which OpenSSL 3 reads as opaque
    /// octets of any length (extensions are decoded later, on demand, and never fail the parse; a signature is only
    /// checked by X509_verify; the writer encodes every length around them in DER). OpenSSL's verdict on a
    /// certificate is therefore a function of its shape: once d2i_X509 has accepted one certificate of a shape, it
    /// accepts every other, and their parse can wait until it is needed (`X509Certificate.init(deferringParseOf:)`).
    /// A forge that issues many leaves differing only in an extension's value (a challenge, a nonce) parses one.
    /// The fields up to the extensions are held as their DER (version, serial, algorithm, names, validity, key):
    /// equal bytes, equal fields, and one hash over the bytes instead of one per name attribute and key byte.
    struct ParseShape: Hashable {
        let fields: [UInt8]
        let extensions: [ExtensionShape]

        struct ExtensionShape: Hashable {
            let oid: DERObjectIdentifier
            let critical: Bool
        }

        func hash(into hasher: inout Hasher) {
            fields.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(extensions)
        }

        /// Shapes d2i_X509 has accepted in this process.
        static let accepted = Memo<ParseShape, Bool>(capacity: 4096, size: { shape, _ in shape.fields.count })
    }

    /// SubjectPublicKeyInfo encodings the strict reader has accepted in this process.
    private static let acceptedKeys = Memo<ExactBytes, Bool>(capacity: 4096, size: { spki, _ in spki.count })

    fileprivate func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
}
