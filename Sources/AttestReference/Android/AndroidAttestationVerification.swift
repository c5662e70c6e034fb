import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// Android key attestation checks (developer.android.com/privacy-and-security/security-key-attestation), each under its
/// rule id.
enum AndroidAttestationVerification {
    /// The app and status list, read once per distinct parameter set (the status list is JSON to decode).
    static func app(_ policy: Policy) throws -> AndroidParameters {
        try parsedParameters.value(for: policy.context.parameters) { try AndroidParameters(policy.parameters) }
    }

    private static let parsedParameters = Memo<[String: String], AndroidParameters>(capacity: 64, size: { parameters, _ in 2 * parameters.byteCount })

    static func verify(_ step: VerifierStep, policy: Policy) throws {
        let submittedKey = try step.input(.publicKey)
        let challenge = try step.input(.challenge)
        let app = try Self.app(policy)
        let packageName = app.packageName, signatureDigest = app.signatureDigest
        guard let statusList = app.statusList else {
            throw ParameterError(name: "attestationStatusList", value: nil, expected: "the status list JSON")
        }

        // The chain: DER certificates back to back, leaf first.
        let certificates: [X509Certificate]
        do {
            certificates = try DERReader.parseSequence(try step.input(.certificateChain)).map { try Parsed.certificate(der: $0.serialized) }
        } catch {
            throw RuleViolation(rule: .androidChainLength, reason: "certificateChain is not a sequence of DER certificates: \(error)")
        }
        guard !certificates.isEmpty else { throw RuleViolation(rule: .androidChainLength, reason: "the chain is empty") }
        try policy.require(.androidChainLength, (2...8).contains(certificates.count),
                           "the chain has \(certificates.count) certificates, not 2 to 8")
        try policy.require(.androidChainThreeOrMore, certificates.count >= 3, "the chain has \(certificates.count) certificates, fewer than 3")
        let leaf = try Self.leaf(certificates, policy: policy)
        if let last = certificates.last {
            try policy.require(.androidChainIncludesRoot, last.issuerDER == last.subjectDER,
                               "the chain ends in \(last.subject), not in a self-issued root")
        }
        // The root: the chain's last certificate when self-issued, and every trust anchor named as the issuer of the
        // top certificate below it, so that leaving the root out (or sending a look-alike) skips no lookup.
        let rootCopy = certificates.count > 1 && certificates[certificates.count - 1].issuerDER == certificates[certificates.count - 1].subjectDER
            ? certificates.last : nil
        let top = rootCopy == nil ? certificates.last : certificates[certificates.count - 2]
        try ChainChecks.verify(leaf: leaf, intermediates: certificates.filter { $0 != leaf }, policy: policy,
                               authorityRules: Self.authorityRules(leaf: leaf, in: certificates),
                               validityRules: .init(leaf: .androidChainLeafValidity,
                                                    expiryAboveLeaf: top.map(Self.isFactoryIntermediate) == true ? .androidChainFactoryExpiry : nil))
        let roots = [rootCopy].compactMap { $0 } + policy.trustAnchors.filter { $0.subjectDER == top?.issuerDER }
        for root in roots where statusList.entry(serialNumber: root.serialNumber)?.status == .revoked {
            try policy.require(.chainRootRevoked, false, "the root \(root.subject) (serial \(hex(root.serialNumber))) is REVOKED")
        }
        for certificate in certificates where certificate != rootCopy {
            switch statusList.entry(serialNumber: certificate.serialNumber)?.status {
            case .revoked?:
                try policy.require(.chainRevoked, false, "\(certificate.subject) (serial \(hex(certificate.serialNumber))) is REVOKED")
            case .suspended?:
                try policy.require(.chainSuspended, false, "\(certificate.subject) (serial \(hex(certificate.serialNumber))) is SUSPENDED")
            case nil:
                break
            }
        }
        for root in roots where statusList.entry(serialNumber: root.serialNumber)?.status == .suspended {
            try policy.require(.chainSuspended, false, "the root \(root.subject) (serial \(hex(root.serialNumber))) is SUSPENDED")
        }

        guard let extensionValue = leaf.extension(KeyDescription.extensionOID)?.value else {
            throw RuleViolation(rule: .androidKeyDescriptionEncoding, reason: "the leaf has no KeyDescription extension")
        }
        // The schema's shape first; what it leaves to canonical DER and repeated tags have rules of their own.
        var options: KeyDescription.Options = policy.enforces(.androidKeyDescriptionEncoding) ? .default : .lenient
        options.allowUnorderedTags = true
        options.allowRepeatedTags = true
        options.der.allowNonCanonicalBooleans = true
        let description: KeyDescription
        do {
            description = reading(try KeyDescription(der: extensionValue, options: options), policy: policy)
        } catch {
            throw RuleViolation(rule: .androidKeyDescriptionEncoding, reason: "KeyDescription: \(error)")
        }
        if policy.enforces(.androidKeyDescriptionStrictDER) {
            var canonical = options
            canonical.allowUnorderedTags = false
            canonical.der.allowNonCanonicalBooleans = false
            do {
                _ = try KeyDescription(der: extensionValue, options: canonical)
            } catch {
                throw RuleViolation(rule: .androidKeyDescriptionStrictDER, reason: "KeyDescription is not canonical DER: \(error)")
            }
        }
        try requireUniqueTags(description, of: "", policy: policy)
        let lists = [("softwareEnforced", description.softwareEnforced), ("hardwareEnforced", description.hardwareEnforced)]
        for (name, list) in lists {
            // allApplications (600) has a rule of its own, whose cases would otherwise be refused here first.
            let unknown = list.fields.map(\.tag).filter {
                !AuthorizationTag.modelledByAndroidKeyattestation.contains($0) && $0 != AuthorizationTag.allApplications.rawValue
            }
            try policy.require(.androidKeyDescriptionKnownTags, unknown.isEmpty,
                               "\(name) carries tag \(unknown.map(String.init).joined(separator: ", ")), which android/keyattestation's parser does not model")
        }
        // An app attestation key (ATTEST_KEY, AOSP KeyCreationResult case 2): the certificate that issued the leaf,
        // with keyCertSign and a KeyDescription of its own.
        // The one sent right after the leaf, as in a chain the device returns (not a look-alike elsewhere).
        let attestKeyCertificate = certificates.dropFirst().first.flatMap { candidate in
            candidate != leaf && candidate.subjectDER == leaf.issuerDER && ChainChecks.signsCertificates(candidate)
                && candidate.extension(KeyDescription.extensionOID) != nil ? candidate : nil
        }
        if let attestKeyCertificate {
            // Its own rules first (a certificate that is not a proper attestation key breaks those whether or not
            // the profile takes ATTEST_KEY chains), then the profile's refusal of the shape.
            try Self.checkAttestKey(attestKeyCertificate, options: options, policy: policy)
            try policy.require(.androidChainAttestKey, false,
                               "the leaf is issued by an app attestation key (ATTEST_KEY) certificate, \(attestKeyCertificate.subject)")
        }
        try policy.require(.androidKeyDescriptionPosition,
                           !certificates.contains {
                               $0 != leaf && $0 != attestKeyCertificate && (ChainChecks.isCA($0) || ChainChecks.signsCertificates($0))
                                   && $0.extension(KeyDescription.extensionOID) != nil
                           },
                           "a CA certificate carries a KeyDescription")
        try policy.require(.androidKeyDescriptionPosition,
                           leaf.extensions.filter { $0.oid == KeyDescription.extensionOID }.count == 1,
                           "the leaf carries more than one KeyDescription")

        let hardware = description.hardwareEnforced
        let software = description.softwareEnforced
        try policy.require(.androidChallenge, description.attestationChallenge == challenge,
                           "attestationChallenge \(hex(description.attestationChallenge)) is not the issued \(hex(challenge))")
        try requireGeneratedInHardware(description, of: "", policy: policy)
        try policy.require(.androidRootOfTrust, hardware.rootOfTrust != nil, "hardwareEnforced has no RootOfTrust")
        if let root = hardware.rootOfTrust {
            try policy.require(.androidDeviceLocked, root.deviceLocked, "the bootloader is unlocked (deviceLocked FALSE)")
            try policy.require(.androidVerifiedBootState, root.verifiedBootState == RootOfTrust.verified,
                               "verifiedBootState is \(root.verifiedBootState), not Verified")
        }
        try policy.require(.androidAllApplications, !hardware.contains(.allApplications) && !software.contains(.allApplications),
                           "allApplications is present")
        try policy.require(.androidPurpose, hardware.integerSet(.purpose)?.contains(KeyMintValues.purposeSign) == true,
                           "hardwareEnforced.purpose \(hardware.integerSet(.purpose) ?? []) lacks SIGN")
        let application = software.attestationApplicationId ?? hardware.attestationApplicationId
        try policy.require(.androidPackage, application?.packages.contains { $0.name == Array(packageName.utf8) } == true,
                           "attestationApplicationId does not name \(packageName)")
        try policy.require(.androidSigningDigest, application?.signatureDigests.contains(signatureDigest) == true,
                           "attestationApplicationId lacks the allow-listed signing digest")
        try policy.require(.androidPublicKey, leaf.subjectPublicKeyInfo == submittedKey,
                           "the leaf certificate's key is not the submitted key")

        // Key policy.
        let algorithm = hardware.integer(.algorithm)
        try policy.require(.androidAlgorithm, algorithm == KeyMintValues.algorithmEC,
                           "hardwareEnforced.algorithm is \(algorithm.map(String.init) ?? "absent"), not EC")
        if algorithm == KeyMintValues.algorithmEC {
            try policy.require(.androidCurve, hardware.integer(.ecCurve) == KeyMintValues.curveP256,
                               "hardwareEnforced.ecCurve is \(hardware.integer(.ecCurve).map(String.init) ?? "absent"), not P-256")
        }
        try policy.require(.androidNoAuthRequired, !hardware.contains(.noAuthRequired), "noAuthRequired is present")
        if let authType = hardware.integer(.userAuthType) {
            try policy.require(.androidUserAuthType, authType == KeyMintValues.authenticatorFingerprint,
                               "userAuthType \(authType) is not FINGERPRINT only")
        }
        try policy.require(.androidAuthTimeout, !hardware.contains(.authTimeout) && !software.contains(.authTimeout),
                           "authTimeout is present")
    }

