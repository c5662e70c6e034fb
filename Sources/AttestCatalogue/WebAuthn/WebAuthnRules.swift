import AttestConformance

extension RuleID {
    public static let webAuthnStructure: RuleID = "webauthn.structure"
    public static let webAuthnType: RuleID = "webauthn.clientData.type"
    public static let webAuthnChallenge: RuleID = "webauthn.clientData.challenge"
    public static let webAuthnOrigin: RuleID = "webauthn.clientData.origin"
    public static let webAuthnCrossOrigin: RuleID = "webauthn.clientData.crossOrigin"
    public static let webAuthnTopOrigin: RuleID = "webauthn.clientData.topOrigin"
    public static let webAuthnRpIdHash: RuleID = "webauthn.rpIdHash"
    public static let webAuthnUserPresent: RuleID = "webauthn.flags.userPresent"
    public static let webAuthnUserVerified: RuleID = "webauthn.flags.userVerified"
    public static let webAuthnBackupState: RuleID = "webauthn.flags.backupState"
    public static let webAuthnAuthenticatorData: RuleID = "webauthn.authenticatorData"
    public static let webAuthnAlgorithm: RuleID = "webauthn.algorithm"
    public static let webAuthnFormat: RuleID = "webauthn.fmt"
    public static let webAuthnAttestationRequired: RuleID = "webauthn.attestation.required"
    public static let webAuthnSelfAttestation: RuleID = "webauthn.attestation.self"
    public static let webAuthnAttestationSignature: RuleID = "webauthn.attestation.signature"
    public static let webAuthnPackedCertificate: RuleID = "webauthn.packed.certificate"
    public static let webAuthnPackedAAGUID: RuleID = "webauthn.packed.aaguid"
    public static let webAuthnAndroidKeyChallenge: RuleID = "webauthn.androidKey.challenge"
    public static let webAuthnAndroidKeyPublicKey: RuleID = "webauthn.androidKey.publicKey"
    public static let webAuthnAppleNonce: RuleID = "webauthn.apple.nonce"
    public static let webAuthnApplePublicKey: RuleID = "webauthn.apple.publicKey"
    public static let webAuthnCredentialIdLength: RuleID = "webauthn.credentialId.length"
    public static let webAuthnCredentialIdUnique: RuleID = "webauthn.credentialId.unique"
    public static let webAuthnCredential: RuleID = "webauthn.assertion.credential"
    public static let webAuthnOwner: RuleID = "webauthn.assertion.owner"
    public static let webAuthnUserHandle: RuleID = "webauthn.assertion.userHandle"
    public static let webAuthnAssertionSignature: RuleID = "webauthn.assertion.signature"
    public static let webAuthnSignCount: RuleID = "webauthn.signCount"
}

/// WebAuthn Level 3: the registration (§7.1) and authentication (§7.2) procedures step by step, and the
/// verification procedures of the formats forged here (§8.2, §8.4, §8.7, §8.8). Step numbers are protocols.md
/// §3.5-3.6's; anchors are the spec's.
public enum WebAuthnRules {
    static let registration = "WebAuthn L3 §7.1 (#sctn-registering-a-new-credential) step"
    static let authentication = "WebAuthn L3 §7.2 (#sctn-verifying-assertion) step"

