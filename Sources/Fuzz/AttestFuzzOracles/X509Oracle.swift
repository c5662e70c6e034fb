import AttestCrypto
import AttestDER
import Foundation

/// fuzz-x509: when both our strict reader and OpenSSL parse a certificate, they extract the same serial number,
/// names, validity, key and extensions.
enum X509Oracle {
    static func check(_ input: [UInt8]) -> String? {
        guard let ours = try? CertificateFields(der: input) else { return nil }
        guard let theirs = try? X509Certificate(der: input) else { return nil }
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
