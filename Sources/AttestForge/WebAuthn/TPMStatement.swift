import AttestCBOR
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// `tpm` (§8.3): `{ver: "2.0", alg, x5c, sig, certInfo, pubArea}`. pubArea is the credential key as a TPMT_PUBLIC;
/// certInfo a TPMS_ATTEST of type TPM_ST_ATTEST_CERTIFY whose extraData is the hash of
/// `authenticatorData || clientDataHash` and whose attested name is pubArea's Name; the AIK, certified by an
/// AIK certificate meeting §8.3.1 (empty subject, TPM identity in the subject alternative name, EKU
/// tcg-kp-AIKCertificate, cA FALSE), signs certInfo. x5c is the AIK certificate, then its issuing CA.
public struct TPMStatement: Sendable {
    /// The CA that issues the AIK certificate (sent after it in x5c).
    public var issuer: CertificateAuthority
    /// The attestation identity key.
    public var aikKey: PrivateKey
    public var validity: (Date, Date)
    /// TPMT_PUBLIC.nameAlg: the hash of the Name certInfo attests (TPM 2.0 Part 1 §16).
    public var nameAlg = TPMStructures.algorithmSHA256
    /// The statement's `alg` (its hash also makes certInfo.extraData); nil takes the AIK key's usual one (RS256, ES256...).
    public var algorithm: COSEKey.Algorithm?
    /// §8.3.1 profile of the AIK certificate, field by field.
    public var certificate = AIKCertificateProfile()
    /// What id-fido-gen-ce-aaguid holds in the AIK certificate.
    public var aaguidExtension = PackedStatement.AAGUIDExtension.credential
    /// x5c in this order instead of [AIK certificate, issuer]; indexes into that pair.
    public var chainOrder = [0, 1]
    /// `ver` instead of "2.0".
    public var version = "2.0"
    /// Put this key in pubArea instead of the credential key.
    public var certifiedKey: PublicKey?
    public var magic = TPMStructures.Attestation.generatedValue
    public var attestationType = TPMStructures.Attestation.certifyType
    /// extraData over these bytes instead of `authenticatorData || clientDataHash`.
    public var extraDataMessage: [UInt8]?
    /// The attested name of this TPMT_PUBLIC instead of pubArea's.
    public var attestedPublicArea: [UInt8]?
    /// Sign these bytes instead of certInfo.
    public var signedMessage: [UInt8]?

    public init(issuer: CertificateAuthority, aikKey: PrivateKey, validity: (Date, Date)) {
        self.issuer = issuer
        self.aikKey = aikKey
        self.validity = validity
    }

    /// The fields of §8.3.1 a mutation can break one at a time.
    public struct AIKCertificateProfile: Sendable {
        /// "Subject field MUST be set to empty."
        public var subject = X509Name([])
        /// The TPM identity in the subject alternative name ([TPMv2-EK-Profile] §3.2.9); nil leaves the extension out.
        public var alternativeName: TPMIdentity? = TPMIdentity()
        /// The extended key usages; §8.3.1 requires tcg-kp-AIKCertificate.
        public var extendedKeyUsages: [DERObjectIdentifier] = [TPMStatement.aikCertificateUsage]
        public var isCA = false

        public init() {}
    }

    /// A TPM vendor in the TCG Vendor ID Registry
    /// (https://trustedcomputinggroup.org/resource/vendor-id-registry/): its four-character code and the
    /// tcg-at-tpmManufacturer value, "id:" and the code's ASCII bytes in hex.
    public struct Vendor: Hashable, Sendable {
        public let code: String
        public let name: String
        public var id: String { "id:" + code.utf8.map { String(format: "%02X", $0) }.joined() }

        public init(code: String, name: String) {
            self.code = code
            self.name = name
        }

