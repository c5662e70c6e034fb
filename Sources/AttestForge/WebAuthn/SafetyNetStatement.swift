import AttestCBOR
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// `android-safetynet` (§8.5): `{ver, response}` where response is the UTF-8 of a SafetyNet attestation, a compact JWS
/// signed RS256 by an `attest.android.com` certificate (its chain in the header's `x5c`, standard base64) whose
/// payload's `nonce` is the base64 of SHA-256(authenticatorData || clientDataHash). Google retired the SafetyNet
/// Attestation API in 2024 and authenticators no longer emit this format, but relying parties still accept
/// registrations made with it, so the forge writes it (under a TEST root, never Google's).
public struct SafetyNetStatement: Sendable {
    /// The CA that issues the `attest.android.com` certificate (sent after it in x5c).
    public var issuer: CertificateAuthority
    /// An RSA key: the JWS is RS256.
    public var signingKey: PrivateKey
    public var hostname = WebAuthnFormat.safetyNetHostname
    public var validity: (Date, Date)
    /// `ver`: the Google Play services version that produced the response.
    public var version = "243632036"
    /// When the response was produced (`timestampMs`).
    public var timestamp: Date
    public var ctsProfileMatch = true
    public var basicIntegrity = true
    /// `nonce` over these bytes instead of `authenticatorData || clientDataHash`.
    public var nonceMessage: [UInt8]?
    /// The header's x5c is empty.
    public var emptyChain = false
    /// Sign with this key instead of `signingKey` (the header still names the certificate of `signingKey`).
    public var signer: PrivateKey?
    /// `response` is these bytes instead of the JWS.
    public var responseOverride: [UInt8]?

    public init(issuer: CertificateAuthority, signingKey: PrivateKey, validity: (Date, Date), timestamp: Date) {
        self.issuer = issuer
        self.signingKey = signingKey
        self.validity = validity
        self.timestamp = timestamp
    }

    func render(_ input: AttestationStatementBlueprint.Input) throws -> [CBORMapEntry] {
        if let responseOverride { return [CBORMapEntry("ver", .text(version)), CBORMapEntry("response", .bytes(responseOverride))] }
        let leaf = try CertificateAuthority.issue(
            serial: Array(sha256(signingKey.publicKey.spki).prefix(16)),
            subject: X509Name([.country("US"), .stateOrProvince("California"), .locality("Mountain View"),
                               .organization("attest-harness TEST"), .commonName(hostname)]),
            key: signingKey.publicKey, issuer: try issuer.name, signer: issuer.key, validity: validity,
            // Google's attest.android.com certificates name the host in the SAN too (a verifier may read it only
            // there, as RFC 6125 §6.4.4 prefers).
            extensions: [.basicConstraints(ca: false), .keyUsage([.digitalSignature]), .subjectAltName(dnsNames: [hostname]),
                         .authorityKeyIdentifier(CertificateAuthority.keyIdentifier(issuer.key))])
        let chain = emptyChain ? [] : [leaf, issuer.certificate].map { Data($0.der).base64EncodedString() }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "RS256", "x5c": chain], options: [.sortedKeys, .withoutEscapingSlashes])
        let nonce = Data(sha256(nonceMessage ?? input.authenticatorData + input.clientDataHash)).base64EncodedString()
        let payload: [String: Any] = [
            "nonce": nonce, "timestampMs": Int64((timestamp.timeIntervalSince1970 * 1000).rounded()),
            "apkPackageName": "com.google.android.gms",
            "apkDigestSha256": Data(sha256(Array("attest-harness TEST gms apk".utf8))).base64EncodedString(),
            "apkCertificateDigestSha256": [Data(sha256(Array("attest-harness TEST gms certificate".utf8))).base64EncodedString()],
            "ctsProfileMatch": ctsProfileMatch, "basicIntegrity": basicIntegrity, "evaluationType": "BASIC,HARDWARE_BACKED",
        ]
        let jws = try JOSE.signRS256(Array(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])),
                                     key: signer ?? signingKey, header: String(decoding: header, as: UTF8.self))
        return [CBORMapEntry("ver", .text(version)), CBORMapEntry("response", .bytes(Array(jws.utf8)))]
    }
}
