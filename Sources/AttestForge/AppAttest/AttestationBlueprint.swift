import AttestCBOR
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// Everything that goes into an App Attest attestation, as fields a mutation can change before `render()`
/// computes what depends on them (Apple, attestation steps 1-9): authenticator data, then the nonce
/// `SHA-256(authData || clientDataHash)`, then the credential certificate carrying it, then the CBOR object.
public struct AttestationBlueprint: Sendable {
    /// How the x5c array is laid out.
    public enum CertificateList: Hashable, Sendable {
        /// `[credCert, intermediate]`, as Apple sends it.
        case standard
        /// `[intermediate, credCert]`.
        case swapped
        /// `[credCert]`.
        case credentialCertificateOnly
        /// `[credCert, intermediate, extra]`.
        case appending(X509Certificate)
    }

    public var appId: String
    public var credentialKey: PrivateKey
    /// The one-time challenge the server sent.
    public var challenge: [UInt8]
    /// The time the attestation is made; the credential certificate is valid from a day before to two days after.
    public var time: Date

    // Authenticator data (§1.2).
    public var rpIdHash: [UInt8]
    public var flags: UInt8 = 0x40
    public var signCount: UInt32 = 0
    public var aaguid: [UInt8]
    public var credentialId: [UInt8]
    /// COSE_Key bytes of the attested key.
    public var credentialPublicKey: [UInt8]

    /// The key identifier the app reports with the attestation: `SHA-256(X9.63 point)`.
    public var keyId: [UInt8]

    // Nonce (§1.4).
    /// What is appended to authData before hashing; Apple's rule is `SHA-256(challenge)`.
    public var clientDataHash: [UInt8]
    /// Embed this instead of the nonce computed from authData.
    public var nonceOverride: [UInt8]?
    /// The extension value around the nonce; Apple's is `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
    public var nonceEnvelope: @Sendable ([UInt8]) -> DERElement = AttestationBlueprint.appleNonceEnvelope
    /// How many nonce extensions the credential certificate carries.
    public var nonceExtensionCount = 1
    /// Extensions appended to the credential certificate after Apple's (hostile-input tests: odd OIDs, sizes).
    public var extraCredentialExtensions: [CertificateExtension] = []

    // Certificates (§1.3).
    public var credentialCertificateNotBefore: Date
    public var credentialCertificateNotAfter: Date
    public var credentialCertificateSigner: PrivateKey
    public var intermediate: X509Certificate
    public var certificateList: CertificateList = .standard

    // The object (§1.1).
    public var format = AppAttestFormat.format
    public var receipt: [UInt8] = Array("attest-harness TEST receipt: opaque, not signed by Apple".utf8)
    public var encoding: CBORMalformation?

    /// A valid attestation for `appId` in `environment`, chained to `pki`.
    public init(appId: String, environment: AppAttestFormat.Environment, credentialKey: PrivateKey, challenge: [UInt8],
                time: Date, pki: AppAttestPKI) throws {
        self.appId = appId
        self.credentialKey = credentialKey
        self.challenge = challenge
        self.time = time
        let point = try credentialKey.publicKey.x963Point
        rpIdHash = sha256(Array(appId.utf8))
        aaguid = environment.aaguid
        keyId = sha256(point)
        credentialId = keyId
        credentialPublicKey = CBORWriter.encode(try credentialKey.publicKey.coseKey)
        clientDataHash = sha256(challenge)
        credentialCertificateNotBefore = time - 86_400
        credentialCertificateNotAfter = time + 2 * 86_400
        credentialCertificateSigner = pki.intermediateKey
        intermediate = pki.intermediate
    }

    @Sendable public static func appleNonceEnvelope(_ nonce: [UInt8]) -> DERElement {
        .sequence([.explicit(1, .octetString(nonce))])
    }

    public var authenticatorData: AuthenticatorData {
        AuthenticatorData(
            rpIdHash: rpIdHash, flags: .init(rawValue: flags), signCount: signCount,
            attestedCredentialData: .init(aaguid: aaguid, credentialId: credentialId, credentialPublicKey: credentialPublicKey))
    }

