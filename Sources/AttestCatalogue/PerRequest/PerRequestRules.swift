import AttestConformance
import AttestEvidence


/// Per-request device attestation (docs/protocols/per-request-device-attestation.md): App Attest assertions over a
/// four-line client data on iOS, Play Integrity tokens exchanged for a session token on Android, device failures
/// answered 403 and account-token failures 401.
public enum PerRequestRules {
    static let civiq = "docs/protocols/per-request-device-attestation.md"
    static let clientData = "\(civiq) §3.2, §3.4 (client data: challenge, uppercased method, path plus query, SHA-256 of the body)"
    static let playIntegrity = "Play Integrity, Integrity verdicts (https://developer.android.com/google/play/integrity/verdicts)"

    public static let all: [Rule] = [
        Rule(.requestMethod, "The assertion's client data names this request's method, uppercased.", level: .policy, quote: "Binding the method, the path and query, and the body into the signed bytes is what makes a captured assertion useless against another endpoint or with another payload.",
             source: clientData,
             bugClass: .binding),
        Rule(.requestPath, "The assertion's client data names this request's path: an assertion captured for another endpoint is refused.",
             level: .policy, quote: "Binding the method, the path and query, and the body into the signed bytes is what makes a captured assertion useless against another endpoint or with another payload.",
             source: clientData, bugClass: .binding),
        Rule(.requestQuery, "The assertion's client data names this request's query string.", level: .policy, quote: "Binding the method, the path and query, and the body into the signed bytes is what makes a captured assertion useless against another endpoint or with another payload.",
             source: clientData, bugClass: .binding),
        Rule(.requestBody, "The assertion's client data carries SHA-256 of this request's body: an assertion for another payload is refused.",
             level: .policy, quote: "Binding the method, the path and query, and the body into the signed bytes is what makes a captured assertion useless against another endpoint or with another payload.",
             source: clientData, bugClass: .binding),
        Rule(.requestBodyHashEncoding, "The body hash in the client data is lowercase hex, not base64 or base64url of the same digest.",
             level: .policy, quote: "The digest's encoding is lowercase hex: base64 or base64url of the same digest is a different client data.",
             source: "\(civiq) §3.2", bugClass: .parsing),
        Rule(.requestEmptyBody, "A bodyless request's client data carries SHA-256 of the empty string (e3b0c442...), not an empty line.",
             level: .policy, quote: "A request without a body uses the SHA-256 of the empty byte string, e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855, never an empty line.",
             source: "\(civiq) §3.2", bugClass: .parsing),
        Rule(.requestChallengeKnown, "The request's challenge was issued by GET /device/challenge.", level: .policy, quote: "The server accepts a challenge only if: ... it issued it",
             source: "\(civiq) §2.2", bugClass: .replay),
        Rule(.requestChallengeSingleUse, "A challenge serves one request (or one attest) only.", level: .policy, quote: "The server accepts a challenge only if: ... it has not served a request or an attestation before: one challenge, one use",
             source: "\(civiq) §2.2", bugClass: .replay,
             references: ["hyperledger-iroha PR #5568"]),
        Rule(.requestChallengeLifetime, "The challenge is used within its lifetime (parameter challengeLifetime, seconds).",
             level: .policy, quote: "The server accepts a challenge only if: ... it is used within challengeLifetime of its issue",
             source: "\(civiq) §2.2", bugClass: .replay, references: ["go-webauthn PR #561"]),
        Rule(.requestKeyId, "X-Apple-App-Attest-Key-ID names a key attested at POST /device/attest.", level: .policy, quote: "X-Apple-App-Attest-Key-ID names a key attested at POST /device/attest",
             source: "\(civiq) §3.4", bugClass: .binding),
        Rule(.requestHeaders,
             "X-Platform is present and matches the proof headers sent (ios: the four X-Apple-App-Attest headers; android: X-Android-Device-Token).",
             level: .policy, quote: "X-Platform is present and matches the proof headers: ios with all three App Attest headers and no Android token",
             source: "\(civiq) §3.3, §3.4, §4.3", bugClass: .parsing),
        Rule(.requestAccountToken, "The account token is valid; its failure is answered 401, never 403.", level: .policy, quote: "A 403 is reserved for a failed device proof and a 401 for a failed account token.",
             source: "\(civiq) §5", bugClass: .binding),
        Rule(.requestSessionToken, "X-Android-Device-Token is a session token POST /device/attest issued.", level: .policy, quote: "the token is one that POST /device/attest issued",
             source: "\(civiq) §4.3", bugClass: .binding),
        Rule(.requestSessionLifetime, "The Android session token is used within its lifetime (parameter tokenLifetime, about 24 hours).",
             level: .policy, quote: "it is used within tokenLifetime of its issue",
             source: "\(civiq) §4.3", bugClass: .replay),
        Rule(.integrityEncryption, "The integrity token is a JWE (A256KW, A256GCM) under the app's key whose GCM tag verifies.",
             level: .must, quote: "The JSON payload is signed and encrypted as a nested JSON Web Token (JWT), that is JWE of JWS. JWE uses A256KW ... and A256GCM ... JWS uses ES256",
             source: "Play Integrity token format (IntegrityManager reference; verdicts page 'decrypted, verified verdict')", bugClass: .signature),
        Rule(.integritySignature, "The JWS inside verifies (ES256) with Google's verification key.", level: .must, quote: "JWS uses ES256 as a signing algorithm. / Your app's server can use the resulting payload in a decrypted, verified verdict",
             source: "Play Integrity token format", bugClass: .signature),
        Rule(.integrityNonce, "requestDetails.nonce is the unpadded base64url of the challenge the server issued.", level: .must, quote: "You must first check that the values in the requestDetails field match those of the original request before checking each integrity verdict.",
             source: "Play Integrity, Integrity verdicts (Request details field)",
             bugClass: .binding),
        Rule(.integrityPackage, "requestDetails.requestPackageName and appIntegrity.packageName are the app's package.", level: .must, quote: "verify the requestDetails part of the JSON payload by making sure that the requestPackageName and nonce match what was sent in the original request / 'You can also check the app package name, app version, and app certificates manually.'",
             source: "Play Integrity, Integrity verdicts (Request details field; Application integrity field)",
             bugClass: .binding),
        Rule(.integrityCertificateDigest, "appIntegrity.certificateSha256Digest holds the app's signing-certificate digest.",
             level: .policy, quote: "You can also check the app package name, app version, and app certificates manually.",
             source: "Play Integrity, Application integrity field", bugClass: .binding),
        Rule(.integrityAppRecognition, "appIntegrity.appRecognitionVerdict is PLAY_RECOGNIZED (not UNRECOGNIZED_VERSION or UNEVALUATED).",
             level: .policy, quote: "To ensure that the token was generated by an app that was created by you, verify that the application integrity is as expected",
             source: "Play Integrity, Application integrity field", bugClass: .policy),
        Rule(.integrityDeviceIntegrity, "deviceIntegrity.deviceRecognitionVerdict contains MEETS_DEVICE_INTEGRITY.", level: .policy, quote: "To ensure that the token came from a trustworthy device, verify the deviceRecognitionVerdict is as expected",
             source: "Play Integrity, Device integrity field",
             bugClass: .policy),
        Rule(.integrityTimestamp, "requestDetails.timestampMillis is at most tokenFreshness seconds old and not in the future.",
             level: .policy, quote: "// Ensure the freshness of the token. || currentTimestampMillis - timestampMillis > ALLOWED_WINDOW_MILLIS",
             source: "Play Integrity, Request details field (sample code)", bugClass: .replay, references: ["webauthn-ruby #274 (SafetyNet timestamp unchecked)"]),
    ]
}
