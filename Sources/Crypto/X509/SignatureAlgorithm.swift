import DER

/// Certificate signature algorithms (RFC 5758 §3.2, RFC 4055 §5).
public enum SignatureAlgorithm: String, Hashable, Sendable, CaseIterable {
    case ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
    case ecdsaWithSHA384 = "1.2.840.10045.4.3.3"
    case sha256WithRSAEncryption = "1.2.840.113549.1.1.11"

    public var oid: ASN1ObjectIdentifier { ASN1ObjectIdentifier(dotted: rawValue)! }

    public var digest: DigestAlgorithm {
        self == .ecdsaWithSHA384 ? .sha384 : .sha256
    }

    /// `AlgorithmIdentifier`: ECDSA has absent parameters, RSA has NULL (RFC 5758 §3.2, RFC 4055 §5).
    public var element: DERElement {
        self == .sha256WithRSAEncryption ? .sequence([.oid(oid), .null]) : .sequence([.oid(oid)])
    }
}
