import AttestEvidence
import AttestConformance
import AttestCrypto
import AttestDER

/// Path validation under a policy: OpenSSL verifies the chain, each failure is attributed to a `chain.*` rule,
/// and failures of rules the policy does not enforce are tolerated, as a verifier without that check would.
enum ChainChecks {
    /// The `chain.*` rule an OpenSSL verification error belongs to.
    static func rule(for code: Int32) -> RuleID {
        switch code {
        case ChainVerificationError.certificateExpired, ChainVerificationError.certificateNotYetValid:
            return .chainValidity
        case ChainVerificationError.invalidCA, ChainVerificationError.keyUsageWithoutCertificateSigning,
             ChainVerificationError.pathLengthExceeded:
            return .chainBasicConstraints
        default:
            return .chainTrustAnchor
        }
    }

    /// The certificate that issued none of the others: the leaf, as a verifier that builds the path itself finds it.
    static func pathLeaf(_ certificates: [X509Certificate]) -> X509Certificate {
        certificates.first { candidate in
            !certificates.contains { $0 != candidate && $0.issuerDER == candidate.subjectDER }
        } ?? certificates[0]
    }

    /// True when the certificate's basic constraints say cA TRUE.
    static func isCA(_ certificate: X509Certificate) -> Bool {
        guard let value = certificate.extension("2.5.29.19")?.value,
              var fields = try? DERReader.parse(value).contents() else { return false }
        return (fields.next(ifIdentifier: .boolean).flatMap { try? $0.booleanValue() }) ?? false
    }

    /// Verifies the path to `anchors` (by default the case's trust anchors); anchors named by FIDO metadata may be
    /// intermediates.
    static func verify(leaf: X509Certificate, intermediates: [X509Certificate], policy: Policy,
                       metadataAnchors: [X509Certificate]? = nil) throws {
        let enforced = [RuleID.chainTrustAnchor, .chainValidity, .chainBasicConstraints].filter(policy.enforces)
        guard !enforced.isEmpty else { return }
        do {
            try ChainVerifier(trustAnchors: metadataAnchors ?? policy.trustAnchors,
                              allowsIntermediateAnchors: metadataAnchors != nil).verify(
                leaf: leaf, intermediates: intermediates, at: policy.context.time,
                tolerating: { !enforced.contains(rule(for: $0)) })
        } catch let error as ChainVerificationError {
            throw RuleViolation(rule: rule(for: error.code), reason: "certificate chain: \(error)")
        }
    }
}
