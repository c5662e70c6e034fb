import AttestCBOR
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation
import Testing

/// The Android test PKI: three chain shapes with real devices' leaf profile, verifying to the TEST roots.
@Suite struct AndroidForgeTests {
    static let pki = try! AndroidPKI(seed: .default)

    static func blueprint(_ shape: AndroidAttestationBlueprint.Shape) throws -> AndroidAttestationBlueprint {
        let description = AndroidAttestationBlueprint.typicalKeyDescription(
            challenge: Array("server challenge".utf8), packageName: "dev.attest_harness.example",
            signingCertificateDigest: sha256(Array("TEST signing certificate".utf8)), creationTime: ForgeSeed.referenceTime)
        return AndroidAttestationBlueprint(shape: shape, key: try ForgeSeed.default.key(.ec(.p256), "android leaf"),
                                           keyDescription: description)
    }

    @Test(arguments: AndroidAttestationBlueprint.Shape.allCases)
    func chainShapesVerifyToTheirRoot(shape: AndroidAttestationBlueprint.Shape) throws {
        let blueprint = try Self.blueprint(shape)
        let chain = try blueprint.render(pki: Self.pki)
        let expectedCount = [AndroidAttestationBlueprint.Shape.factory: 4, .remotelyProvisioned: 5, .software: 3][shape]
        #expect(chain.count == expectedCount)
        let hardwareAnchors = [Self.pki.rsaRoot.certificate, Self.pki.ecRoot.certificate]
        let verify = { (anchors: [X509Certificate]) in
            try ChainVerifier(trustAnchors: anchors).verify(leaf: chain[0], intermediates: Array(chain.dropFirst()),
                                                            at: ForgeSeed.referenceTime)
        }
        if shape == .software {
            #expect(throws: ChainVerificationError.self) { try verify(hardwareAnchors) }
            try verify([Self.pki.softwareRoot.certificate])
        } else {
            try verify(hardwareAnchors)
        }
        // The leaf looks like a real one and carries the KeyDescription it was given.
        let leaf = chain[0]
        #expect(leaf.subject == "CN=Android Keystore Key")
        #expect(leaf.serialNumber == [1])
        #expect(leaf.notBefore == Date(timeIntervalSince1970: 0))
        #expect(leaf.extension("2.5.29.15") == .keyUsage([.digitalSignature]))
        #expect(try KeyDescription(der: try #require(leaf.extension(KeyDescription.extensionOID)?.value)) == blueprint.keyDescription)
        #expect(try leaf.publicKey == blueprint.key.publicKey)
        #expect(chain.last!.subject.contains("TEST"))
        // Same seed, same bytes.
        #expect(try blueprint.render(pki: AndroidPKI(seed: .default)).map(\.der) == chain.map(\.der))
    }

    @Test func rootsAndProvisioningInfoFollowGooglesProfile() throws {
        #expect(Self.pki.rsaRoot.key.algorithm == .rsa(bits: 4096))
        #expect(Self.pki.ecRoot.key.algorithm == .ec(.p384))
        #expect(Self.pki.rsaRoot.certificate.subject.contains("serialNumber=f92009e853b6b045"))
        let info = try #require(Self.pki.rkpAttestationKey.certificate.extension("1.3.6.1.4.1.11129.2.1.30"))
        let cbor = try CBORReader.decode(try DERReader.parse(info.value).octetStringValue())
        #expect(cbor[1] == .int(64))
    }

    @Test func statusListRoundTripsAndReadsGooglesFormat() throws {
        #expect(AttestationStatusList.key(serialNumber: [0x00, 0x0a, 0xbc]) == "abc")
        #expect(AttestationStatusList.key(serialNumber: [0x00]) == "0")
        let list = AttestationStatusList(entries: [
            "abc": .init(status: .revoked, reason: .keyCompromise),
            "1": .init(status: .suspended, reason: .softwareFlaw, comment: "TEST"),
        ])
        #expect(try AttestationStatusList(json: try list.json) == list)
        #expect(list.entry(serialNumber: [0x0a, 0xbc])?.status == .revoked)
        #expect(list.entry(serialNumber: [0x02]) == nil)
    }
}