    /// True when `top`, the chain's certificate just below the root, is named as factory keyboxes name their
    /// intermediates: with a serialNumber attribute (2.5.4.5) in its subject, as android/keyattestation tells a
    /// factory-provisioned chain (KeyAttestationCertPath.isFactoryProvisioned); a remotely provisioned chain's is
    /// "Droid CA2, Google LLC". A subject that is not DER is not a keybox's.
    static func isFactoryIntermediate(_ top: X509Certificate) -> Bool {
        let serialNumberType: [UInt8] = [0x55, 0x04, 0x05]
        guard let relativeNames = try? DERReader.parse(top.subjectDER).children else { return false }
        return relativeNames.contains { name in
            (name.children ?? []).contains { attribute in
                guard let type = attribute.children?.first, type.identifier == .objectIdentifier else { return false }
                return type.primitiveBytes == serialNumberType
            }
        }
    }

    /// The device's attestation key certificate, which android.chain.attestationKeyIsCA judges instead of
    /// chain.basicConstraints (older factory keyboxes issue it cA FALSE, digitalSignature only): found by walking
    /// issuer names up from `leaf` through the certificates that carry a KeyDescription (the leaf, an app attestation
    /// key's certificate) to the first that carries none. Every other certificate, a KeyDescription certificate that
    /// issues another (chain extension) included, stays under chain.basicConstraints.
    static func authorityRules(leaf: X509Certificate, in certificates: [X509Certificate]) -> [X509Certificate: RuleID] {
        var current = leaf
        for _ in certificates.indices {
            guard current.extension(KeyDescription.extensionOID) != nil,
                  let issuer = certificates.first(where: { $0 != current && $0.subjectDER == current.issuerDER }) else { return [:] }
            if issuer.extension(KeyDescription.extensionOID) == nil { return [issuer: .androidChainAttestationKeyIsCA] }
            current = issuer
        }
        return [:]
    }

