import AttestCBOR
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// The attestation statement of a registration (WebAuthn L3 §8), by format, as fields a mutation can change.
public enum AttestationStatementBlueprint: Sendable {
    /// `none` (§8.7): an empty map.
    case none
    case packed(PackedStatement)
    case androidKey(AndroidKeyStatement)
    case apple(AppleStatement)
    case fidoU2F(FidoU2FStatement)
    case tpm(TPMStatement)
    case androidSafetyNet(SafetyNetStatement)

    public var format: String {
        switch self {
        case .none: return WebAuthnFormat.none
        case .packed: return WebAuthnFormat.packed
        case .androidKey: return WebAuthnFormat.androidKey
        case .apple: return WebAuthnFormat.apple
        case .fidoU2F: return WebAuthnFormat.fidoU2F
        case .tpm: return WebAuthnFormat.tpm
        case .androidSafetyNet: return WebAuthnFormat.androidSafetyNet
        }
    }

    /// What a statement is computed from.
    public struct Input: Sendable {
        public let authenticatorData: [UInt8]
        public let clientDataHash: [UInt8]
        public let credentialKey: PrivateKey
        public let credentialAlgorithm: COSEKey.Algorithm
        public let aaguid: [UInt8]
    }

    /// x5c: `certificates` in `order` (indexes), or as they are.
    static func ordered(_ certificates: [X509Certificate], _ order: [Int]?) -> [X509Certificate] {
        order.map { $0.filter(certificates.indices.contains).map { certificates[$0] } } ?? certificates
    }

    /// The `attStmt` map.
    public func render(_ input: Input) throws -> [CBORMapEntry] {
        switch self {
        case .none: return []
        case .packed(let statement): return try statement.render(input)
        case .androidKey(let statement): return try statement.render(input)
        case .apple(let statement): return try statement.render(input)
        case .fidoU2F(let statement): return try statement.render(input)
        case .tpm(let statement): return try statement.render(input)
        case .androidSafetyNet(let statement): return try statement.render(input)
        }
    }
}

/// `packed` (§8.2): `{alg, sig, x5c}` with an attestation certificate meeting §8.2.1, or the self form `{alg, sig}`.
public struct PackedStatement: Sendable {
    /// The CA that issues the attestation certificate; nil for self attestation (signed by the credential key).
    public var issuer: CertificateAuthority?
    public var attestationKey: PrivateKey
    /// §8.2.1: C, O, OU "Authenticator Attestation", CN.
    public var subject: X509Name
    public var certificateIsCA = false
    /// The certificate's version INTEGER: 2 (v3, what §8.2.1 requires) or 0 (v1, which carries no extensions).
    public var certificateVersion: Int64 = 2
    /// What id-fido-gen-ce-aaguid holds: the credential's AAGUID, another value, or nothing.
    public var aaguidExtension = AAGUIDExtension.credential
    /// Certificates after the attestation certificate in x5c.
    public var appended: [X509Certificate] = []
    /// x5c in this order (indexes into attestation certificate + appended) instead of as listed.
    public var chainOrder: [Int]?
    public var validity: (Date, Date)
    /// Sign these bytes instead of `authenticatorData || clientDataHash`.
    public var signedMessage: [UInt8]?
    /// Write this `alg` instead of the attestation key's.
    public var algorithmOverride: Int64?
    /// Changes the finished `attStmt` entries (members left out or of the wrong type).
    public var entriesEdit: (@Sendable ([CBORMapEntry]) -> [CBORMapEntry])?
    /// With x5c, sign with the credential key instead of the attestation key (a self signature dressed as full).
    public var signedByCredentialKey = false

    public init(issuer: CertificateAuthority?, attestationKey: PrivateKey, subject: X509Name, validity: (Date, Date)) {
        self.issuer = issuer
        self.attestationKey = attestationKey
        self.subject = subject
        self.validity = validity
    }

    public enum AAGUIDExtension: Sendable {
        case credential
        case value([UInt8])
        case absent
    }

