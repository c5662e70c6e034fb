import AttestCBOR
import AttestCrypto
import AttestDER
import Foundation

/// Google-style test roots and intermediates for Android key attestation
/// (developer.android.com/privacy-and-security/security-key-attestation), every subject marked TEST, derived from a
/// seed: an RSA-4096 root in the legacy `serialNumber=` style, an EC P-384 root in the style of "Key Attestation CA1",
/// and a software-attestation root that is not a hardware trust anchor.
public struct AndroidPKI: Sendable {
    public typealias Authority = CertificateAuthority

    public let rsaRoot: Authority
    public let ecRoot: Authority
    public let softwareRoot: Authority
    /// Factory-provisioned (keybox) path under the RSA root: intermediate, then batch attestation certificate.
    public let factoryIntermediate: Authority
    public let factoryBatch: Authority
    /// Remotely provisioned path under the EC root: Droid CA2 style, Droid CA3 style, attestation key certificate.
    public let rkpCA2: Authority
    public let rkpCA3: Authority
    public let rkpAttestationKey: Authority
    /// Software path: intermediate under the software root.
    public let softwareIntermediate: Authority

    /// Validity of the long-lived CAs: 2022-03-20 .. 2042-03-15, as Google's current RSA root.
    static let rootValidity = (Date(timeIntervalSince1970: 1_647_799_668), Date(timeIntervalSince1970: 2_278_519_668))

    /// Built once per (seed, time) in a process (`PKIMemo`).
    public init(seed: ForgeSeed, time: Date = ForgeSeed.referenceTime) throws {
        self = try PKIMemo.android.value(for: PKIMemo.Name(seed: seed.value, label: "android", time: time)) {
            try AndroidPKI(building: ForgeSeed(seed.value), time: time)
        }
    }

    private init(building seed: ForgeSeed, time: Date) throws {
        func name(_ attributes: X509Name.Attribute...) -> X509Name { X509Name(attributes) }
        func serial(_ label: String) throws -> [UInt8] { try seed.bytes("android serial \(label)", count: 8) }

        func root(_ label: String, _ algorithm: KeyAlgorithm, _ subject: X509Name) throws -> Authority {
            let key = try seed.key(algorithm, "android \(label)")
            return try CertificateAuthority.root(subject: subject, key: key, serial: try serial(label), validity: Self.rootValidity)
        }
        rsaRoot = try root("rsa root", .rsa(bits: 4096),
                           name(.serialNumber("f92009e853b6b045"), .commonName("TEST Hardware Attestation Root")))
        ecRoot = try root("ec root", .ec(.p384), name(.country("US"), .organization("attest-harness TEST"),
                                                     .organizationalUnit("Android"), .commonName("TEST Key Attestation CA1")))
        softwareRoot = try root("software root", .ec(.p256), name(
            .country("US"), .stateOrProvince("California"), .locality("Mountain View"), .organization("attest-harness TEST"),
            .organizationalUnit("Android"), .commonName("TEST Android Keystore Software Attestation Root")))

        let shortLived = (time - 30 * 86_400, time + 60 * 86_400)
        factoryIntermediate = try Self.authority(seed, "factory intermediate", .ec(.p384), under: rsaRoot,
                                                 subject: name(.serialNumber(hex(try serial("factory intermediate name"))), .title("TEE")),
                                                 validity: Self.rootValidity, pathLength: nil)
        factoryBatch = try Self.authority(seed, "factory batch", .ec(.p256), under: factoryIntermediate,
                                          subject: name(.serialNumber(hex(try serial("factory batch name"))), .title("TEE")),
                                          validity: Self.rootValidity, pathLength: nil)
        rkpCA2 = try Self.authority(seed, "rkp ca2", .ec(.p384), under: ecRoot,
                                    // Named exactly as real ones: android/keyattestation tells an RKP chain by this
                                    // name alone (KeyAttestationCertPath.isRemoteProvisioned). CA3 and the root keep
                                    // the TEST marker.
                                    subject: name(.organization("Google LLC"), .commonName("Droid CA2")),
                                    validity: Self.rootValidity, pathLength: 2)
        rkpCA3 = try Self.authority(seed, "rkp ca3", .ec(.p256), under: rkpCA2,
                                    subject: name(.commonName("TEST Droid CA3"), .organization("attest-harness TEST")),
                                    validity: shortLived, pathLength: nil)
        let provisioningInfo = CertificateExtension(
            oid: "1.3.6.1.4.1.11129.2.1.30",
            value: DERElement.octetString(CBORWriter.encode(.map([CBORMapEntry(.int(1), .int(64)),
                                                                   CBORMapEntry(.int(3), "attest-harness TEST")]))).serialized)
        rkpAttestationKey = try Self.authority(
            seed, "rkp attestation key", .ec(.p256), under: rkpCA3,
            subject: name(.organization("TEE"), .commonName(hex(try seed.bytes("rkp attestation name", count: 16)))),
            validity: (time - 7 * 86_400, time + 7 * 86_400), pathLength: nil, extra: [provisioningInfo])
        softwareIntermediate = try Self.authority(
            seed, "software intermediate", .ec(.p256), under: softwareRoot,
            subject: name(.country("US"), .stateOrProvince("California"), .organization("attest-harness TEST"),
                          .organizationalUnit("Android"), .commonName("TEST Android Keystore Software Attestation Intermediate")),
            validity: Self.rootValidity, pathLength: nil)
    }

    static func authority(_ seed: ForgeSeed, _ label: String, _ algorithm: KeyAlgorithm, under issuer: Authority,
                          subject: X509Name, validity: (Date, Date), pathLength: Int64?,
                          extra: [CertificateExtension] = []) throws -> Authority {
        try issuer.subordinate(subject: subject, key: try seed.key(algorithm, "android \(label)"),
                               serial: try seed.bytes("android serial \(label)", count: 8), validity: validity,
                               pathLength: pathLength, extra: extra)
    }
}