    /// The rules an app attestation key's own certificate is still held to: its KeyDescription has the schema's
    /// shape, ATTEST_KEY is its key's only purpose (AOSP KeyPurpose.aidl: 'Keys with this purpose must not have any
    /// other purpose'), and the key was generated in the TEE or StrongBox.
    static func checkAttestKey(_ certificate: X509Certificate, options: KeyDescription.Options, policy: Policy) throws {
        let description: KeyDescription
        do {
            description = reading(try KeyDescription(der: certificate.extension(KeyDescription.extensionOID)?.value ?? [], options: options),
                                  policy: policy)
        } catch {
            throw RuleViolation(rule: .androidKeyDescriptionEncoding, reason: "the attestation key's KeyDescription: \(error)")
        }
        try requireUniqueTags(description, of: "the attestation key's ", policy: policy)
        let purposes = description.hardwareEnforced.integerSet(.purpose) ?? []
        try policy.require(.androidKeyDescriptionPosition, purposes == [KeyMintValues.purposeAttestKey],
                           "\(certificate.subject) carries a KeyDescription, but its key's purposes \(purposes) are not ATTEST_KEY alone")
        try requireGeneratedInHardware(description, of: "the attestation key's ", policy: policy)
    }

    /// `description` as a verifier that lets a tag repeat reads it: the last occurrence wins, as in
    /// android/keyattestation (its parser fills a map tag by tag, so a later value replaces an earlier one). Where
    /// android.keyDescription.uniqueTags holds, a repeated tag is refused before anything reads it.
    static func reading(_ description: KeyDescription, policy: Policy) -> KeyDescription {
        guard !policy.enforces(.androidKeyDescriptionUniqueTags) else { return description }
        var lenient = description
        lenient.softwareEnforced.readsLastOfRepeated = true
        lenient.hardwareEnforced.readsLastOfRepeated = true
        return lenient
    }

