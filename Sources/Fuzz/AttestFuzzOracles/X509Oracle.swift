import AttestCrypto
import AttestDER
import Foundation

/// fuzz-x509: every accessor the verifiers use works on whatever OpenSSL parses as a certificate (a crash there is
/// a remote crash of the reference verifier), and when our strict reader parses it too, both extract the same serial
/// number, names, validity, key and extensions.
enum X509Oracle {
    /// The certificate DER of the known crash: an extension OID with an arc of 2^64, which OpenSSL reads.
    static func check(_ input: [UInt8]) -> String? {
        let theirs = try? X509Certificate(der: input)
        if let theirs { exercise(theirs) }
        let ours = try? CertificateFields(der: input)
        guard let ours, let theirs else { return nil }
        if ours.serialNumber != theirs.serialNumberDER { return "serial numbers differ" }
        if ours.issuer != theirs.issuerDER { return "issuers differ" }
        if ours.subject != theirs.subjectDER { return "subjects differ" }
        if Date(timeIntervalSince1970: TimeInterval(ours.notBefore)) != theirs.notBefore { return "notBefore differs" }
        if Date(timeIntervalSince1970: TimeInterval(ours.notAfter)) != theirs.notAfter { return "notAfter differs" }
        if ours.subjectPublicKeyInfo != theirs.subjectPublicKeyInfo { return "keys differ" }
        if ours.extensions != theirs.extensions { return "extensions differ" }
        return nil
    }
}

extension X509Oracle {
    /// Calls everything the verifiers read from a certificate, so the fuzzer reaches it before any comparison.
    static func exercise(_ certificate: X509Certificate) {
        _ = certificate.subject
        _ = certificate.issuer
        _ = certificate.subjectDER
        _ = certificate.issuerDER
        _ = certificate.serialNumber
        _ = certificate.serialNumberDER
        _ = certificate.notBefore
        _ = certificate.notAfter
        _ = certificate.pem
        for ext in certificate.extensions { _ = ext.oid.description; _ = ext.element }
        for oid: DERObjectIdentifier in ["2.5.29.19", "2.5.29.15", "1.2.840.113635.100.8.2", "1.3.6.1.4.1.11129.2.1.17",
                                         "1.3.6.1.4.1.45724.1.1.4"] {
            _ = certificate.extension(oid)
        }
        _ = certificate.subjectPublicKeyInfo
        if let key = try? certificate.publicKey { _ = certificate.isSigned(by: key) }
        _ = certificate.description
    }
}
