import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// A test App Attestation root (P-384) and intermediate that mirror the profile of Apple's App Attestation CAs
/// (https://www.apple.com/certificateauthority/private/) with TEST in their subjects, derived from a seed. `attacker`
/// gives a second PKI with the same names and other keys, for chains that only look right.
public struct AppAttestPKI: Sendable {
    public static let rootName = X509Name([
        .commonName("TEST App Attestation Root CA"), .organization("attest-harness TEST"), .stateOrProvince("California"),
    ])
    public static let intermediateName = X509Name([
        .commonName("TEST App Attestation CA 1"), .organization("attest-harness TEST"), .stateOrProvince("California"),
    ])

    public let rootKey: PrivateKey
    public let intermediateKey: PrivateKey
    public let root: X509Certificate
    public let intermediate: X509Certificate

    /// Apple's root: 2020-03-18 .. 2045-03-15; intermediate 2020-03-18 .. 2030-03-13.
    static let rootValidity = (Date(timeIntervalSince1970: 1_584_556_373), Date(timeIntervalSince1970: 2_373_062_400))
    static let intermediateValidity = (Date(timeIntervalSince1970: 1_584_556_795), Date(timeIntervalSince1970: 1_899_590_400))

    /// Built once per (seed, label) in a process (`PKIMemo`).
    public init(seed: ForgeSeed, label: String = "app-attest") throws {
        self = try PKIMemo.appAttest.value(for: PKIMemo.Name(seed: seed.value, label: label)) {
            try AppAttestPKI(building: ForgeSeed(seed.value), label: label)
        }
    }

    private init(building seed: ForgeSeed, label: String) throws {
        rootKey = try seed.key(.ec(.p384), "\(label) root")
        intermediateKey = try seed.key(.ec(.p384), "\(label) intermediate")
        root = try Self.rootCertificate(key: rootKey, serial: try seed.bytes("\(label) root serial", count: 16))
        intermediate = try Self.intermediateCertificate(
            key: intermediateKey, issuerKey: rootKey, serial: try seed.bytes("\(label) intermediate serial", count: 16))
    }

    /// The PKI an attacker builds: Apple's names, the attacker's keys.
    public static func attacker(seed: ForgeSeed) throws -> AppAttestPKI {
        try AppAttestPKI(seed: seed, label: "attacker app-attest")
    }

    static func keyIdentifier(_ key: PrivateKey) -> [UInt8] { Array(sha256(key.publicKey.spki).prefix(20)) }

    static func rootCertificate(key: PrivateKey, serial: [UInt8]) throws -> X509Certificate {
        try CertificateTemplate(
            serialNumber: serial, signatureAlgorithm: .ecdsaWithSHA384, issuer: rootName, subject: rootName,
            notBefore: rootValidity.0, notAfter: rootValidity.1, subjectPublicKeyInfo: key.publicKey.spki,
            extensions: [.basicConstraints(ca: true), .subjectKeyIdentifier(keyIdentifier(key)),
                         .keyUsage([.keyCertSign, .cRLSign])]
        ).signed(by: key)
    }

    /// `ca: false` issues the intermediate without the CA flag, for the basic-constraints case.
    public static func intermediateCertificate(key: PrivateKey, issuerKey: PrivateKey, serial: [UInt8], ca: Bool = true)
        throws -> X509Certificate
    {
        try CertificateTemplate(
            serialNumber: serial, signatureAlgorithm: .ecdsaWithSHA384, issuer: rootName, subject: intermediateName,
            notBefore: intermediateValidity.0, notAfter: intermediateValidity.1, subjectPublicKeyInfo: key.publicKey.spki,
            extensions: [.basicConstraints(ca: ca, pathLength: ca ? 0 : nil),
                         .authorityKeyIdentifier(keyIdentifier(issuerKey)), .subjectKeyIdentifier(keyIdentifier(key)),
                         .keyUsage([.keyCertSign, .cRLSign])]
        ).signed(by: issuerKey)
    }
}
