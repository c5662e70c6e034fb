import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// An Android attestation as a client submits it: the chain, the public key it claims, and the server's side of
/// the exchange (challenge, status list); the baseline every Android case mutates.
public struct AndroidScenario: Sendable {
    public var attestation: AndroidAttestationBlueprint
    /// The key the client submits beside the chain.
    public var submittedKey: PublicKey
    /// The challenge the server issued.
    public var challenge: [UInt8]
    public var statusList: AttestationStatusList
    /// Certificates appended after the root (extra length).
    public var appended: [X509Certificate] = []
    /// Reverse the chain (root first).
    public var reversed = false
    /// Send the chain in this order: indices into the correct chain, leaf 0 to root (before `appended`).
    public var order: [Int]?
    /// Leave the root out (a verifier that pins it by subject and key needs no copy).
    public var withoutRoot = false
    /// ATTEST_KEY (AOSP KeyCreationResult case 2): the leaf is issued by this app attestation key, whose own
    /// certificate (keyCertSign, a KeyDescription with `attestKeyPurposes`) the device chain issued.
    public var attestKey: PrivateKey?
    public var attestKeyPurposes: [Int64] = [KeyMintValues.purposeAttestKey]
    /// The challenge the app attestation key was generated under (another ceremony than the leaf's).
    public var attestKeyChallenge: [UInt8] = Array("attest key generation".utf8)
    /// Issue the chain from this PKI instead (same names, other keys).
    public var attackerPKI: AndroidPKI?
    /// Re-issue the CA at this index above the leaf (0 is the nearest) as expired.
    public var expiredAuthority: Int?
    /// Re-issue the CA at this index above the leaf (0 is the nearest) as an end entity: basicConstraints cA FALSE,
    /// keyUsage digitalSignature alone, as older factory keyboxes issue their attestation key certificate.
    public var endEntityAuthority: Int?
    /// Re-issue the first CA above the leaf with a KeyDescription extension (`keyDescriptionAuthority` 0).
    public var keyDescriptionOnIntermediate = false
    /// Re-issue the CA at this index above the leaf (0 is the nearest) with a KeyDescription extension.
    public var keyDescriptionAuthority: Int?
    /// Chain extension: put in front a leaf for this key, signed by the attested key.
    public var extensionKey: PrivateKey?
    /// Issue the leaf straight from the root and send it alone.
    public var leafOnly = false
    /// Issue the leaf straight from the root and send the two.
    public var leafAndRoot = false
    /// Transforms the KeyDescription bytes before they go into the leaf (malformed encodings).
    public var keyDescriptionBytes: (@Sendable ([UInt8]) -> [UInt8])?

    /// Lists `certificate` in the status list.
    public mutating func revoke(_ certificate: X509Certificate, _ status: AttestationStatusList.Status) {
        statusList.entries[AttestationStatusList.key(serialNumber: certificate.serialNumber)] =
            .init(status: status, reason: .keyCompromise)
    }

    /// Changes the attestationApplicationId in softwareEnforced.
    public mutating func setApplication(_ change: (inout AttestationApplicationId) -> Void) {
        guard var application = attestation.keyDescription.softwareEnforced.attestationApplicationId else { return }
        change(&application)
        attestation.keyDescription.softwareEnforced.set(.attestationApplicationId, .attestationApplicationId(application))
    }