    /// android.keyDescription.uniqueTags on both lists of `description` (`owner` prefixes the reason).
    static func requireUniqueTags(_ description: KeyDescription, of owner: String, policy: Policy) throws {
        for (name, list) in [("softwareEnforced", description.softwareEnforced), ("hardwareEnforced", description.hardwareEnforced)] {
            try policy.require(.androidKeyDescriptionUniqueTags, list.repeatedTags.isEmpty,
                               "\(owner)\(name) repeats tag \(list.repeatedTags.map(String.init).joined(separator: ", "))")
        }
    }

    /// android.securityLevel (equal levels, TEE or StrongBox) and android.origin (GENERATED in hardwareEnforced).
    static func requireGeneratedInHardware(_ description: KeyDescription, of owner: String, policy: Policy) throws {
        try policy.require(.androidSecurityLevel,
                           description.attestationSecurityLevel == description.keyMintSecurityLevel
                               && [KeyDescription.trustedEnvironment, KeyDescription.strongBox].contains(description.attestationSecurityLevel),
                           "\(owner)security levels \(description.attestationSecurityLevel)/\(description.keyMintSecurityLevel) are not both TEE or StrongBox")
        let origin = description.hardwareEnforced.integer(.origin)
        try policy.require(.androidOrigin, origin == KeyMintValues.originGenerated,
                           "\(owner)hardwareEnforced.origin is \(origin.map(String.init) ?? "absent"), not GENERATED")
    }

    /// `certificates[0]` once the order is checked (it issued none of the others, and each certificate up to the
    /// self-issued root is issued by the next); without `android.chain.order`, the certificate that issued none of
    /// the others.
    static func leaf(_ certificates: [X509Certificate], policy: Policy) throws -> X509Certificate {
        guard policy.enforces(.androidChainOrder) else { return ChainChecks.pathLeaf(certificates) }
        if certificates.count > 1, certificates[0].issuerDER == certificates[0].subjectDER {
            throw RuleViolation(rule: .androidChainOrder, reason: "the first certificate is a self-issued root, not the leaf")
        }
        if let issued = certificates.dropFirst().first(where: { $0.issuerDER == certificates[0].subjectDER }) {
            throw RuleViolation(rule: .androidChainOrder, reason: "the first certificate, \(certificates[0].subject), issued \(issued.subject): it is not the leaf")
        }
        for (certificate, next) in zip(certificates, certificates.dropFirst()) {
            if certificate.issuerDER == certificate.subjectDER { break }
            guard certificate.issuerDER == next.subjectDER else {
                throw RuleViolation(rule: .androidChainOrder, reason: "\(certificate.subject) is not issued by the next certificate, \(next.subject)")
            }
        }
        return certificates[0]
    }
}
