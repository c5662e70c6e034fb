import AttestCrypto
import AttestDER
import Foundation

/// A test CA: its certificate and the key that signs below it. Every family's PKI is built from these.
public struct CertificateAuthority: Sendable {
    public let certificate: Certificate
    public let key: PrivateKey

    public init(certificate: Certificate, key: PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    /// The subject, as the issuer name of what this CA signs.
    public var name: DistinguishedName {
        get throws { try DistinguishedName(der: certificate.subjectDER) }
    }

    /// A certificate signed with the algorithm the signer's key calls for.
    public static func issue(serial: [UInt8], subject: DistinguishedName, key: PublicKey, issuer: DistinguishedName,
                             signer: PrivateKey, validity: (Date, Date), extensions: [CertificateExtension]) throws -> Certificate {
        guard let algorithm = SignatureAlgorithm(signer: signer.algorithm) else {
            throw CryptoError.unsupported("certificates signed by \(signer.algorithm)")
        }
        return try CertificateTemplate(
            serialNumber: serial, signatureAlgorithm: algorithm, issuer: issuer, subject: subject, notBefore: validity.0,
            notAfter: validity.1, subjectPublicKeyInfo: key.spki, extensions: extensions
        ).signed(by: signer)
    }

    /// A self-signed root CA for `key`.
    public static func root(subject: DistinguishedName, key: PrivateKey, serial: [UInt8], validity: (Date, Date)) throws -> Self {
        Self(certificate: try issue(serial: serial, subject: subject, key: key.publicKey, issuer: subject, signer: key,
                                    validity: validity, extensions: caExtensions(key, issuer: nil, pathLength: nil)), key: key)
    }

    /// A CA for `key` issued by this one.
    public func subordinate(subject: DistinguishedName, key: PrivateKey, serial: [UInt8], validity: (Date, Date),
                            pathLength: Int64?, extra: [CertificateExtension] = []) throws -> Self {
        Self(certificate: try Self.issue(serial: serial, subject: subject, key: key.publicKey, issuer: try name,
                                         signer: self.key, validity: validity,
                                         extensions: Self.caExtensions(key, issuer: self.key, pathLength: pathLength) + extra),
             key: key)
    }

    /// Subject and authority key identifiers (SHA-256 of the SPKI, truncated), basic constraints cA TRUE, key usage.
    public static func caExtensions(_ key: PrivateKey, issuer: PrivateKey?, pathLength: Int64?) -> [CertificateExtension] {
        [.subjectKeyIdentifier(keyIdentifier(key))] + (issuer.map { [.authorityKeyIdentifier(keyIdentifier($0))] } ?? [])
            + [.basicConstraints(ca: true, pathLength: pathLength), .keyUsage([.keyCertSign, .cRLSign])]
    }

    public static func keyIdentifier(_ key: PrivateKey) -> [UInt8] { Array(sha256(key.publicKey.spki).prefix(20)) }
}