    public func render(pki: AndroidPKI) throws -> [X509Certificate] {
        var blueprint = attestation
        var authorities = AndroidAttestationBlueprint.authorities(blueprint.shape, in: attackerPKI ?? pki)
        if let index = keyDescriptionAuthority ?? (keyDescriptionOnIntermediate ? 0 : nil) {
            authorities[index] = try Self.reissue(authorities[index], under: authorities[index + 1], extra: [
                CertificateExtension(oid: KeyDescription.extensionOID, value: blueprint.keyDescription.der),
            ])
        }
        if let index = expiredAuthority {
            authorities[index] = try Self.reissue(authorities[index], under: authorities[index + 1],
                                                  validity: (ForgeSeed.referenceTime - 90 * 86_400, ForgeSeed.referenceTime - 86_400))
        }
        if let index = endEntityAuthority {
            let flags: Set<DERObjectIdentifier> = ["2.5.29.19", "2.5.29.15"]
            authorities[index] = try Self.reissue(authorities[index], under: authorities[index + 1], extensions:
                [.basicConstraints(ca: false), .keyUsage([.digitalSignature])]
                    + authorities[index].certificate.extensions.filter { !flags.contains($0.oid) })
        }
        if let attestKey {
            var description = blueprint.keyDescription
            description.attestationChallenge = attestKeyChallenge
            description.hardwareEnforced.set(.purpose, .integerSet(attestKeyPurposes))
            let certificate = try CertificateAuthority.issue(
                serial: [0x0a], subject: X509Name([.commonName("App Attestation Key"), .organization("attest-harness TEST")]),
                key: attestKey.publicKey, issuer: try authorities[0].name, signer: authorities[0].key,
                validity: blueprint.leafValidity, extensions: [
                    // As KeyMint's reference TA writes it: keyCertSign for an ATTEST_KEY purpose, and then
                    // basicConstraints cA TRUE.
                    .keyUsage([.keyCertSign]), .basicConstraints(ca: true),
                    CertificateExtension(oid: KeyDescription.extensionOID, value: description.der),
                ])
            authorities.insert(AndroidPKI.Authority(certificate: certificate, key: attestKey), at: 0)
        }
        blueprint.keyDescriptionOverride = keyDescriptionBytes.map { $0(blueprint.keyDescription.der) }
        if leafOnly { return [try blueprint.render(authorities: [authorities[authorities.count - 1]])[0]] }
        if leafAndRoot { return try blueprint.render(authorities: [authorities[authorities.count - 1]]) }
        var chain = try blueprint.render(authorities: authorities)
        if let extensionKey {
            // Another subject than the attested leaf's, or the forged leaf would look self-issued.
            let subject = X509Name([.commonName("Android Keystore Key"), .organizationalUnit("chain extension")])
            let forged = try CertificateAuthority.issue(
                serial: [1], subject: subject, key: extensionKey.publicKey, issuer: blueprint.leafSubject,
                signer: blueprint.key, validity: blueprint.leafValidity,
                extensions: chain[0].extensions)
            chain.insert(forged, at: 0)
        }
        if let order, order.sorted() == Array(chain.indices) { chain = order.map { chain[$0] } }
        if withoutRoot { chain.removeLast() }
        chain += appended
        return reversed ? chain.reversed() : chain
    }

    /// `authority` issued again by `issuer`, with other validity, more extensions or other extensions.
    static func reissue(_ authority: AndroidPKI.Authority, under issuer: AndroidPKI.Authority,
                        validity: (Date, Date)? = nil, extra: [CertificateExtension] = [],
                        extensions: [CertificateExtension]? = nil) throws -> AndroidPKI.Authority {
        let certificate = authority.certificate
        let reissued = try CertificateAuthority.issue(
            serial: certificate.serialNumber, subject: try X509Name(der: certificate.subjectDER),
            key: authority.key.publicKey, issuer: try X509Name(der: issuer.certificate.subjectDER), signer: issuer.key,
            validity: validity ?? (certificate.notBefore, certificate.notAfter),
            extensions: (extensions ?? certificate.extensions) + extra)
        return AndroidPKI.Authority(certificate: reissued, key: authority.key)
    }
}

/// Forges Android scenarios for one app from a seed.
public struct AndroidForge: Sendable {
    public let seed: ForgeSeed
    public let pki: AndroidPKI
    public let packageName: String
    public let signatureDigest: [UInt8]
    public let time: Date

    public init(seed: ForgeSeed, packageName: String, signatureDigest: [UInt8], time: Date = ForgeSeed.referenceTime) throws {
        self.seed = seed
        pki = try AndroidPKI(seed: seed, time: time)
        self.packageName = packageName
        self.signatureDigest = signatureDigest
        self.time = time
    }

    /// An attacker's PKI: the same names (roots and Droid CAs), other keys.
    public func attackerPKI() throws -> AndroidPKI { try AndroidPKI(seed: ForgeSeed(seed.value ^ 0xA77A_C4E5_A77A_C4E5), time: time) }

    public func key(_ label: String) throws -> PrivateKey { try seed.key(.ec(.p256), "android \(label)") }

    /// A valid attestation of a generated EC P-256 signing key in the TEE of a locked, verified device.
    public func scenario(shape: AndroidAttestationBlueprint.Shape = .remotelyProvisioned,
                         statusList: AttestationStatusList = AttestationStatusList()) throws -> AndroidScenario {
        let key = try key("attested key")
        let challenge = try seed.bytes("android challenge", count: 32)
        let description = AndroidAttestationBlueprint.typicalKeyDescription(
            challenge: challenge, packageName: packageName, signingCertificateDigest: signatureDigest, creationTime: time)
        return AndroidScenario(attestation: AndroidAttestationBlueprint(shape: shape, key: key, keyDescription: description),
                               submittedKey: key.publicKey, challenge: challenge, statusList: statusList)
    }
}