        public static let infineon = Vendor(code: "IFX\u{0}", name: "Infineon")
        public static let microsoft = Vendor(code: "MSFT", name: "Microsoft")
        public static let intel = Vendor(code: "INTC", name: "Intel")
        public static let stMicroelectronics = Vendor(code: "STM ", name: "STMicroelectronics")
        public static let nuvoton = Vendor(code: "NTC\u{0}", name: "Nuvoton Technology")
    }

    /// tcg-at-tpmManufacturer, tcg-at-tpmModel, tcg-at-tpmVersion as a directoryName.
    public struct TPMIdentity: Sendable {
        /// A vendor id from the TCG registry: verifiers look it up. The forge uses Infineon's, which every mainstream
        /// verifier's vendor list holds (Microsoft's, the software TPM's, is missing from some), with a model that says TEST.
        public var manufacturer = Vendor.infineon.id
        public var model = "attest-harness TEST TPM"
        public var version = "id:13"

        public init() {}

        var generalNames: DERElement {
            let attributes: [(DERObjectIdentifier, String)] = [("2.23.133.2.1", manufacturer), ("2.23.133.2.2", model),
                                                               ("2.23.133.2.3", version)]
            let name = DERElement.sequence(attributes.map { .set([.sequence([.oid($0.0), .utf8String($0.1)])]) })
            return .sequence([.explicit(4, name)])
        }
    }

    /// 2.23.133.8.3, tcg-kp-AIKCertificate.
    public static let aikCertificateUsage: DERObjectIdentifier = "2.23.133.8.3"

    func render(_ input: AttestationStatementBlueprint.Input) throws -> [CBORMapEntry] {
        let algorithm = try self.algorithm ?? COSEKey.algorithm(for: aikKey.publicKey)
        guard let digest = algorithm.digest else { throw AttestCryptoError.unsupported("a tpm AIK signing with \(algorithm)") }
        let pubArea = try Self.publicArea(certifiedKey ?? input.credentialKey.publicKey, nameAlg: nameAlg)
        let certInfo = try Self.attestation(
            magic: magic, type: attestationType,
            extraData: digest.hash(extraDataMessage ?? input.authenticatorData + input.clientDataHash),
            name: try Self.name(of: attestedPublicArea ?? pubArea, nameAlg: nameAlg),
            qualifiedSigner: try Self.name(of: Array(aikKey.publicKey.spki), nameAlg: nameAlg))
        var extensions: [CertificateExtension] = [
            .basicConstraints(ca: certificate.isCA, critical: true),
            .authorityKeyIdentifier(CertificateAuthority.keyIdentifier(issuer.key)),
        ]
        if let identity = certificate.alternativeName {
            // Critical: the subject is empty (RFC 5280 §4.2.1.6).
            extensions.append(CertificateExtension(oid: "2.5.29.17", critical: true, value: identity.generalNames.serialized))
        }
        extensions.append(CertificateExtension(oid: "2.5.29.37", value: DERElement.sequence(certificate.extendedKeyUsages.map { .oid($0) }).serialized))
        switch aaguidExtension {
        case .credential: extensions.append(PackedStatement.aaguid(input.aaguid))
        case .value(let aaguid): extensions.append(PackedStatement.aaguid(aaguid))
        case .absent: break
        }
        let aikCertificate = try CertificateAuthority.issue(
            serial: Array(sha256(aikKey.publicKey.spki + input.aaguid).prefix(16)), subject: certificate.subject,
            key: aikKey.publicKey, issuer: try issuer.name, signer: issuer.key, validity: validity, extensions: extensions)
        let chain = [aikCertificate, issuer.certificate]
        return [CBORMapEntry("ver", .text(version)), CBORMapEntry("alg", .int(algorithm.rawValue)),
                CBORMapEntry("x5c", .array(AttestationStatementBlueprint.ordered(chain, chainOrder).map { .bytes($0.der) })),
                CBORMapEntry("sig", .bytes(try aikKey.sign(signedMessage ?? certInfo, digest: digest))),
                CBORMapEntry("certInfo", .bytes(certInfo)), CBORMapEntry("pubArea", .bytes(pubArea))]
    }

