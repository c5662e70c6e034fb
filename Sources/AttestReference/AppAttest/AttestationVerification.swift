import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence

/// Apple's attestation checks (steps 1-9 of "Validating apps that connect to your server"), each under its rule id.
enum AttestationVerification {
    static func verify(_ step: VerifierStep, policy: Policy, state: inout AppAttestState) throws {
        let keyId = try step.input(.keyId)
        let challenge = try step.input(.challenge)
        let app = try AppAttestParameters(policy.parameters)
        let appId = app.appId, environment = app.environment

        let decoded = try CBORChecks.decode(try step.input(.attestationObject), policy: policy, structureRule: .appAttestStructure, encoding: .appAttest)
        let object = try CBORChecks.FormatMap(decoded, keys: ["fmt", "attStmt", "authData"], policy: policy,
                                              rule: .appAttestStructure, name: "attestation object")
        let format = try object.value("fmt").textValue
        try policy.require(.appAttestFormat, format == AppAttestFormat.format, "fmt is \(format.map { "\"\($0)\"" } ?? "not text")")
        let statement = try CBORChecks.FormatMap(try object.value("attStmt"), keys: ["x5c", "receipt"], policy: policy,
                                                 rule: .appAttestStructure, name: "attStmt")
        guard let x5c = try statement.value("x5c").arrayValue, !x5c.isEmpty else {
            throw RuleViolation(rule: .appAttestStructure, reason: "x5c is not a non-empty array")
        }
        let certificates = try x5c.map { element -> X509Certificate in
            guard let der = element.bytesValue, let certificate = try? Parsed.certificate(der: der) else {
                throw RuleViolation(rule: .appAttestStructure, reason: "x5c holds something other than a DER certificate")
            }
            return certificate
        }

        // Step 1: the chain, credential certificate first.
        let credentialCertificate = try Self.credentialCertificate(certificates, policy: policy)
        try ChainChecks.verify(leaf: credentialCertificate, intermediates: certificates.filter { $0 != credentialCertificate },
                               policy: policy)

        let authDataBytes = try object.bytes("authData")
        let authData: AuthenticatorData
        do {
            authData = try AuthenticatorData(parsing: authDataBytes)
        } catch {
            throw RuleViolation(rule: .appAttestStructure, reason: "authData: \(error)")
        }
        guard let credential = authData.attestedCredentialData else {
            throw RuleViolation(rule: .appAttestStructure, reason: "authData has no attested credential data")
        }

        // Steps 2-4: nonce = SHA-256(authData || SHA-256(challenge)) in the credential certificate.
        let nonce = sha256(authDataBytes + sha256(challenge))
        let embedded = try Self.embeddedNonce(credentialCertificate, policy: policy)
        try policy.require(.appAttestNonce, embedded == nonce,
                           "certificate nonce \(embedded.map(hex) ?? "absent") is not SHA-256(authData || clientDataHash) \(hex(nonce))")

        // Step 5: the key id is SHA-256 of the uncompressed point.
        let point = try? credentialCertificate.publicKey.x963Point
        try policy.require(.appAttestKeyId, point.map(sha256) == keyId,
                           "key id \(hex(keyId)) is not SHA-256 of the certificate's public key")
        // Step 6.
        try policy.require(.appAttestRpIdHash, authData.rpIdHash == sha256(Array(appId.utf8)),
                           "rpIdHash \(hex(authData.rpIdHash)) is not SHA-256(\"\(appId)\")")
        // Step 7.
        try policy.require(.appAttestCounter, authData.signCount == 0, "counter is \(authData.signCount), not 0")
        // Step 8.
        try policy.require(.appAttestAAGUID, credential.aaguid == environment.aaguid,
                           "AAGUID \(hex(credential.aaguid)) is not the \(environment.rawValue) AAGUID")
        // Step 9.
        try policy.require(.appAttestCredentialId, credential.credentialId == keyId,
                           "credentialId \(hex(credential.credentialId)) is not the key id")
        try policy.require(.appAttestCOSEKey, Self.coseKey(credential.credentialPublicKey, matches: point),
                           "the COSE key in authData is not the certificate's key")

        let publicKey = try credentialCertificate.publicKey
        state.keys[keyId] = AppAttestState.AttestedKey(publicKey: publicKey, counter: authData.signCount)
    }

    /// `x5c[0]` when the list must be in Apple's order; otherwise the certificate that issued none of the others,
    /// as a verifier that builds the path itself would pick.
    static func credentialCertificate(_ certificates: [X509Certificate], policy: Policy) throws -> X509Certificate {
        if policy.enforces(.appAttestCertificateList), ChainChecks.isCA(certificates[0]) {
            throw RuleViolation(rule: .appAttestCertificateList,
                                reason: "x5c must start with the credential certificate; got \(certificates.map(\.subject))")
        }
        try policy.require(.appAttestExtraCertificates, certificates.count <= 2,
                           "x5c holds \(certificates.count) certificates, more than the credential certificate and the intermediate")
        return policy.enforces(.appAttestCertificateList) ? certificates[0] : ChainChecks.pathLeaf(certificates)
    }

    /// The nonce from extension 1.2.840.113635.100.8.2. Strictly: one extension holding
    /// `SEQUENCE { [1] EXPLICIT OCTET STRING }`. Without `appattest.nonceEncoding`: the first OCTET STRING found
    /// in the first such extension, however it is wrapped (WA4J's `get(0).get(0)`).
    static func embeddedNonce(_ certificate: X509Certificate, policy: Policy) throws -> [UInt8]? {
        let extensions = certificate.extensions.filter { $0.oid == AppAttestFormat.nonceExtension }
        guard let value = extensions.first?.value else { return nil }
        guard policy.enforces(.appAttestNonceEncoding) else {
            var lenient = DERReader.Options()
            lenient.allowNonMinimalLengths = true
            lenient.allowIndefiniteLengths = true
            return (try? DERReader.parse(value, options: lenient)).flatMap(firstOctetString)
        }
        func violation(_ reason: String) -> RuleViolation { RuleViolation(rule: .appAttestNonceEncoding, reason: reason) }
        guard extensions.count == 1 else { throw violation("the nonce extension appears \(extensions.count) times") }
        do {
            var sequence = try DERReader.parse(value).contents(field: "nonce extension")
            let tagged = try sequence.next("[1]").explicitlyTagged(1, field: "[1]")
            try sequence.finish()
            return try tagged.octetStringValue(field: "nonce")
        } catch let error as DERError {
            throw violation("nonce extension is not SEQUENCE { [1] OCTET STRING }: \(error)")
        }
    }

    static func firstOctetString(_ element: DERElement) -> [UInt8]? {
        if element.identifier == .octetString { return element.primitiveBytes }
        return element.children?.lazy.compactMap(firstOctetString).first
    }

    /// True when the COSE_Key is an EC2 P-256 key with the coordinates of `point`.
    static func coseKey(_ bytes: [UInt8], matches point: [UInt8]?) -> Bool {
        guard let point, point.count == 65, let key = try? CBORReader.decode(bytes) else { return false }
        return key[1] == .int(2) && key[-1] == .int(1)
            && key[-2] == .bytes(Array(point[1...32])) && key[-3] == .bytes(Array(point[33...]))
    }
}
