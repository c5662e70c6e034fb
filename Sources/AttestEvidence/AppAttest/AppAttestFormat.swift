import AttestDER

/// Constants of Apple App Attest (Apple, "Validating apps that connect to your server" and "Attestation Object
/// Validation Guide").
public enum AppAttestFormat {
    /// `fmt` of an attestation object.
    public static let format = "apple-appattest"
    /// Credential certificate extension holding `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
    public static let nonceExtension: DERObjectIdentifier = "1.2.840.113635.100.8.2"
    /// Undocumented credential certificate extensions, reproduced for realism.
    public static let appInfoExtension: DERObjectIdentifier = "1.2.840.113635.100.8.5"
    public static let osVersionExtension: DERObjectIdentifier = "1.2.840.113635.100.8.7"

    /// The App Attest environments and their AAGUIDs (§1.2).
    public enum Environment: String, Hashable, Sendable, CaseIterable {
        case development
        case production

        /// `appattestdevelop`, or `appattest` followed by seven zero bytes.
        public var aaguid: [UInt8] {
            switch self {
            case .development: return Array("appattestdevelop".utf8)
            case .production: return Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
            }
        }
    }
}