    /// TPMA_OBJECT of a signing key the TPM generated (Part 2 §8.3): fixedTPM, fixedParent, sensitiveDataOrigin,
    /// userWithAuth, noDA, sign.
    static let signingKeyAttributes: UInt32 = 0x0004_0472
    static let algorithmNull: UInt16 = 0x0010

    /// TPMT_PUBLIC (Part 2 §12.2.4) of `key`: an ECC key (TPMS_ECC_PARMS, TPMS_ECC_POINT) or an RSA key
    /// (TPMS_RSA_PARMS with the default exponent written as 0, TPM2B_PUBLIC_KEY_RSA), schemes NULL.
    public static func publicArea(_ key: PublicKey, nameAlg: UInt16) throws -> [UInt8] {
        var bytes: [UInt8] = []
        switch key.algorithm {
        case .ec(let curve):
            guard let curveID = TPMStructures.curves.first(where: { $0.value == curve.rawValue })?.key else {
                throw AttestCryptoError.unsupported("a TPM key on \(curve)")
            }
            let point = try key.x963Point
            let size = curve.coordinateSize
            bytes += uint16(TPMStructures.algorithmECC) + uint16(nameAlg) + uint32(signingKeyAttributes) + sized([])
            bytes += uint16(algorithmNull) + uint16(algorithmNull) + uint16(curveID) + uint16(algorithmNull)
            bytes += sized(Array(point[1...size])) + sized(Array(point[(size + 1)...]))
        case .rsa(let bits):
            guard let entries = try COSEKey(algorithm: .rs256, publicKey: key).cbor.mapEntries,
                  let modulus = entries.first(where: { $0.key == .int(-1) })?.value.bytesValue,
                  let exponent = entries.first(where: { $0.key == .int(-2) })?.value.bytesValue else {
                throw AttestCryptoError.malformed(what: "RSA key", reason: "no modulus")
            }
            let value = exponent.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            bytes += uint16(TPMStructures.algorithmRSA) + uint16(nameAlg) + uint32(signingKeyAttributes) + sized([])
            bytes += uint16(algorithmNull) + uint16(algorithmNull) + uint16(UInt16(bits)) + uint32(value == 65_537 ? 0 : value)
            bytes += sized(modulus)
        default:
            throw AttestCryptoError.unsupported("a TPM key of type \(key.algorithm)")
        }
        return bytes
    }

    /// A Name (Part 1 §16): nameAlg, then the nameAlg digest of the object's TPMT_PUBLIC.
    static func name(of publicArea: [UInt8], nameAlg: UInt16) throws -> [UInt8] {
        guard let digest = TPMStructures.nameDigests[nameAlg] else { throw AttestCryptoError.unsupported("TPM nameAlg \(nameAlg)") }
        return uint16(nameAlg) + digest.hash(publicArea)
    }

    /// TPMS_ATTEST (Part 2 §10.12.8) with TPMS_CERTIFY_INFO: clockInfo safe, fixed clock and firmware values.
    static func attestation(magic: UInt32, type: UInt16, extraData: [UInt8], name: [UInt8], qualifiedSigner: [UInt8]) throws -> [UInt8] {
        let clockInfo = uint32(0) + uint32(0x0012_D687) + uint32(7) + uint32(1) + [0x01]  // clock (8), resetCount, restartCount, safe
        return uint32(magic) + uint16(type) + sized(qualifiedSigner) + sized(extraData) + clockInfo
            + uint32(0x0007_0002) + uint32(0x0000_0001)  // firmwareVersion
            + sized(name) + sized(name)  // attested: name, qualifiedName
    }

    static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func uint32(_ value: UInt32) -> [UInt8] { uint16(UInt16(value >> 16)) + uint16(UInt16(value & 0xFFFF)) }
    /// A TPM2B: a 16-bit size, then the bytes.
    static func sized(_ bytes: [UInt8]) -> [UInt8] { uint16(UInt16(bytes.count)) + bytes }
}
