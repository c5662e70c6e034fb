import AttestCrypto
import AttestDER
import Foundation

/// A test CA: its certificate and the key that signs below it. Every family's PKI is built from these.
public struct CertificateAuthority: Sendable {
    public let certificate: X509Certificate
    public let key: PrivateKey
    /// The subject read once (nil if it cannot be read as a Name: `name` then throws why, each time it is asked).
    private let subjectName: X509Name?

    public init(certificate: X509Certificate, key: PrivateKey) {
        self.certificate = certificate
        self.key = key
        subjectName = try? X509Name(der: certificate.subjectDER)
    }

    /// The subject, as the issuer name of what this CA signs.
    public var name: X509Name {
        get throws { try subjectName ?? X509Name(der: certificate.subjectDER) }
    }

    /// A certificate signed with the algorithm the signer's key calls for.
    public static func issue(serial: [UInt8], subject: X509Name, key: PublicKey, issuer: X509Name,
                             signer: PrivateKey, validity: (Date, Date), extensions: [CertificateExtension],
                             version: Int64 = 2) throws -> X509Certificate {
        guard let algorithm = SignatureAlgorithm(signer: signer.algorithm) else {
            throw AttestCryptoError.unsupported("certificates signed by \(signer.algorithm)")
        }
        var template = CertificateTemplate(
            serialNumber: serial, signatureAlgorithm: algorithm, issuer: issuer, subject: subject, notBefore: validity.0,
            notAfter: validity.1, subjectPublicKeyInfo: key.spki, extensions: extensions)
        template.version = version
        return try template.signed(by: signer)
    }

    /// A self-signed root CA for `key`.
    public static func root(subject: X509Name, key: PrivateKey, serial: [UInt8], validity: (Date, Date)) throws -> Self {
        Self(certificate: try issue(serial: serial, subject: subject, key: key.publicKey, issuer: subject, signer: key,
                                    validity: validity, extensions: caExtensions(key, issuer: nil, pathLength: nil)), key: key)
    }

    /// A CA for `key` issued by this one.
    public func subordinate(subject: X509Name, key: PrivateKey, serial: [UInt8], validity: (Date, Date),
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
