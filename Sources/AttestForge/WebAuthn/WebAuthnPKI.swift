import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// Test CAs for WebAuthn attestation, derived from a seed, every subject marked TEST: a FIDO-style attestation
/// root that issues `packed` attestation certificates, and an Apple-style WebAuthn root (P-384) with its
/// intermediate for `apple` anonymous attestation (protocols.md §3.10). `android-key` uses `AndroidPKI`.
public struct WebAuthnPKI: Sendable {
    public let attestationRoot: CertificateAuthority
    /// The key of the authenticator model's attestation certificate (one per model, shared by its devices).
    public let attestationKey: PrivateKey
    public let appleRoot: CertificateAuthority
    public let appleIntermediate: CertificateAuthority

    static let rootValidity = (Date(timeIntervalSince1970: 1_584_556_373), Date(timeIntervalSince1970: 2_373_062_400))

    /// `label` separates an attacker's look-alike PKI (same names, other keys) from the trusted one.
    public init(seed: ForgeSeed, label: String = "webauthn") throws {
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
    }

    /// The PKI an attacker builds: the same names, the attacker's keys.
    public static func attacker(seed: ForgeSeed) throws -> WebAuthnPKI { try WebAuthnPKI(seed: seed, label: "attacker webauthn") }

    /// The anchors a relying party configures: the FIDO attestation root and the Apple WebAuthn root.
    public var trustAnchors: [X509Certificate] { [attestationRoot.certificate, appleRoot.certificate] }
}
