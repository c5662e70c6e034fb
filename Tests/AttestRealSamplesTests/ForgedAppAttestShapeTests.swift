import AttestCBOR
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation
import Testing

/// Forged App Attest objects have the structure of the 7 real ones: keys, order, lengths, flags and the
/// certificates' extension layout.
@Suite struct ForgedAppAttestShapeTests {
    /// What two attestation objects must share.
    struct Shape: Equatable {
        let topKeys: [CBORValue]
        let statementKeys: [CBORValue]
        let certificateCount: Int
        let authDataLength: Int
        let flags: UInt8
        let signCount: UInt32
        let credentialIdLength: Int
        let coseKeyLength: Int
        let coseKeyLabels: [CBORValue]
        /// (OID, critical) of each certificate's extensions, in order.
        let extensionLayouts: [[String]]
        let signatureAlgorithms: [String]

        init(_ object: [UInt8]) throws {
            let value = try CBORReader.decode(object, options: .ctap2Canonical)
            topKeys = value.mapEntries?.map(\.key) ?? []
            let statement = try #require(value["attStmt"])
            statementKeys = statement.mapEntries?.map(\.key) ?? []
            let certificates = try (statement["x5c"]?.arrayValue ?? []).map { try X509Certificate(der: $0.bytesValue ?? []) }
            certificateCount = certificates.count
            let authData = try #require(value["authData"]?.bytesValue)
            authDataLength = authData.count
            let parsed = try AuthenticatorData(parsing: authData)
            flags = parsed.flags.rawValue
            signCount = parsed.signCount
            credentialIdLength = parsed.attestedCredentialData?.credentialId.count ?? 0
            coseKeyLength = parsed.attestedCredentialData?.credentialPublicKey.count ?? 0
            coseKeyLabels = try CBORReader.decode(parsed.attestedCredentialData?.credentialPublicKey ?? []).mapEntries?.map(\.key) ?? []
            extensionLayouts = certificates.map { $0.extensions.map { "\($0.oid)\($0.critical ? "!" : "")" } }
            signatureAlgorithms = try certificates.map { certificate in
                var fields = try DERReader.parse(certificate.der).contents()
                _ = try fields.next()
                var algorithm = try fields.next().contents()
                return try algorithm.next().oidValue().description
            }
        }
    }

    static func forged() throws -> AppAttestScenario.Rendered {
        try AppAttestForge(seed: .default, appId: "A1B2C3D4E5.dev.attest-harness.example", environment: .development)
            .scenario(assertionCounters: [1]).render()
    }

    @Test(arguments: try RealSamples.appAttestSamples())
    func attestationHasTheRealShape(path: String) throws {
        let real = try Shape(try #require(RealSamples.base64(RealSamples.json(path)["attestationObject"] as? String ?? "")))
        let forged = try Shape(try Self.forged().attestation.attestationObject)
        #expect(forged == real)
        #expect(real.extensionLayouts[0] == ["2.5.29.19!", "2.5.29.15!", "1.2.840.113635.100.8.5", "1.2.840.113635.100.8.7",
                                             "1.2.840.113635.100.8.2"])
    }

    @Test(arguments: try RealSamples.appAttestSamples())
    func assertionHasTheRealShape(path: String) throws {
        let json = try RealSamples.json(path)
        let assertion = try #require((json["assertions"] as? [[String: Any]])?.first?["assertion"] as? String)
        let real = try CBORReader.decode(try #require(RealSamples.base64(assertion)), options: .ctap2Canonical)
        let forged = try CBORReader.decode(try Self.forged().assertions[0].assertion, options: .ctap2Canonical)
        #expect(forged.mapEntries?.map(\.key) == real.mapEntries?.map(\.key))
        let realData = try #require(real["authenticatorData"]?.bytesValue)
        let forgedData = try #require(forged["authenticatorData"]?.bytesValue)
        #expect(forgedData.count == realData.count && forgedData[32] == realData[32])
        #expect(forgedData.suffix(4) == realData.suffix(4))
    }

    @Test func credentialCertificateMirrorsApplesProfile() throws {
        let forged = try Self.forged().attestation
        let certificate = forged.credentialCertificate
        #expect(certificate.subject.hasPrefix("ST=California,O=attest-harness TEST,OU=AAA Certification,CN=\(hex(forged.keyId))"))
        #expect(certificate.serialNumber.count == 6)
        #expect(certificate.notAfter.timeIntervalSince(certificate.notBefore) == 3 * 86_400)
        #expect(certificate.extension("2.5.29.15")?.value == [0x03, 0x02, 0x04, 0xf0])
        #expect(certificate.extension("1.2.840.113635.100.8.2")?.value.prefix(6) == [0x30, 0x24, 0xa1, 0x22, 0x04, 0x20])
    }
}