    public static func subject(vendor: String) -> X509Name {
        X509Name([.country("US"), .organization(vendor), .organizationalUnit(WebAuthnFormat.packedOrganizationalUnit),
                           .commonName("\(vendor) Authenticator")])
    }

    func render(_ input: AttestationStatementBlueprint.Input) throws -> [CBORMapEntry] {
        let message = signedMessage ?? input.authenticatorData + input.clientDataHash
        guard let issuer else {
            let algorithm = input.credentialAlgorithm
            let entries = [CBORMapEntry("alg", .int(algorithmOverride ?? algorithm.rawValue)),
                           CBORMapEntry("sig", .bytes(try input.credentialKey.sign(message, digest: algorithm.digest, padding: algorithm.padding)))]
            return entriesEdit.map { $0(entries) } ?? entries
        }
        var extensions: [CertificateExtension] = [.basicConstraints(ca: certificateIsCA, critical: true)]
        switch aaguidExtension {
        case .credential: extensions.append(Self.aaguid(input.aaguid))
        case .value(let aaguid): extensions.append(Self.aaguid(aaguid))
        case .absent: break
        }
        let certificate = try CertificateAuthority.issue(
            serial: Array(sha256(attestationKey.publicKey.spki + subject.der).prefix(16)), subject: subject,
            key: attestationKey.publicKey, issuer: try issuer.name, signer: issuer.key, validity: validity,
            extensions: certificateVersion == 2 ? extensions : [], version: certificateVersion)
        let signer = signedByCredentialKey ? input.credentialKey : attestationKey
        let algorithm = try COSEKey.algorithm(for: signer.publicKey)
        let entries = [CBORMapEntry("alg", .int(algorithmOverride ?? algorithm.rawValue)),
                       CBORMapEntry("sig", .bytes(try signer.sign(message, digest: algorithm.digest))),
                       CBORMapEntry("x5c", .array(AttestationStatementBlueprint.ordered([certificate] + appended, chainOrder).map { .bytes($0.der) }))]
        return entriesEdit.map { $0(entries) } ?? entries
    }

    /// id-fido-gen-ce-aaguid: `OCTET STRING` of the AAGUID, itself the extension's OCTET STRING value.
    static func aaguid(_ aaguid: [UInt8]) -> CertificateExtension {
        CertificateExtension(oid: WebAuthnFormat.aaguidExtension, value: DERElement.octetString(aaguid).serialized)
    }
}

/// `android-key` (§8.4): `{alg, sig, x5c}` where x5c is the Android key attestation chain of the credential key
/// whose attestationChallenge is the clientDataHash; built on the Android forge.
public struct AndroidKeyStatement: Sendable {
    public var android: AndroidScenario
    public var pki: AndroidPKI
    /// Put this in attestationChallenge instead of the clientDataHash.
    public var challengeOverride: [UInt8]?
    /// Sign with this key instead of the credential key.
    public var signer: PrivateKey?
    /// Sign these bytes instead of `authenticatorData || clientDataHash`.
    public var signedMessage: [UInt8]?
    /// x5c in this order (indexes into the chain, leaf first) instead of as rendered.
    public var chainOrder: [Int]?

    public init(android: AndroidScenario, pki: AndroidPKI) {
        self.android = android
        self.pki = pki
    }

    func render(_ input: AttestationStatementBlueprint.Input) throws -> [CBORMapEntry] {
        var android = self.android
        android.attestation.keyDescription.attestationChallenge = challengeOverride ?? input.clientDataHash
        let chain = try android.render(pki: pki)
        let key = signer ?? input.credentialKey
        let algorithm = try COSEKey.algorithm(for: key.publicKey)
        return [CBORMapEntry("alg", .int(algorithm.rawValue)),
                CBORMapEntry("sig", .bytes(try key.sign(signedMessage ?? input.authenticatorData + input.clientDataHash,
                                                         digest: algorithm.digest))),
                CBORMapEntry("x5c", .array(AttestationStatementBlueprint.ordered(chain, chainOrder).map { .bytes($0.der) }))]
    }
}

