import AttestConformance
import AttestEvidence


/// Apple App Attest: the server checks of an attestation (Apple's steps 1-9) and of an assertion (steps 1-6),
/// numbered as in "Validating apps that connect to your server"
/// (https://developer.apple.com/documentation/devicecheck/validating-apps-that-connect-to-your-server).
public enum AppAttestRules {
    static let attestationSteps = "Apple, Validating apps that connect to your server, attestation step"
    static let assertionSteps = "Apple, Validating apps that connect to your server, assertion step"

    public static let all: [Rule] = [
        Rule(.appAttestStructure,
             "Attestation and assertion objects are maps of exactly their defined text keys (fmt, attStmt{x5c, receipt}, authData; signature, authenticatorData).",
             level: .policy, quote: "(none - Apple's attestation steps 1-9 and assertion steps 1-6 never require the object to hold exactly its keys)",
             source: "Apple, Validating apps that connect to your server (no step); WebAuthn L3 §6.5.4 does not bind App Attest", bugClass: .parsing),
        Rule(.appAttestFormat, "fmt is \"apple-appattest\".", level: .policy, quote: "(none binds as a step - 'To verify and decode the attestation object, check that it has the CBOR data format with the expected syntax', whose syntax fixes fmt \"apple-appattest\", but no numbered step checks fmt)",
             source: "Apple, Validating apps that connect to your server, 'Verify the attestation' (the syntax before step 1; no step checks fmt)", bugClass: .parsing),
        Rule(.appAttestCertificateList,
             "x5c lists the credential certificate first (not a CA).",
             level: .must, quote: "Verify that the x5c array contains the intermediate and leaf certificates for App Attest, starting from the credential certificate in the first data buffer in the array (credcert).",
             source: "Apple attestation step 1", bugClass: .trust),
        Rule(.appAttestExtraCertificates, "x5c holds nothing but the credential certificate and the intermediate.",
             level: .policy, quote: "(none - step 1 names the credential certificate and the intermediate, and Apple's syntax, x5c: [ credCert: bytes, * (caCert: bytes) ], allows more CA certificates; refusing them is the profile's strictness)",
             source: "Apple, Validating apps that connect to your server, attestation step 1 and the attestation object's syntax", bugClass: .trust),
        Rule(.appAttestNonce,
             "The credential certificate's nonce equals SHA-256(authData || SHA-256(challenge)).",
             level: .must, quote: "Create clientDataHash as the SHA256 hash of the one-time challenge your server sends to your app ... Generate a new SHA256 hash of the composite item to create nonce. ... Verify that the string equals nonce.",
             source: "Apple attestation steps 2-4", bugClass: .binding,
             references: ["thunder-id PR #4055", "hyperledger-iroha PR #5568",
                          "devicecheck-appattest issue #40 (raw challenge appended)"]),
        Rule(.appAttestNonceEncoding,
             "The nonce extension appears once, as SEQUENCE { [1] EXPLICIT OCTET STRING }.",
             level: .policy, quote: "Obtain the value of the credCert extension with OID 1.2.840.113635.100.8.2, which is a DER-encoded ASN.1 sequence. Decode the sequence and extract the single octet string that it contains.",
             source: "Apple attestation step 4 (partly); RFC 5280 §4.2 (issuer-side)", bugClass: .parsing),
        Rule(.appAttestKeyId, "SHA-256 of the credential certificate's uncompressed public key equals the key id.",
             level: .must, quote: "Create the SHA256 hash of the public key in credCert, and verify that it matches the key identifier from your app.",
             source: "Apple attestation step 5", bugClass: .binding, references: ["pyattest verify_key_id"]),
        Rule(.appAttestRpIdHash, "authData.rpIdHash is SHA-256 of the App ID (team id, dot, bundle id).",
             level: .must, quote: "Compute the SHA256 hash of your app's App ID, and verify that it's the same as the authenticator data's RP ID hash.",
             source: "Apple attestation step 6", bugClass: .binding),
        Rule(.appAttestCounter, "The attestation's counter is 0.", level: .must, quote: "Verify that the authenticator data's counter field equals 0.",
             source: "Apple attestation step 7", bugClass: .replay),
        Rule(.appAttestAAGUID, "The AAGUID matches the configured environment (appattestdevelop or appattest + 7 zeros).",
             level: .must, quote: "Verify that the authenticator data's aaguid field is either appattestdevelop if operating in the development environment, or appattest followed by seven 0x00 bytes if operating in the production environment.",
             source: "Apple attestation step 8", bugClass: .policy),
        Rule(.appAttestCredentialId, "authData.credentialId equals the key id.", level: .must, quote: "Verify that the authenticator data's credentialId field is the same as the key identifier.",
             source: "Apple attestation step 9",
             bugClass: .binding, references: ["pyattest verify_credential_id"]),
        Rule(.appAttestCOSEKey, "The COSE key in authData is the credential certificate's key.",
             level: .policy, quote: "(none - Apple binds the key through steps 5 and 9: hash(credCert key) == keyId == credentialId)",
             source: "none in Apple's steps (WebAuthn L3 §6.5.1 does not bind App Attest)", bugClass: .binding),
        Rule(.appAttestAssertionSignature,
             "The assertion signature is ES256 over SHA-256(authenticatorData || SHA-256(clientData)) by the attested key.",
             level: .must, quote: "Compute clientDataHash as the SHA256 hash of clientData. Concatenate authenticatorData and clientDataHash, and apply a SHA256 hash over the result to form nonce. Use the public key that you store from the attestation object to verify that …",
             source: "Apple assertion steps 1-3", bugClass: .signature),
        Rule(.appAttestAssertionRpIdHash, "The assertion's rpIdHash is SHA-256 of the App ID.",
             level: .must, quote: "Compute the SHA256 hash of the client's App ID, and verify that it matches the RP ID in the authenticator data.",
             source: "Apple assertion step 4", bugClass: .binding),
        Rule(.appAttestAssertionCounter, "The assertion counter is greater than the stored counter.",
             level: .must, quote: "Verify that the authenticator data's counter value is greater than the value from the previous assertion, or greater than 0 on the first assertion.",
             source: "Apple assertion step 5", bugClass: .replay,
             references: ["devicecheck-appattest AssertionValidator", "duo-labs/webauthn #64"]),
        Rule(.appAttestAssertionChallenge, "The client data carries the challenge the server issued for this assertion.",
             level: .must, quote: "Verify that the embedded challenge in the client data matches the earlier challenge to the client.",
             source: "Apple assertion step 6", bugClass: .replay),
    ]
}
