import AttestCrypto
import Foundation

/// Vocabulary of the FIDO Metadata Service (MDS3) BLOB that forge and verifier share.
public enum FIDOMetadata {
    /// The AuthenticatorStatus values whose description says relying parties SHOULD reject the model (FIDO
    /// Metadata Service v3.0 §3.1.4): REVOKED, and ATTESTATION_KEY_COMPROMISE without a `certificate` naming the
    /// compromised key.
    public static let revokingStatuses: Set<String> = ["REVOKED", "ATTESTATION_KEY_COMPROMISE"]
    /// The statuses that report a compromise without a keyword for the relying party (user verification bypassed,
    /// user keys extractable remotely or physically); the FIDO server conformance tool refuses them too.
    public static let compromisedStatuses: Set<String> = ["USER_VERIFICATION_BYPASS", "USER_KEY_REMOTE_COMPROMISE",
                                                          "USER_KEY_PHYSICAL_COMPROMISE"]

    /// An AAGUID as MDS writes it: lower-case hex in 8-4-4-4-12 groups.
    public static func uuid(_ aaguid: [UInt8]) -> String {
        let text = hex(aaguid)
        guard text.count == 32 else { return text }
        var groups: [Substring] = []
        var index = text.startIndex
        for length in [8, 4, 4, 4, 12] {
            let end = text.index(index, offsetBy: length)
            groups.append(text[index..<end])
            index = end
        }
        return groups.joined(separator: "-")
    }

    /// A date as MDS writes `nextUpdate` and `effectiveDate`: `yyyy-MM-dd`, UTC.
    public static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