/// `apple` anonymous attestation (§8.8): `{x5c}` whose credential certificate carries
/// `nonce = SHA-256(authenticatorData || clientDataHash)` and the credential key.
public struct AppleStatement: Sendable {
    public var intermediate: CertificateAuthority
    /// The key in the credential certificate; nil means the credential key.
    public var certifiedKey: PublicKey?
    public var nonceOverride: [UInt8]?
    public var validity: (Date, Date)

    public init(intermediate: CertificateAuthority, validity: (Date, Date)) {
        self.intermediate = intermediate
        self.validity = validity
    }

    func render(_ input: AttestationStatementBlueprint.Input) throws -> [CBORMapEntry] {
        let nonce = nonceOverride ?? sha256(input.authenticatorData + input.clientDataHash)
        let key = certifiedKey ?? input.credentialKey.publicKey
        let certificate = try CertificateAuthority.issue(
            serial: Array(sha256(key.spki + nonce).prefix(6)),
            subject: X509Name([.commonName(hex(Array(sha256(key.spki).prefix(16)))),
                                        .organizationalUnit("AAA Certification"), .organization("attest-harness TEST"),
                                        .stateOrProvince("California")]),
            key: key, issuer: try intermediate.name, signer: intermediate.key, validity: validity,
            extensions: [.basicConstraints(ca: false),
                         CertificateExtension(oid: WebAuthnFormat.appleNonceExtension,
                                              value: DERElement.sequence([.explicit(1, .octetString(nonce))]).serialized)])
        return [CBORMapEntry("x5c", .array([.bytes(certificate.der), .bytes(intermediate.certificate.der)]))]
    }
}

/// `fido-u2f` (§8.6): `{sig, x5c}` with exactly one P-256 attestation certificate, whose key signs
/// `0x00 || rpIdHash || clientDataHash || credentialId || 0x04 x y` (the credential key as an uncompressed point).
/// U2F authenticators have no AAGUID: the registration's is all zero.
public struct FidoU2FStatement: Sendable {
    public var issuer: CertificateAuthority
    /// A P-256 key.
    public var attestationKey: PrivateKey
    public var subject: X509Name
    public var validity: (Date, Date)
    /// Sign these bytes instead of the U2F registration message.
    public var signedMessage: [UInt8]?
    /// Certificates after the attestation certificate in x5c (§8.6 allows exactly one).
    public var appended: [X509Certificate] = []

    public init(issuer: CertificateAuthority, attestationKey: PrivateKey, subject: X509Name, validity: (Date, Date)) {
        self.issuer = issuer
        self.attestationKey = attestationKey
        self.subject = subject
        self.validity = validity
    }

    func render(_ input: AttestationStatementBlueprint.Input) throws -> [CBORMapEntry] {
        let authData = input.authenticatorData
        // rpIdHash (32), flags (1), signCount (4), AAGUID (16), credentialIdLength (2), credentialId.
        guard authData.count >= 55 else { throw AttestCryptoError.malformed(what: "authenticator data", reason: "no attested credential data for a fido-u2f statement") }
        let idLength = Int(authData[53]) << 8 | Int(authData[54])
        guard authData.count >= 55 + idLength else { throw AttestCryptoError.malformed(what: "authenticator data", reason: "shorter than its credential id") }
        let point = try input.credentialKey.publicKey.x963Point
        let message = signedMessage ?? [0x00] + authData[0..<32] + input.clientDataHash + authData[55..<(55 + idLength)] + point
        let certificate = try CertificateAuthority.issue(
            serial: Array(sha256(attestationKey.publicKey.spki + subject.der).prefix(16)), subject: subject,
            key: attestationKey.publicKey, issuer: try issuer.name, signer: issuer.key, validity: validity,
            extensions: [.basicConstraints(ca: false, critical: true)])
        return [CBORMapEntry("sig", .bytes(try attestationKey.sign(message, digest: .sha256))),
                CBORMapEntry("x5c", .array(([certificate] + appended).map { .bytes($0.der) }))]
    }
}
