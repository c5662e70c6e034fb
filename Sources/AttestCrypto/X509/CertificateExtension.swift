import AttestDER

/// One X.509 v3 extension (RFC 5280 §4.1): `SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue }`.
/// `value` is the content of the extnValue OCTET STRING, i.e. the DER of the extension's own structure.
public struct CertificateExtension: Hashable, Sendable {
    public var oid: DERObjectIdentifier
    public var critical: Bool
    public var value: [UInt8]

    public init(oid: DERObjectIdentifier, critical: Bool = false, value: [UInt8]) {
        self.oid = oid
        self.critical = critical
        self.value = value
    }

    /// DER omits `critical` when it is FALSE (X.690 §11.5, DEFAULT values are not encoded).
    public var element: DERElement {
        .sequence([.oid(oid)] + (critical ? [.boolean(true)] : []) + [.octetString(value)])
    }

    /// Basic constraints (RFC 5280 §4.2.1.9): `SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }`.
    public static func basicConstraints(ca: Bool, pathLength: Int64? = nil, critical: Bool = true) -> Self {
        let fields: [DERElement] = (ca ? [.boolean(true)] : []) + (pathLength.map { [.integer($0)] } ?? [])
        return Self(oid: "2.5.29.19", critical: critical, value: DERElement.sequence(fields).serialized)
    }

    /// Key usage bits (RFC 5280 §4.2.1.3), bit 0 first.
    public enum KeyUsage: Int, Sendable, CaseIterable {
        case digitalSignature = 0, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement
        case keyCertSign, cRLSign, encipherOnly, decipherOnly
    }

    public static func keyUsage(_ usages: [KeyUsage], critical: Bool = true) -> Self {
        Self(oid: "2.5.29.15", critical: critical, value: DERElement.namedBits(usages.map(\.rawValue)).serialized)
    }

    /// Subject key identifier (RFC 5280 §4.2.1.2), method 1: SHA-1 is what CAs use, but any identifier works;
    /// callers pass the bytes they want.
    public static func subjectKeyIdentifier(_ identifier: [UInt8]) -> Self {
        Self(oid: "2.5.29.14", value: DERElement.octetString(identifier).serialized)
    }

    /// Subject alternative name (RFC 5280 §4.2.1.6) holding DNS names: `SEQUENCE OF GeneralName`, each
    /// `dNSName [2] IMPLICIT IA5String`.
    public static func subjectAltName(dnsNames: [String]) -> Self {
        Self(oid: "2.5.29.17", value: DERElement.sequence(dnsNames.map { .primitive(.implicit(2), Array($0.utf8)) }).serialized)
    }

    /// Authority key identifier (RFC 5280 §4.2.1.1): `SEQUENCE { [0] IMPLICIT KeyIdentifier }`.
    public static func authorityKeyIdentifier(_ identifier: [UInt8]) -> Self {
        Self(oid: "2.5.29.35", value: DERElement.sequence([.primitive(.implicit(0), identifier)]).serialized)
    }
}
