import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// The verification procedures of the attestation statement formats (WebAuthn L3 §8), each check under its rule.
enum AttestationStatementVerification {
    /// What a statement proves (§6.5.3 attestation types), for the trust assessment of §7.1 step 24.
    enum Trust {
        /// `none`: nothing.
        case none
        /// Self attestation: signed by the credential key.
        case selfAttestation
        /// Basic or anonymization-CA attestation: a certificate path, attestation certificate first.
        case certificates([X509Certificate])
    }

    static let supportedFormats = [WebAuthnFormat.none, WebAuthnFormat.packed, WebAuthnFormat.androidKey,
                                   WebAuthnFormat.apple, WebAuthnFormat.fidoU2F, WebAuthnFormat.tpm,
                                   WebAuthnFormat.androidSafetyNet]

    /// What every procedure is given (§7.1 step 22): the statement, authenticatorData and the clientDataHash.
    struct Input {
        let statement: CBORChecks.FormatMap
        let authenticatorData: [UInt8]
        let parsed: AuthenticatorData
        let credential: AuthenticatorData.AttestedCredentialData
        /// nil when the COSE_Key held no point on its curve: every comparison with it fails.
        let credentialKey: COSEKey?
        let clientDataHash: [UInt8]
        let policy: Policy

        var signedData: [UInt8] { authenticatorData + clientDataHash }
    }

    static func verify(format: String, statement: CBORValue, _ authenticatorData: [UInt8], _ parsed: AuthenticatorData,
                       credentialKey: COSEKey?, clientDataHash: [UInt8], policy: Policy) throws -> Trust {
        let keys: [String]
        switch format {
        case WebAuthnFormat.none: keys = []
        case WebAuthnFormat.packed, WebAuthnFormat.androidKey: keys = ["alg", "sig", "x5c"]
        case WebAuthnFormat.apple: keys = ["x5c"]
        case WebAuthnFormat.tpm: keys = ["ver", "alg", "x5c", "sig", "certInfo", "pubArea"]
        case WebAuthnFormat.androidSafetyNet: keys = ["ver", "response"]
        default: keys = ["sig", "x5c"]
        }
        guard let attested = parsed.attestedCredentialData else {  // registration parsing requires it
            throw RuleViolation(rule: .webAuthnAuthenticatorData, reason: "no attested credential data")
        }
        let input = Input(statement: try CBORChecks.FormatMap(statement, keys: keys, policy: policy, rule: .webAuthnStatementStructure,
                                                              name: "attStmt", emptyWhenNotAMap: format == WebAuthnFormat.none),
                          authenticatorData: authenticatorData, parsed: parsed, credential: attested,
                          credentialKey: credentialKey, clientDataHash: clientDataHash, policy: policy)
        switch format {
        case WebAuthnFormat.none: return .none
        case WebAuthnFormat.packed: return try packed(input)
        case WebAuthnFormat.androidKey: return try androidKey(input)
        case WebAuthnFormat.apple: return try apple(input)
        case WebAuthnFormat.tpm: return try tpm(input)
        case WebAuthnFormat.androidSafetyNet: return try safetyNet(input)
        default: return try fidoU2F(input)
        }
    }