    /// The forged attestation: the CBOR object plus what the app sends beside it.
    public struct Output: Sendable {
        public let attestationObject: [UInt8]
        public let keyId: [UInt8]
        public let challenge: [UInt8]
        public let credentialCertificate: X509Certificate
    }

    public func render() throws -> Output {
        let authData = authenticatorData.bytes
        let nonce = nonceOverride ?? sha256(authData + clientDataHash)
        let leaf = try credentialCertificate(nonce: nonce)
        let x5c: [X509Certificate]
        switch certificateList {
        case .standard: x5c = [leaf, intermediate]
        case .swapped: x5c = [intermediate, leaf]
        case .credentialCertificateOnly: x5c = [leaf]
        case .appending(let extra): x5c = [leaf, intermediate, extra]
        }
        let object: [CBORMapEntry] = [
            CBORMapEntry("fmt", .text(format)),
            CBORMapEntry("attStmt", .map([
                CBORMapEntry("x5c", .array(x5c.map { .bytes($0.der) })), CBORMapEntry("receipt", .bytes(receipt)),
            ])),
            CBORMapEntry("authData", .bytes(authData)),
        ]
        let bytes = encoding?.encode(object) ?? CBORWriter.encode(.map(object))
        return Output(attestationObject: bytes, keyId: keyId, challenge: challenge, credentialCertificate: leaf)
    }

    /// The credential certificate as Apple issues it (§1.3): CN = hex key id, 6-byte millisecond serial,
    /// ecdsa-with-SHA256 from the P-384 intermediate, extensions in Apple's order.
    func credentialCertificate(nonce: [UInt8]) throws -> X509Certificate {
        let nonceExtension = CertificateExtension(oid: AppAttestFormat.nonceExtension, value: nonceEnvelope(nonce).serialized)
        let issuedMilliseconds = UInt64(time.timeIntervalSince1970 * 1000)
        let serial = withUnsafeBytes(of: issuedMilliseconds.bigEndian, Array.init).drop { $0 == 0 }
        return try CertificateTemplate(
            serialNumber: Array(serial), signatureAlgorithm: .ecdsaWithSHA256,
            issuer: AppAttestPKI.intermediateName,
            subject: X509Name([
                .commonName(hex(keyId)), .organizationalUnit("AAA Certification"), .organization("attest-harness TEST"),
                .stateOrProvince("California"),
            ]),
            notBefore: credentialCertificateNotBefore, notAfter: credentialCertificateNotAfter,
            subjectPublicKeyInfo: credentialKey.publicKey.spki,
            extensions: [
                .basicConstraints(ca: false),
                .keyUsage([.digitalSignature, .nonRepudiation, .keyEncipherment, .dataEncipherment]),
                CertificateExtension(oid: AppAttestFormat.appInfoExtension, value: appInfo),
                CertificateExtension(oid: AppAttestFormat.osVersionExtension,
                                     value: DERElement.sequence([.explicit(1400, .octetString(Array("17.0".utf8)))]).serialized),
            ] + Array(repeating: nonceExtension, count: nonceExtensionCount) + extraCredentialExtensions
        ).signed(by: credentialCertificateSigner)
    }

    /// 1.2.840.113635.100.8.5 with the tags and types of real credential certificates (values undocumented).
    private var appInfo: [UInt8] {
        func integer(_ tag: UInt64, _ value: Int64) -> DERElement { .explicit(tag, .integer(value)) }
        return DERElement.sequence([
            integer(4, 10), integer(1200, 1), integer(1201, 0), integer(1202, 0), integer(1203, 1),
            .explicit(1204, .octetString(Array(appId.utf8))), .explicit(5, .octetString(Array(" sks".utf8))),
            integer(1206, 5), integer(1207, 0), integer(1209, 0), integer(1210, 0),
        ]).serialized
    }
}
