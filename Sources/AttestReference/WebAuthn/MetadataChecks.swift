import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// Attestation trust from a FIDO Metadata Service BLOB (FIDO Metadata Service v3.0 §3.2 processing rules): the BLOB's signature
/// and its signer's chain to the configured metadata root, its nextUpdate, the entry for the authenticator's AAGUID,
/// that entry's latest status, and its attestation roots, which then replace the case's trust anchors.
enum MetadataChecks {
    /// The attestation roots the metadata names for `aaguid`; nil when the case has no metadata, or (in a verifier
    /// without the entry rule) when the BLOB has no entry for it.
    static func attestationRoots(aaguid: [UInt8], parameters: WebAuthnParameters, policy: Policy) throws -> [X509Certificate]? {
        guard let blob = parameters.metadataBLOB else { return nil }
        let parsed: JOSE.CompactJWS
        do {
            parsed = try JOSE.CompactJWS(blob)
        } catch {
            throw RuleViolation(rule: .webAuthnMetadataSignature, reason: "metadata BLOB: \(error)")
        }
        guard let chain = parsed.certificateChain else {
            throw RuleViolation(rule: .webAuthnMetadataSignature, reason: "metadata BLOB: x5c is not a non-empty list of certificates")
        }
        try policy.require(.webAuthnMetadataSignature, (try? chain[0].publicKey).map(parsed.verifies) ?? false,
                           "the metadata BLOB's \(parsed.header["alg"] as? String ?? "unnamed") signature does not verify with its x5c[0] certificate")
        let roots = try parameters.metadataRoot.map { try X509Certificate.parseChain(pem: $0) } ?? []
        try policy.require(.webAuthnMetadataChain, (try? ChainVerifier(trustAnchors: roots).verify(
            leaf: chain[0], intermediates: Array(chain.dropFirst()), at: policy.context.time)) != nil,
                           "the metadata BLOB's signing certificate does not chain to the metadata root")
        // An ISO date compares as text; one that is not a date sorts before any real one.
        let nextUpdate = parsed.payload["nextUpdate"] as? String ?? ""
        let today = FIDOMetadata.day(policy.context.time)
        try policy.require(.webAuthnMetadataNextUpdate, nextUpdate >= today,
                           "the metadata BLOB's nextUpdate \(nextUpdate) is before \(today): a newer BLOB is due")
        let entries = parsed.payload["entries"] as? [[String: Any]] ?? []
        let uuid = FIDOMetadata.uuid(aaguid)
        guard let entry = entries.first(where: { ($0["aaguid"] as? String)?.lowercased() == uuid }) else {
            try policy.require(.webAuthnMetadataEntry, false, "the metadata has no entry for AAGUID \(uuid)")
            return nil
        }
        let statuses = (entry["statusReports"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
        let latest = statuses.last ?? "none"
        try policy.require(.webAuthnMetadataRevoked, !FIDOMetadata.revokingStatuses.contains(latest),
                           "the metadata's latest status for AAGUID \(uuid) is \(latest)")
        try policy.require(.webAuthnMetadataStatus, !FIDOMetadata.compromisedStatuses.contains(latest),
                           "the metadata's latest status for AAGUID \(uuid) is \(latest)")
        let statement = entry["metadataStatement"] as? [String: Any] ?? [:]
        return (statement["attestationRootCertificates"] as? [String] ?? []).compactMap { text in
            Data(base64Encoded: text).flatMap { try? Parsed.certificate(der: Array($0)) }
        }
    }
}
