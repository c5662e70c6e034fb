import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// Test CAs for WebAuthn attestation, derived from a seed, every subject marked TEST: a FIDO-style attestation
/// root that issues `packed` attestation certificates, and an Apple-style WebAuthn root (P-384) with its
/// intermediate for `apple` anonymous attestation (WebAuthn L3 §8.8). `android-key` uses `AndroidPKI`.
public struct WebAuthnPKI: Sendable {
    public let attestationRoot: CertificateAuthority
    /// The key of the authenticator model's attestation certificate (one per model, shared by its devices).
    public let attestationKey: PrivateKey
    public let appleRoot: CertificateAuthority
    public let appleIntermediate: CertificateAuthority
    /// The CA that issues TPM AIK certificates, under the FIDO attestation root (as a TPM vendor's CA sits under its root).
    public let tpmIntermediate: CertificateAuthority
    /// A SafetyNet-style root (Google's was GlobalSign Root CA - R2) and the intermediate that issues the
    /// `attest.android.com` certificate.
    public let safetyNetRoot: CertificateAuthority
    public let safetyNetIntermediate: CertificateAuthority
    /// An intermediate under the FIDO attestation root that issues packed attestation certificates in the metadata
    /// cases, where the metadata statement may name it, not the root, as the model's attestation root.
    public let packedIntermediate: CertificateAuthority
    /// A FIDO Metadata Service style root, and the certificate (with its key) that signs metadata BLOBs.
    public let metadataRoot: CertificateAuthority
    public let metadataSigner: CertificateAuthority

    static let rootValidity = (Date(timeIntervalSince1970: 1_584_556_373), Date(timeIntervalSince1970: 2_373_062_400))

    /// `label` separates an attacker's look-alike PKI (same names, other keys) from the trusted one. Built once per
    /// (seed, label) in a process (`PKIMemo`): a case is forged again around every value a live server issues, and
    /// its PKI is the harness's own, the same each time.
    public init(seed: ForgeSeed, label: String = "webauthn") throws {
        self = try PKIMemo.webAuthn.value(for: PKIMemo.Name(seed: seed.value, label: label)) {
            try WebAuthnPKI(building: ForgeSeed(seed.value), label: label)
        }
    }

    private init(building seed: ForgeSeed, label: String) throws {
        func serial(_ name: String) throws -> [UInt8] { try seed.bytes("\(label) serial \(name)", count: 16) }
        attestationRoot = try .root(
            subject: X509Name([.country("US"), .organization("attest-harness TEST"),
                                        .commonName("TEST FIDO Attestation Root")]),
            key: try seed.key(.ec(.p256), "\(label) attestation root"), serial: try serial("attestation root"),
            validity: Self.rootValidity)
        attestationKey = try seed.key(.ec(.p256), "\(label) attestation certificate")
        appleRoot = try .root(
            subject: X509Name([.commonName("TEST Apple WebAuthn Root CA"), .organization("attest-harness TEST"),
                                        .stateOrProvince("California")]),
            key: try seed.key(.ec(.p384), "\(label) apple root"), serial: try serial("apple root"), validity: Self.rootValidity)
        appleIntermediate = try appleRoot.subordinate(
            subject: X509Name([.commonName("TEST Apple WebAuthn CA 1"), .organization("attest-harness TEST"),
                                        .stateOrProvince("California")]),
            key: try seed.key(.ec(.p384), "\(label) apple intermediate"), serial: try serial("apple intermediate"),
            validity: Self.rootValidity, pathLength: 0)
        tpmIntermediate = try attestationRoot.subordinate(
            subject: X509Name([.country("US"), .organization("attest-harness TEST"), .commonName("TEST TPM AIK CA")]),
            key: try seed.key(.ec(.p256), "\(label) tpm intermediate"), serial: try serial("tpm intermediate"),
            validity: Self.rootValidity, pathLength: 0)
        safetyNetRoot = try .root(
            subject: X509Name([.country("US"), .organization("attest-harness TEST"), .commonName("TEST SafetyNet Root CA")]),
            key: try seed.key(.ec(.p256), "\(label) safetynet root"), serial: try serial("safetynet root"), validity: Self.rootValidity)
        safetyNetIntermediate = try safetyNetRoot.subordinate(
            subject: X509Name([.country("US"), .organization("attest-harness TEST"), .commonName("TEST SafetyNet CA 1")]),
            key: try seed.key(.ec(.p256), "\(label) safetynet intermediate"), serial: try serial("safetynet intermediate"),
            validity: Self.rootValidity, pathLength: 0)
        packedIntermediate = try attestationRoot.subordinate(
            subject: X509Name([.country("US"), .organization("attest-harness TEST"), .commonName("TEST FIDO Attestation CA 1")]),
            key: try seed.key(.ec(.p256), "\(label) packed intermediate"), serial: try serial("packed intermediate"),
            validity: Self.rootValidity, pathLength: 0)
        metadataRoot = try .root(
            subject: X509Name([.country("US"), .organization("attest-harness TEST"), .commonName("TEST FIDO Metadata Root")]),
            key: try seed.key(.ec(.p256), "\(label) metadata root"), serial: try serial("metadata root"), validity: Self.rootValidity)
        let signerKey = try seed.key(.rsa(bits: 2048), "\(label) metadata signer")  // the production BLOB is RS256
        metadataSigner = CertificateAuthority(certificate: try CertificateAuthority.issue(
            serial: try serial("metadata signer"),
            subject: X509Name([.country("US"), .organization("attest-harness TEST"), .commonName("TEST mds.attest-harness.test")]),
            key: signerKey.publicKey, issuer: try metadataRoot.name, signer: metadataRoot.key, validity: Self.rootValidity,
            extensions: [.basicConstraints(ca: false), .keyUsage([.digitalSignature]),
                         .authorityKeyIdentifier(CertificateAuthority.keyIdentifier(metadataRoot.key))]), key: signerKey)
    }

    /// The PKI an attacker builds: the same names, the attacker's keys.
    public static func attacker(seed: ForgeSeed) throws -> WebAuthnPKI { try WebAuthnPKI(seed: seed, label: "attacker webauthn") }

    /// The anchors a relying party configures: the FIDO attestation root, the Apple WebAuthn root, the SafetyNet root.
    public var trustAnchors: [X509Certificate] { [attestationRoot.certificate, appleRoot.certificate, safetyNetRoot.certificate] }
}
