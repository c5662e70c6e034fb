import AttestConformance
import AttestEvidence


/// Per-request device attestation (seeds/001): App Attest assertions over a four-line client data on iOS, Play
/// Integrity tokens exchanged for a session token on Android, device failures answered 403 and account-token
/// failures 401.
public enum PerRequestRules {
    static let civiq = "seeds/001 (device attestation)"
    static let clientData = "\(civiq): client data = challenge, uppercased method, path plus query, SHA-256 of the body; protocols.md §4"
    static let playIntegrity = "protocols.md §5 (Play Integrity server checks)"

    public static let all: [Rule] = [
        Rule(.requestMethod, "The assertion's client data names this request's method, uppercased.", source: clientData,
             bugClass: .binding),
        Rule(.requestPath, "The assertion's client data names this request's path: an assertion captured for another endpoint is refused.",
             source: clientData, bugClass: .binding),
        Rule(.requestQuery, "The assertion's client data names this request's query string.", source: clientData, bugClass: .binding),
        Rule(.requestBody, "The assertion's client data carries SHA-256 of this request's body: an assertion for another payload is refused.",
             source: clientData, bugClass: .binding),
        Rule(.requestBodyHashEncoding, "The body hash in the client data is lowercase hex, not base64 or base64url of the same digest.",
             source: clientData, bugClass: .parsing),
        Rule(.requestEmptyBody, "A bodyless request's client data carries SHA-256 of the empty string (e3b0c442...), not an empty line.",
             source: clientData, bugClass: .parsing),
        Rule(.requestChallengeKnown, "The request's challenge was issued by GET /device/challenge.", source: civiq, bugClass: .replay),
        Rule(.requestChallengeSingleUse, "A challenge serves one request (or one attest) only.", source: civiq, bugClass: .replay,
             references: ["hyperledger-iroha PR #5568"]),
        Rule(.requestChallengeLifetime, "The challenge is used within its lifetime (parameter challengeLifetime, seconds).",
             source: civiq, bugClass: .replay, references: ["go-webauthn PR #561"]),
        Rule(.requestKeyId, "X-Apple-App-Attest-Key-ID names a key attested at POST /device/attest.", source: civiq, bugClass: .binding),
        Rule(.requestHeaders,
             "X-Platform is present and matches the proof headers sent (ios: the four X-Apple-App-Attest headers; android: X-Android-Device-Token).",
             source: civiq, bugClass: .parsing),
        Rule(.requestAccountToken, "The account token is valid; its failure is answered 401, never 403.", source: civiq, bugClass: .binding),
        Rule(.requestSessionToken, "X-Android-Device-Token is a session token POST /device/attest issued.", source: civiq, bugClass: .binding),
        Rule(.requestSessionLifetime, "The Android session token is used within its lifetime (parameter tokenLifetime, about 24 hours).",
             source: civiq, bugClass: .replay),
        Rule(.integrityEncryption, "The integrity token is a JWE (A256KW, A256GCM) under the app's key whose GCM tag verifies.",
             source: playIntegrity, bugClass: .signature),
        Rule(.integritySignature, "The JWS inside verifies (ES256) with Google's verification key.", source: playIntegrity, bugClass: .signature),
        Rule(.integrityNonce, "requestDetails.nonce is the unpadded base64url of the challenge the server issued.", source: playIntegrity,
             bugClass: .binding),
        Rule(.integrityPackage, "requestDetails.requestPackageName and appIntegrity.packageName are the app's package.", source: playIntegrity,
             bugClass: .binding),
        Rule(.integrityCertificateDigest, "appIntegrity.certificateSha256Digest holds the app's signing-certificate digest.",
             source: playIntegrity, bugClass: .binding),
        Rule(.integrityAppRecognition, "appIntegrity.appRecognitionVerdict is PLAY_RECOGNIZED (not UNRECOGNIZED_VERSION or UNEVALUATED).",
             source: playIntegrity, bugClass: .policy),
        Rule(.integrityDeviceIntegrity, "deviceIntegrity.deviceRecognitionVerdict contains MEETS_DEVICE_INTEGRITY.", source: playIntegrity,
             bugClass: .policy),
        Rule(.integrityTimestamp, "requestDetails.timestampMillis is at most tokenFreshness seconds old and not in the future.",
             source: playIntegrity, bugClass: .replay, references: ["webauthn-ruby #274 (SafetyNet timestamp unchecked)"]),
    ]
}
