import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// An Android key attestation certificate chain (developer.android.com/privacy-and-security/security-key-attestation),
/// leaf first, root last, as fields a mutation can change before `render()`.
public struct AndroidAttestationBlueprint: Sendable {
    /// Where the attestation key comes from.
    public enum Shape: Hashable, Sendable, CaseIterable {
        /// Keybox in the factory: leaf, batch, intermediate, RSA root (4 certificates).
        case factory
        /// Remotely provisioned: leaf, attestation key, CA3, CA2, EC root (5 certificates).
        case remotelyProvisioned
        /// Software keystore: leaf, software intermediate, software root (3 certificates).
        case software
    }

    public var shape: Shape
    /// The attested key.
    public var key: PrivateKey
    public var keyDescription: KeyDescription
    /// Real leaves: serial 1, `CN=Android Keystore Key`, 1970-01-01 .. 2048-01-01, KeyUsage digitalSignature.
    public var leafSerial: [UInt8] = [1]
    public var leafSubject = X509Name([.commonName("Android Keystore Key")])
    public var leafValidity = (Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 2_461_449_600))
    /// Extension bytes to carry instead of the encoded `keyDescription` (malformed encodings).
    public var keyDescriptionOverride: [UInt8]?
    /// How many KeyDescription extensions the leaf carries.
    public var keyDescriptionCount = 1

    public init(shape: Shape, key: PrivateKey, keyDescription: KeyDescription) {
        self.shape = shape
        self.key = key
        self.keyDescription = keyDescription
    }

    /// The CAs above the leaf for `shape`, nearest first, root last.
    public static func authorities(_ shape: Shape, in pki: AndroidPKI) -> [AndroidPKI.Authority] {
        switch shape {
        case .factory: return [pki.factoryBatch, pki.factoryIntermediate, pki.rsaRoot]
        case .remotelyProvisioned: return [pki.rkpAttestationKey, pki.rkpCA3, pki.rkpCA2, pki.ecRoot]
        case .software: return [pki.softwareIntermediate, pki.softwareRoot]
        }
    }

    /// The chain, leaf first and root last.
    public func render(pki: AndroidPKI) throws -> [X509Certificate] {
        try render(authorities: Self.authorities(shape, in: pki))
    }

    /// The leaf issued by `authorities[0]`, followed by the authorities' certificates.
    public func render(authorities: [AndroidPKI.Authority]) throws -> [X509Certificate] {
        let leaf = try CertificateAuthority.issue(
            serial: leafSerial, subject: leafSubject, key: key.publicKey,
            issuer: try authorities[0].name, signer: authorities[0].key,
            validity: leafValidity,
            extensions: [.keyUsage([.digitalSignature])] + Array(
                repeating: CertificateExtension(oid: KeyDescription.extensionOID, value: keyDescriptionOverride ?? keyDescription.der),
                count: keyDescriptionCount))
        return [leaf] + authorities.map(\.certificate)
    }

    /// A KeyDescription as a KeyMint 4 (attestation version 400) TEE writes it for an EC P-256 signing key, tags placed
    /// in softwareEnforced and hardwareEnforced as real devices place them (Tests/AttestRealSamplesTests/real-samples).
    public static func typicalKeyDescription(challenge: [UInt8], packageName: String, signingCertificateDigest: [UInt8],
                                             securityLevel: Int64 = KeyDescription.trustedEnvironment,
                                             creationTime: Date) -> KeyDescription {
        typealias Field = AuthorizationList.Field
        let application = AttestationApplicationId(
            packages: [.init(name: Array(packageName.utf8), version: 1)], signatureDigests: [signingCertificateDigest])
        let root = RootOfTrust(verifiedBootKey: sha256(Array("attest-harness TEST vbmeta key".utf8)), deviceLocked: true,
                               verifiedBootState: RootOfTrust.verified,
                               verifiedBootHash: sha256(Array("attest-harness TEST vbmeta".utf8)))
        return KeyDescription(
            attestationVersion: 400, attestationSecurityLevel: securityLevel, keyMintVersion: 400,
            keyMintSecurityLevel: securityLevel, attestationChallenge: challenge,
            softwareEnforced: AuthorizationList([
                Field(.creationDateTime, .integer(Int64(creationTime.timeIntervalSince1970 * 1000))),
                Field(.attestationApplicationId, .attestationApplicationId(application)),
                Field(.moduleHash, .octets(sha256(Array("attest-harness TEST modules".utf8)))),
            ]),
            hardwareEnforced: AuthorizationList([
                Field(.purpose, .integerSet([KeyMintValues.purposeSign])),
                Field(.algorithm, .integer(KeyMintValues.algorithmEC)), Field(.keySize, .integer(256)),
                Field(.digest, .integerSet([4])), Field(.ecCurve, .integer(KeyMintValues.curveP256)),
                Field(.userAuthType, .integer(KeyMintValues.authenticatorFingerprint)),
                Field(.origin, .integer(KeyMintValues.originGenerated)), Field(.rootOfTrust, .rootOfTrust(root)),
                Field(.osVersion, .integer(160000)), Field(.osPatchLevel, .integer(202601)),
                Field(.vendorPatchLevel, .integer(20260105)), Field(.bootPatchLevel, .integer(20260105)),
            ]))
    }
}