    /// §8.2: with x5c, the attestation certificate signs and meets §8.2.1; without, the credential key signs.
    static func packed(_ input: Input) throws -> Trust {
        let policy = input.policy
        // A sig that is missing or not a byte string verifies nothing (§8.2 step 2 cannot succeed).
        let present = input.statement.entries.first { $0.key == .text("sig") }?.value.bytesValue
        try policy.require(.webAuthnAttestationSignature, present != nil, "attStmt sig is missing or not a byte string")
        let sent = present ?? []
        guard input.statement.entries.contains(where: { $0.key == .text("x5c") }) else {
            guard let credentialKey = input.credentialKey else {
                try policy.require(.webAuthnAttestationSignature, false,
                                   "self attestation by a credential key that is no point on its curve: nothing verifies under it")
                return .selfAttestation
            }
            let signature = try CeremonyChecks.signatureBytes(sent, for: credentialKey.publicKey, policy: policy,
                                                              rule: .webAuthnStatementSignatureEncoding)
            let algorithm = try input.statement.value("alg").intValue
            try policy.require(.webAuthnAttestationSignature, algorithm == credentialKey.algorithm.rawValue,
                               "self attestation alg \(algorithm.map(String.init) ?? "?") is not the credential key's")
            try policy.require(.webAuthnAttestationSignature, credentialKey.verify(signature, for: input.signedData),
                               "self attestation signature does not verify with the credential key")
            return .selfAttestation
        }
        let certificates = try certificateList(input.statement, policy: input.policy)
        let leaf = certificates[0]
        let algorithm = try statementAlgorithm(input.statement, policy: input.policy)
        let signature = try CeremonyChecks.signatureBytes(sent, for: try leaf.publicKey, policy: policy,
                                                      rule: .webAuthnStatementSignatureEncoding)
        try policy.require(.webAuthnAttestationSignature,
                           verifies(signature, over: input.signedData, key: try leaf.publicKey, algorithm: algorithm),
                           "packed signature does not verify with the attestation certificate under alg \(algorithm.rawValue)")

        // §8.2.1 certificate requirements.
        let fields = try CertificateFields(der: leaf.der)
        let subject = try X509Name(der: leaf.subjectDER)
        func attribute(_ oid: DERObjectIdentifier) -> String? {
            subject.attributes.first { $0.type == oid }.flatMap { try? $0.value.stringValue() }
        }
        try policy.require(.webAuthnPackedCertificate, fields.version == 2, "the attestation certificate is not X.509 v3")
        try policy.require(.webAuthnPackedCertificate, attribute("2.5.4.11") == WebAuthnFormat.packedOrganizationalUnit,
                           "subject OU is \(attribute("2.5.4.11").map { "\"\($0)\"" } ?? "absent"), not \"Authenticator Attestation\"")
        let country = attribute("2.5.4.6")
        try policy.require(.webAuthnPackedCertificate, country.map { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isUppercase } } ?? false,
                           "subject C is \(country.map { "\"\($0)\"" } ?? "absent"), not an ISO 3166 code")
        for (oid, name) in [("2.5.4.10" as DERObjectIdentifier, "O"), ("2.5.4.3", "CN")] {
            try policy.require(.webAuthnPackedCertificate, attribute(oid) != nil, "subject lacks \(name)")
        }
        try policy.require(.webAuthnPackedCertificate, !ChainChecks.isCA(leaf), "the attestation certificate says cA TRUE")
        if let value = leaf.extension(WebAuthnFormat.aaguidExtension)?.value {
            let aaguid = try? DERReader.parse(value).octetStringValue()
            try policy.require(.webAuthnPackedAAGUID, aaguid == input.credential.aaguid,
                               "id-fido-gen-ce-aaguid \(aaguid.map(hex) ?? "malformed") is not the AAGUID \(hex(input.credential.aaguid))")
        }
        return .certificates(certificates)
    }

    /// §8.4: the credential certificate's key signs and is the credential key; its KeyDescription binds the
    /// clientDataHash, and (from either list) origin GENERATED, purpose SIGN, no allApplications.
    static func androidKey(_ input: Input) throws -> Trust {
        let policy = input.policy
        let certificates = try certificateList(input.statement, policy: input.policy)
        let leaf = certificates[0]
        let algorithm = try statementAlgorithm(input.statement, policy: input.policy)
        try policy.require(.webAuthnAttestationSignature,
                           verifies(try input.statement.bytes("sig"), over: input.signedData, key: try leaf.publicKey, algorithm: algorithm),
                           "android-key signature does not verify with the credential certificate's key under alg \(algorithm.rawValue)")
        try policy.require(.webAuthnAndroidKeyPublicKey, leaf.subjectPublicKeyInfo == input.credentialKey?.publicKey.spki,
                           "the credential certificate's key is not the credential public key")
        guard let value = leaf.extension(KeyDescription.extensionOID)?.value else {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "the android-key credential certificate has no KeyDescription")
        }
        let description: KeyDescription
        do {
            description = try KeyDescription(der: value, options: .lenient)
        } catch {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "KeyDescription: \(error)")
        }
        try policy.require(.webAuthnAndroidKeyChallenge, description.attestationChallenge == input.clientDataHash,
                           "attestationChallenge \(hex(description.attestationChallenge)) is not the clientDataHash")
        let lists = [description.hardwareEnforced, description.softwareEnforced]
        try policy.require(.androidAllApplications, !lists.contains { $0.contains(.allApplications) }, "allApplications is present")
        let origin = lists.lazy.compactMap { $0.integer(.origin) }.first
        try policy.require(.androidOrigin, origin == KeyMintValues.originGenerated,
                           "origin is \(origin.map(String.init) ?? "absent"), not GENERATED")
        let purposes = lists.flatMap { $0.integerSet(.purpose) ?? [] }
        try policy.require(.androidPurpose, purposes.contains(KeyMintValues.purposeSign), "purpose \(purposes) lacks SIGN")
        return .certificates(certificates)
    }

    /// §8.8: the credential certificate carries nonce = SHA-256(authenticatorData || clientDataHash) and the
    /// credential key.
    static func apple(_ input: Input) throws -> Trust {
        let policy = input.policy
        let certificates = try certificateList(input.statement, policy: input.policy)
        let leaf = certificates[0]
        let nonce: [UInt8]? = leaf.extension(WebAuthnFormat.appleNonceExtension).flatMap { element in
            guard var sequence = try? DERReader.parse(element.value).contents(),
                  let tagged = try? sequence.next().explicitlyTagged(1) else { return nil }
            return try? tagged.octetStringValue()
        }
        try policy.require(.webAuthnAppleNonce, nonce == sha256(input.signedData),
                           "the nonce extension is \(nonce.map(hex) ?? "absent or malformed"), not SHA-256(authenticatorData || clientDataHash)")
        try policy.require(.webAuthnApplePublicKey, leaf.subjectPublicKeyInfo == input.credentialKey?.publicKey.spki,
                           "the credential certificate's key is not the credential public key")
        return .certificates(certificates)
    }

    /// §8.6: exactly one certificate with a P-256 key; it signs `00 || rpIdHash || clientDataHash || credentialId || 04 x y`.
    static func fidoU2F(_ input: Input) throws -> Trust {
        let policy = input.policy
        let certificates = try certificateList(input.statement, policy: input.policy)
        guard let key = input.credentialKey, let point = try? key.publicKey.x963Point, key.algorithm == .es256 else {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "a fido-u2f credential key is a P-256 key")
        }
        let certificateKey = try? certificates[0].publicKey
        try policy.require(.webAuthnFidoU2FCertificate, certificates.count == 1, "x5c holds \(certificates.count) certificates, not exactly one")
        try policy.require(.webAuthnFidoU2FCertificate, certificateKey?.algorithm == .ec(.p256),
                           "the attestation certificate's key is \(certificateKey.map { "\($0.algorithm)" } ?? "unreadable"), not P-256")
        let signed = [0x00] + input.parsed.rpIdHash + input.clientDataHash + input.credential.credentialId + point
        try policy.require(.webAuthnAttestationSignature,
                           certificateKey?.verify(try input.statement.bytes("sig"), for: signed, digest: .sha256) == true,
                           "fido-u2f signature does not verify with the attestation certificate")
        return .certificates(certificates)
    }

    /// §8.3: pubArea holds the credential key; certInfo is a TPM-generated certification of that pubArea (its Name)
    /// with extraData = hash(authenticatorData || clientDataHash) under alg's hash; the AIK certificate's key signs
    /// certInfo, and that certificate meets §8.3.1.
    static func tpm(_ input: Input) throws -> Trust {
        let policy = input.policy
        guard try input.statement.value("ver").textValue == "2.0" else {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "tpm ver is not \"2.0\"")
        }
        let pubAreaBytes = try input.statement.bytes("pubArea")
        let certInfoBytes = try input.statement.bytes("certInfo")
        let pubArea: TPMStructures.PublicArea
        let certInfo: TPMStructures.Attestation
        do {
            pubArea = try TPMStructures.PublicArea(parsing: pubAreaBytes)
            certInfo = try TPMStructures.Attestation(parsing: certInfoBytes)
        } catch {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "\(error)")
        }
        let certificates = try certificateList(input.statement, policy: input.policy)
        let algorithm = try statementAlgorithm(input.statement, policy: input.policy)
        guard let digest = algorithm.digest, let nameDigest = TPMStructures.nameDigests[pubArea.nameAlg] else {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "tpm alg or pubArea.nameAlg names a hash this verifier lacks")
        }
        // Step 2: the key pubArea's parameters and unique fields describe.
        let certified: PublicKey? = {
            if let curve = pubArea.curve {
                guard let name = TPMStructures.curves[curve], let ecCurve = ECCurve(rawValue: name) else { return nil }
                return try? PublicKey(x963: [0x04] + pubArea.unique[0] + pubArea.unique[1], curve: ecCurve)
            }
            let exponent = pubArea.rsaExponent.map { $0 == 0 ? 65_537 : $0 } ?? 65_537
            return try? PublicKey(rsaModulus: pubArea.unique[0], exponent: withUnsafeBytes(of: exponent.bigEndian, Array.init))
        }()
        try policy.require(.webAuthnTPMPublicArea, certified != nil && certified?.spki == input.credentialKey?.publicKey.spki,
                           "pubArea does not hold the credential public key")
        // Step 4: certInfo.
        try policy.require(.webAuthnTPMCertInfo, certInfo.magic == TPMStructures.Attestation.generatedValue,
                           "certInfo.magic is 0x\(String(certInfo.magic, radix: 16)), not TPM_GENERATED_VALUE")
        try policy.require(.webAuthnTPMCertInfo, certInfo.type == TPMStructures.Attestation.certifyType,
                           "certInfo.type is 0x\(String(certInfo.type, radix: 16)), not TPM_ST_ATTEST_CERTIFY")
        try policy.require(.webAuthnTPMCertInfo, certInfo.extraData == digest.hash(input.signedData),
                           "certInfo.extraData is not the \(digest) hash of authenticatorData || clientDataHash")
        let name = withUnsafeBytes(of: pubArea.nameAlg.bigEndian, Array.init) + nameDigest.hash(pubAreaBytes)
        try policy.require(.webAuthnTPMCertInfo, certInfo.attestedName == name, "certInfo's attested name is not pubArea's Name")
        // Step 5: the AIK signature, then §8.3.1.
        let aik = certificates[0]
        try policy.require(.webAuthnAttestationSignature,
                           verifies(try input.statement.bytes("sig"), over: certInfoBytes, key: try aik.publicKey, algorithm: algorithm),
                           "tpm signature over certInfo does not verify with the AIK certificate under alg \(algorithm.rawValue)")
        try aikCertificateProfile(aik, policy: policy)
        if let value = aik.extension(WebAuthnFormat.aaguidExtension)?.value {
            let aaguid = try? DERReader.parse(value).octetStringValue()
            try policy.require(.webAuthnTPMAAGUID, aaguid == input.credential.aaguid,
                               "id-fido-gen-ce-aaguid \(aaguid.map(hex) ?? "malformed") is not the AAGUID \(hex(input.credential.aaguid))")
        }
        return .certificates(certificates)
    }

    /// §8.3.1: version 3, an empty subject, the TPM's manufacturer, model and version in the subject alternative
    /// name's directoryName ([TPMv2-EK-Profile] §3.2.9), tcg-kp-AIKCertificate in the extended key usage, cA FALSE.
    static func aikCertificateProfile(_ certificate: X509Certificate, policy: Policy) throws {
        let fields = try CertificateFields(der: certificate.der)
        try policy.require(.webAuthnTPMCertificate, fields.version == 2, "the AIK certificate is not X.509 v3")
        let subject = try X509Name(der: certificate.subjectDER)
        try policy.require(.webAuthnTPMCertificate, subject.attributes.isEmpty, "the AIK certificate's subject is not empty")
        let identity = certificate.extension("2.5.29.17").flatMap { tpmIdentity($0.value) } ?? [:]
        let identityOIDs: [DERObjectIdentifier] = ["2.23.133.2.1", "2.23.133.2.2", "2.23.133.2.3"]
        try policy.require(.webAuthnTPMCertificate, identityOIDs.allSatisfy { identity[$0] != nil },
                           "the subject alternative name lacks the TPM manufacturer, model or version")
        let usages: [DERObjectIdentifier] = certificate.extension("2.5.29.37").flatMap { element in
            (try? DERReader.parse(element.value))?.children?.compactMap { try? $0.oidValue() }
        } ?? []
        try policy.require(.webAuthnTPMCertificate, usages.contains("2.23.133.8.3"),
                           "the extended key usage lacks tcg-kp-AIKCertificate (2.23.133.8.3)")
        try policy.require(.webAuthnTPMCertificate, !ChainChecks.isCA(certificate), "the AIK certificate says cA TRUE")
    }

    /// The attributes of the directoryName in a subject alternative name, by type.
    static func tpmIdentity(_ value: [UInt8]) -> [DERObjectIdentifier: String]? {
        guard let names = (try? DERReader.parse(value))?.children else { return nil }
        var identity: [DERObjectIdentifier: String] = [:]
        for name in names where name.identifier == .explicit(4) {
            guard let inner = try? name.explicitlyTagged(4), let rdns = inner.children else { continue }
            for rdn in rdns {
                for attribute in rdn.children ?? [] {
                    guard let parts = attribute.children, parts.count == 2, let oid = try? parts[0].oidValue(),
                          let text = try? parts[1].stringValue() else { continue }
                    identity[oid] = text
                }
            }
        }
        return identity
    }

    /// §8.5: the response is a SafetyNet attestation (a compact JWS) whose nonce is the base64 of
    /// SHA-256(authenticatorData || clientDataHash), signed by an `attest.android.com` certificate; this profile also
    /// requires ctsProfileMatch and a fresh timestampMs, as the SafetyNet documentation advised.
    static func safetyNet(_ input: Input) throws -> Trust {
        let policy = input.policy
        // ver is read for nothing else: a verifier without the structure check reads on past an empty one.
        let version = try input.statement.value("ver").textValue
        guard version != nil else {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "android-safetynet ver is not a text string")
        }
        try policy.require(.webAuthnStatementStructure, version?.isEmpty == false, "android-safetynet ver is empty")
        let responseBytes = try input.statement.bytes("response")
        let response: JOSE.CompactJWS
        do {
            response = try JOSE.CompactJWS(String(decoding: responseBytes, as: UTF8.self))
        } catch {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "android-safetynet response: \(error)")
        }
        guard let certificates = response.certificateChain else {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "android-safetynet response: the header's x5c is not a non-empty list of base64 DER certificates")
        }
        let nonce = Data(sha256(input.signedData)).base64EncodedString()
        try policy.require(.webAuthnSafetyNetNonce, response.payload["nonce"] as? String == nonce,
                           "the response's nonce is not the base64 of SHA-256(authenticatorData || clientDataHash)")
        let leaf = certificates[0]
        let commonName = (try? X509Name(der: leaf.subjectDER))?.attributes.first { $0.type == "2.5.4.3" }.flatMap { try? $0.value.stringValue() }
        try policy.require(.webAuthnSafetyNetCertificate, commonName == WebAuthnFormat.safetyNetHostname,
                           "the response is signed by \(commonName.map { "\"\($0)\"" } ?? "a certificate without a CN"), not attest.android.com")
        try policy.require(.webAuthnAttestationSignature,
                           response.header["alg"] as? String == "RS256" && ((try? leaf.publicKey).map(response.verifies) ?? false),
                           "the response's RS256 signature does not verify with the attest.android.com certificate")
        try policy.require(.webAuthnSafetyNetIntegrity, response.payload["ctsProfileMatch"] as? Bool == true,
                           "ctsProfileMatch is not true")
        let now = policy.context.time.timeIntervalSince1970 * 1000
        let timestamp = (response.payload["timestampMs"] as? NSNumber)?.doubleValue
        try policy.require(.webAuthnSafetyNetTimestamp, timestamp.map { $0 <= now + 10_000 && $0 >= now - 60_000 } ?? false,
                           "timestampMs \(timestamp.map { String(Int64($0)) } ?? "absent") is not within the last minute of \(Int64(now))")
        return .certificates(certificates)
    }

    /// The statement's alg. An integer alg this verifier cannot compute fails closed under the signature rule
    /// (go-webauthn PR #760: an unknown hash failed open); a verifier without that rule falls back to ES256.
    /// Whether `signature` verifies over `data` with `key` under `algorithm`: §8.2 step 2, §8.3 step 5 and §8.4
    /// step 2 verify "using the [certificate's] public key ... with the algorithm specified in alg", so an alg of
    /// another key type or curve than the key's cannot verify (OpenSSL alone would check by the key's own type and
    /// accept an ECDSA signature labelled RS256; a hunt found this).
    static func verifies(_ signature: [UInt8], over data: [UInt8], key: PublicKey, algorithm: COSEKey.Algorithm) -> Bool {
        let fits: Bool
        switch key.algorithm {
        case .ec(let curve): fits = curve.coseAlgorithm == algorithm.rawValue
        case .rsa: fits = COSEKey.Algorithm.rsaFamily.contains(algorithm)
        case .ed25519: fits = algorithm == .edDSA || algorithm == .ed25519
        case .ed448: fits = algorithm == .edDSA || algorithm == .ed448
        }
        return fits && COSEKey(algorithm: algorithm, publicKey: key).verify(signature, for: data)
    }

    static func statementAlgorithm(_ statement: CBORChecks.FormatMap, policy: Policy) throws -> COSEKey.Algorithm {
        guard let value = statement.entries.first(where: { $0.key == .text("alg") })?.value.intValue else {
            // No algorithm, no signature check (§8.2 step 2): a verifier without that check reads it as ES256.
            try policy.require(.webAuthnAttestationSignature, false, "attStmt alg is missing or not an integer")
            return .es256
        }
        guard let algorithm = COSEKey.Algorithm(rawValue: value) else {
            try policy.require(.webAuthnAttestationSignature, false, "attStmt alg \(value) is not a supported COSE algorithm")
            return .es256
        }
        return algorithm
    }

    /// x5c, attestation certificate first. x5c must list it first and then each certificate's issuer (§8.2, §8.3,
    /// §8.4 syntax: "attestnCert followed by its certificate chain"); a verifier without that check finds the leaf
    /// itself (the certificate that issued none of the others) and follows the issuers from there.
    static func certificateList(_ statement: CBORChecks.FormatMap, policy: Policy) throws -> [X509Certificate] {
        guard let x5c = try statement.value("x5c").arrayValue, !x5c.isEmpty else {
            throw RuleViolation(rule: .webAuthnStatementStructure, reason: "x5c is not a non-empty array")
        }
        let certificates = try x5c.map { element in
            guard let der = element.bytesValue, let certificate = try? Parsed.certificate(der: der) else {
                throw RuleViolation(rule: .webAuthnStatementStructure, reason: "x5c holds something other than a DER certificate")
            }
            return certificate
        }
        var ordered = [ChainChecks.pathLeaf(certificates)]
        var rest = certificates.filter { $0 != ordered[0] }
        while let next = rest.firstIndex(where: { $0.subjectDER == ordered[ordered.count - 1].issuerDER }) {
            ordered.append(rest.remove(at: next))
        }
        ordered += rest
        try policy.require(.webAuthnX5COrder, ordered == certificates,
                           "x5c does not list the attestation certificate first, each followed by its issuer")
        return ordered
    }
}
