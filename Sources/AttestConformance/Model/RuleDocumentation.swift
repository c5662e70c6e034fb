/// Where a rule's clause can be read: the public document its `source` names first, as an https URL (SARIF's
/// `helpUri`, which code scanning shows as the rule's "learn more" link). Sources in this repository's own protocol
/// documents have no public URL of their own and get none.
package enum RuleDocumentation {
    /// Source prefixes and the document each names, most specific first.
    static let documents: [(prefix: String, url: String)] = [
        ("WebAuthn L3 §7.1", "https://www.w3.org/TR/webauthn-3/#sctn-registering-a-new-credential"),
        ("WebAuthn L3 §7.2", "https://www.w3.org/TR/webauthn-3/#sctn-verifying-assertion"),
        ("WebAuthn L3 §8.2", "https://www.w3.org/TR/webauthn-3/#sctn-packed-attestation"),
        ("WebAuthn L3 §8.3", "https://www.w3.org/TR/webauthn-3/#sctn-tpm-attestation"),
        ("WebAuthn L3 §8.4", "https://www.w3.org/TR/webauthn-3/#sctn-android-key-attestation"),
        ("WebAuthn L3 §8.5", "https://www.w3.org/TR/webauthn-3/#sctn-android-safetynet-attestation"),
        ("WebAuthn L3 §8.6", "https://www.w3.org/TR/webauthn-3/#sctn-fido-u2f-attestation"),
        ("WebAuthn L3 §8.7", "https://www.w3.org/TR/webauthn-3/#sctn-none-attestation"),
        ("WebAuthn L3 §8.8", "https://www.w3.org/TR/webauthn-3/#sctn-apple-anonymous-attestation"),
        ("WebAuthn L3", "https://www.w3.org/TR/webauthn-3/"),
        ("Apple", "https://developer.apple.com/documentation/devicecheck/validating-apps-that-connect-to-your-server"),
        ("Google, Certificate revocation", "https://developer.android.com/privacy-and-security/security-key-attestation#certificate_status"),
        ("Google", "https://developer.android.com/privacy-and-security/security-key-attestation"),
        ("Android,", "https://developer.android.com/privacy-and-security/security-key-attestation"),
        ("AOSP", "https://source.android.com/docs/security/features/keystore/attestation"),
        ("android/keyattestation", "https://github.com/android/keyattestation"),
        ("Play Integrity", "https://developer.android.com/google/play/integrity/verdicts"),
        ("SafetyNet", "https://developer.android.com/privacy-and-security/safetynet/attestation"),
        ("FIDO Metadata Service", "https://fidoalliance.org/specs/mds/fido-metadata-service-v3.0-ps-20210518.html"),
        ("RFC 5280", "https://www.rfc-editor.org/rfc/rfc5280"),
        ("RFC 8949", "https://www.rfc-editor.org/rfc/rfc8949"),
        ("ITU-T X.690", "https://www.itu.int/rec/T-REC-X.690"),
    ]

    /// The URL of the document `source` cites first, or nil (a document of this repository, or none).
    package static func url(forSource source: String) -> String? {
        documents.first { source.hasPrefix($0.prefix) }?.url
    }
}
