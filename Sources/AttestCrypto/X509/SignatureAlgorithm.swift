import AttestDER

/// Certificate signature algorithms (RFC 5758 §3.2, RFC 4055 §5).
public enum SignatureAlgorithm: String, Hashable, Sendable, CaseIterable {
    case ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
    case ecdsaWithSHA384 = "1.2.840.10045.4.3.3"
    case ecdsaWithSHA512 = "1.2.840.10045.4.3.4"
    case sha256WithRSAEncryption = "1.2.840.113549.1.1.11"

    /// The algorithm a CA with this key signs with: ECDSA with its curve's hash, RSA with SHA-256; nil for keys
    /// no certificate profile here uses (EdDSA).
    public init?(signer: KeyAlgorithm) {
        switch signer {
        case .rsa: self = .sha256WithRSAEncryption
        case .ec(.p256): self = .ecdsaWithSHA256
        case .ec(.p384): self = .ecdsaWithSHA384
        case .ec(.p521): self = .ecdsaWithSHA512
        case .ed25519, .ed448: return nil
        }
    }

    /// Every raw value is a constant dotted OID of this enum.
    public var oid: DERObjectIdentifier { DERObjectIdentifier(stringLiteral: rawValue) }

    public var digest: HashAlgorithm {
        switch self {
        case .ecdsaWithSHA256, .sha256WithRSAEncryption: return .sha256
        case .ecdsaWithSHA384: return .sha384
        case .ecdsaWithSHA512: return .sha512
        }
    }

    /// `AlgorithmIdentifier`: ECDSA has absent parameters, RSA has NULL (RFC 5758 §3.2, RFC 4055 §5).
    public var element: DERElement {
        self == .sha256WithRSAEncryption ? .sequence([.oid(oid), .null]) : .sequence([.oid(oid)])
    }
}
