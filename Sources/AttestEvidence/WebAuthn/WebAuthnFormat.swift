import AttestDER

/// Constants of WebAuthn Level 3 attestation (https://www.w3.org/TR/webauthn-3/).
public enum WebAuthnFormat {
    /// `fmt` values (§8): the ones forged and verified here.
    public static let none = "none"
    public static let packed = "packed"
    public static let androidKey = "android-key"
    public static let apple = "apple"
    public static let fidoU2F = "fido-u2f"
    public static let tpm = "tpm"
    public static let androidSafetyNet = "android-safetynet"

    /// `clientDataJSON.type` of a registration (§7.1 step 7) and of an assertion (§7.2 step 10).
    public static let createType = "webauthn.create"
    public static let getType = "webauthn.get"

    /// id-fido-gen-ce-aaguid (§8.2.1): the AAGUID as `OCTET STRING` inside the extension value.
    public static let aaguidExtension: DERObjectIdentifier = "1.3.6.1.4.1.45724.1.1.4"
    /// The Apple anonymous attestation nonce (§8.8), wrapped as App Attest's.
    public static let appleNonceExtension: DERObjectIdentifier = "1.2.840.113635.100.8.2"
    /// `OU` a packed attestation certificate must carry (§8.2.1).
    public static let packedOrganizationalUnit = "Authenticator Attestation"
    /// The host name the certificate that signs a SafetyNet attestation names (§8.5, SafetyNet documentation).
    public static let safetyNetHostname = "attest.android.com"
    /// An Android app's origin (§5.8.1 note; Credential Manager): this prefix, then base64url SHA-256 of the
    /// signing certificate.
    public static let androidOriginPrefix = "android:apk-key-hash:"
    /// Longest credential id a relying party accepts (§7.1 step 25).
    public static let maximumCredentialIdLength = 1023
}