    public static let all: [Rule] = [
        Rule(.webAuthnStructure,
             "clientDataJSON is a UTF-8 JSON object with string type, challenge and origin; the attestation object is a map of exactly fmt (text), attStmt (map) and authData (bytes).",
             source: "\(registration) 5-6, 13; §6.5.4 (attestation object CDDL)", bugClass: .parsing),
        Rule(.webAuthnType, "clientDataJSON.type is \"webauthn.create\" in a registration and \"webauthn.get\" in an assertion.",
             source: "\(registration) 7; \(authentication) 10", bugClass: .binding),
        Rule(.webAuthnChallenge,
             "clientDataJSON.challenge is exactly the unpadded base64url of the challenge the relying party issued for this ceremony.",
             source: "\(registration) 8; \(authentication) 11", bugClass: .replay,
             references: ["go-webauthn PRs #561, #657 (short challenges accepted)"]),
        Rule(.webAuthnOrigin, "clientDataJSON.origin is one of the relying party's origins (https web origins, allow-listed android:apk-key-hash origins).",
             source: "\(registration) 9 (#rp-op-registering-a-new-credential-step-origin); \(authentication) 12", bugClass: .binding),
        Rule(.webAuthnCrossOrigin, "crossOrigin is true only when the relying party expects to be embedded cross-origin.",
             source: "\(registration) 10; \(authentication) 13", bugClass: .binding),
        Rule(.webAuthnTopOrigin, "topOrigin, when present, is a parent origin the relying party expects to be embedded in.",
             source: "\(registration) 11; \(authentication) 14", bugClass: .binding),
        Rule(.webAuthnRpIdHash, "authenticatorData.rpIdHash is SHA-256 of the relying party id.",
             source: "\(registration) 14; \(authentication) 15", bugClass: .binding),
        Rule(.webAuthnUserPresent, "The UP flag is set.", source: "\(registration) 15; \(authentication) 16", bugClass: .policy),
        Rule(.webAuthnUserVerified, "The UV flag is set when the relying party requires user verification.",
             source: "\(registration) 16; \(authentication) 17", bugClass: .policy,
             references: ["hwsecurity.dev, PIN Bypass in Passwordless WebAuthn (2020): a Microsoft login service and Nextcloud"]),
        Rule(.webAuthnBackupState, "BS is clear when BE is clear.", source: "\(registration) 17; \(authentication) 18",
             bugClass: .policy),
        Rule(.webAuthnAuthenticatorData,
             "authenticatorData holds exactly what its flags announce: attested credential data only in registrations, nothing after the last structure.",
             source: "WebAuthn L3 §6.1, §6.5.1; protocols.md §3.1", bugClass: .parsing,
             references: ["go-webauthn PR #191 (trailing credential data skipped)", "go-webauthn PR #762"]),
        Rule(.webAuthnAlgorithm,
             "The credential key's COSE alg is one the relying party offered in pubKeyCredParams, and fits the key's type and curve.",
             source: "\(registration) 20; RFC 9053 §2.1", bugClass: .policy,
             references: ["go-webauthn PR #744 (key curve not bound to alg)"]),
        Rule(.webAuthnFormat, "fmt is a supported attestation statement format (case-sensitive); an unknown one is refused, not skipped.",
             source: "\(registration) 21", bugClass: .trust, references: ["keycloak#43723"]),
        Rule(.webAuthnAttestationRequired, "When the relying party requires attestation, a `none` statement is refused.",
             source: "\(registration) 24 (#reg-ceremony-assess-trust)", bugClass: .trust,
             references: ["keycloak#43723", "keycloak#9511", "eclipse-vertx/vertx-auth#696, #697", "cedarcode/webauthn-ruby#337"]),
        Rule(.webAuthnSelfAttestation, "When the relying party requires an attestation certificate chain, self attestation is refused.",
             source: "\(registration) 24; §8.2 (self attestation)", bugClass: .trust,
             references: ["CVE-2026-6856 (keycloak#48388)", "CVE-2025-12150"]),
        Rule(.webAuthnAttestationSignature,
             "The attestation signature verifies over authenticatorData || clientDataHash with the attestation key (packed, android-key, fido-u2f).",
             source: "\(registration) 22 (#reg-ceremony-verify-attestation); §8.2 step 2, §8.4 step 2", bugClass: .signature,
             references: ["SandeepVashishtha/Eventra#17865 (unsigned registration stored)", "CVE-2026-8830",
                          "go-webauthn PR #760 (unknown hash fails open)"]),
        Rule(.webAuthnPackedCertificate,
             "A packed attestation certificate is X.509 v3 with C, O, OU \"Authenticator Attestation\" and CN, and basic constraints cA FALSE.",
             source: "WebAuthn L3 §8.2.1", bugClass: .trust),
        Rule(.webAuthnPackedAAGUID, "id-fido-gen-ce-aaguid in a packed attestation certificate, when present, equals the AAGUID in authenticatorData.",
             source: "WebAuthn L3 §8.2.1", bugClass: .trust),
        Rule(.webAuthnAndroidKeyChallenge, "The android-key KeyDescription's attestationChallenge is the clientDataHash.",
             source: "WebAuthn L3 §8.4 step 4", bugClass: .binding, references: ["webauthn-open-source/fido2-lib#48"]),
        Rule(.webAuthnAndroidKeyPublicKey, "The android-key credential certificate's key is the credential public key.",
             source: "WebAuthn L3 §8.4 step 3", bugClass: .binding),
        Rule(.webAuthnAppleNonce, "The apple credential certificate's nonce extension is SHA-256(authenticatorData || clientDataHash).",
             source: "WebAuthn L3 §8.8 steps 2-4", bugClass: .binding, references: ["thunder-id PR #4055"]),
        Rule(.webAuthnApplePublicKey, "The apple credential certificate's key is the credential public key.",
             source: "WebAuthn L3 §8.8 step 5", bugClass: .binding),
        Rule(.webAuthnCredentialIdLength, "credentialId is at most 1023 bytes.", source: "\(registration) 25", bugClass: .parsing),
        Rule(.webAuthnCredentialIdUnique, "credentialId is not already registered (for any user).",
             source: "\(registration) 26", bugClass: .binding),
        Rule(.webAuthnCredential, "The assertion's credential id (rawId) names a registered credential, and that credential's key verifies it.",
             source: "\(authentication) 5-6", bugClass: .binding),
        Rule(.webAuthnOwner, "The credential belongs to the user the ceremony is for.", source: "\(authentication) 6",
             bugClass: .binding, references: ["YSA-2026-02 (java-webauthn-server before 2.8.2 and 2.9.0-alpha1)"]),
        Rule(.webAuthnUserHandle, "A userHandle, when present, is the user handle of the credential's owner.",
             source: "\(authentication) 6", bugClass: .binding),
        Rule(.webAuthnAssertionSignature,
             "The assertion signature is a DER signature that verifies over authenticatorData || SHA-256(clientDataJSON) with the stored credential key.",
             source: "\(authentication) 21; §6.5.5 (signature encodings)", bugClass: .signature,
             references: ["go-webauthn PR #752 (non-canonical DER signatures)"]),
        Rule(.webAuthnSignCount,
             "Once either the stored or the new signature counter is non-zero, the new counter is greater than the stored one (0 then 0 is fine).",
             source: "\(authentication) 22", bugClass: .replay,
             references: ["duo-labs/webauthn#64 (5 then 0 never flagged)", "josuebrunel/ezauth#169 (counter overwritten, never compared)"]),
    ]
}
