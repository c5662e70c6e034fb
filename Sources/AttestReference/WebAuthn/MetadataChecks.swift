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
        let parsed = try ParsedBLOB(blob)
        try policy.require(.webAuthnMetadataSignature, parsed.signatureVerifies(blob),
                           "the metadata BLOB's \(parsed.algorithm) signature does not verify with its x5c[0] certificate")
        let roots = try parameters.metadataRoot.map { try X509Certificate.parseChain(pem: $0) } ?? []
        try policy.require(.webAuthnMetadataChain, (try? ChainVerifier(trustAnchors: roots).verify(
            leaf: parsed.chain[0], intermediates: Array(parsed.chain.dropFirst()), at: policy.context.time)) != nil,
                           "the metadata BLOB's signing certificate does not chain to the metadata root")
        let today = ParsedBLOB.day.string(from: policy.context.time)
        try policy.require(.webAuthnMetadataNextUpdate, parsed.nextUpdate >= today,
                           "the metadata BLOB's nextUpdate \(parsed.nextUpdate) is before \(today): a newer BLOB is due")
        let uuid = FIDOMetadata.uuid(aaguid)
        guard let entry = parsed.entries.first(where: { ($0["aaguid"] as? String)?.lowercased() == uuid }) else {
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
            Data(base64Encoded: text).flatMap { try? X509Certificate(der: Array($0)) }
        }
    }

    /// A BLOB's header chain and payload, read without trusting either.
    struct ParsedBLOB {
        let algorithm: String
        let chain: [X509Certificate]
        let nextUpdate: String
        let entries: [[String: Any]]

        static let day: DateFormatter = {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter
        }()

        /// RS256 (the production BLOB's) or ES256 (raw r || s, RFC 7518 §3.4) with x5c[0]'s key.
        func signatureVerifies(_ blob: String) -> Bool {
            guard let key = try? chain[0].publicKey else { return false }
            switch algorithm {
            case "ES256": return (try? JOSE.verifyES256(blob, key: key)) != nil
            case "RS256":
                let parts = blob.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 3, let signature = Base64URL.decode(String(parts[2])) else { return false }
                return key.verify(signature, for: Array(parts[0...1].joined(separator: ".").utf8), digest: .sha256)
            default: return false
            }
        }

        init(_ blob: String) throws {
            func malformed(_ reason: String) -> RuleViolation { RuleViolation(rule: .webAuthnMetadataSignature, reason: "metadata BLOB: \(reason)") }
            let parts = blob.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let header = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
                  let headerObject = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
                  let payloadObject = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
                throw malformed("not a compact JWS of two JSON objects")
            }
            chain = (headerObject["x5c"] as? [String] ?? []).compactMap { text in
                Data(base64Encoded: text).flatMap { try? X509Certificate(der: Array($0)) }
            }
            guard !chain.isEmpty else { throw malformed("no certificate in x5c") }
            algorithm = headerObject["alg"] as? String ?? ""
            // An ISO date compares as text; one that is not a date sorts before any real one.
            nextUpdate = payloadObject["nextUpdate"] as? String ?? ""
            entries = payloadObject["entries"] as? [[String: Any]] ?? []
        }
    }
}
