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

    /// True when the certificate's keyUsage (RFC 5280 §4.2.1.3) asserts keyCertSign (bit 5).
    static func signsCertificates(_ certificate: X509Certificate) -> Bool {
        guard let value = certificate.extension("2.5.29.15")?.value,
              let bits = (try? DERReader.parse(value))?.primitiveBytes, bits.count >= 2 else { return false }
        return bits[1] & 0x04 != 0
    }

    /// True when the certificate's basic constraints say cA TRUE.
    static func isCA(_ certificate: X509Certificate) -> Bool {
        guard let value = certificate.extension("2.5.29.19")?.value,
              var fields = try? DERReader.parse(value).contents() else { return false }
        return (fields.next(ifIdentifier: .boolean).flatMap { try? $0.booleanValue() }) ?? false
    }

    /// The family rules that judge validity faults `chain.validity` would otherwise judge, where a family's
    /// certificates are dated or kept in a way RFC 5280 does not foresee (Android: dates the device writes, factory
    /// keys that cannot be rotated).
    struct ValidityRules: Hashable, Sendable {
        /// Judges the leaf's expiry and not-yet-valid.
        var leaf: RuleID?
        /// Judges the expiry (not the not-yet-valid) of every certificate above the leaf, the trust anchor included.
        var expiryAboveLeaf: RuleID?

        static let none = ValidityRules()

        var rules: [RuleID] { [leaf, expiryAboveLeaf].compactMap { $0 } }
    }

    /// Verifies the path to `anchors` (by default the case's trust anchors); anchors named by FIDO metadata may be
    /// intermediates. A certificate in `authorityRules` that issues another without being a CA (cA FALSE, no
    /// keyCertSign, path length) breaks the rule given there instead of `chain.basicConstraints`, and a validity
    /// fault `validityRules` names breaks its rule instead of `chain.validity`: a family whose device-written
    /// certificates RFC 5280 does not describe says which of its own rules judges them. The outcome is memoised by
    /// the exact bytes of every certificate, the time and the enforced rules (`verdicts`): OpenSSL's answer depends
    /// on nothing else.
    static func verify(leaf: X509Certificate, intermediates: [X509Certificate], policy: Policy,
                       metadataAnchors: [X509Certificate]? = nil, authorityRules: [X509Certificate: RuleID] = [:],
                       validityRules: ValidityRules = .none) throws {
        let candidates = [RuleID.chainTrustAnchor, .chainValidity, .chainBasicConstraints]
            + Set(authorityRules.values).union(validityRules.rules).sorted { $0.rawValue < $1.rawValue }
        let enforced = candidates.filter(policy.enforces)
        guard !enforced.isEmpty else { return }
        let anchors = metadataAnchors ?? policy.trustAnchors
        let query = PathQuery(leaf: ExactBytes(leaf.der), intermediates: intermediates.map { ExactBytes($0.der) },
                              anchors: anchors.map { ExactBytes($0.der) },
                              time: Int64(policy.context.time.timeIntervalSince1970.rounded(.down)),
                              partial: metadataAnchors != nil, enforced: enforced,
                              authorityRules: Dictionary(uniqueKeysWithValues: authorityRules.map { (ExactBytes($0.key.der), $0.value) }),
                              validityRules: validityRules)
        func rule(for code: Int32, at certificate: X509Certificate?) -> RuleID {
            let rule = Self.rule(for: code)
            switch rule {
            case .chainBasicConstraints:
                guard let certificate, let own = authorityRules[certificate] else { return rule }
                return own
            case .chainValidity:
                if certificate == leaf { return validityRules.leaf ?? rule }
                return code == ChainVerificationError.certificateExpired ? validityRules.expiryAboveLeaf ?? rule : rule
            default:
                return rule
            }
        }
        let outcome = try verdicts.value(for: query) { () throws -> PathOutcome in
            var failing: RuleID?
            do {
                try ChainVerifier(trustAnchors: anchors, allowsIntermediateAnchors: metadataAnchors != nil).verify(
                    leaf: leaf, intermediates: intermediates, at: policy.context.time,
                    toleratingAt: { code, certificate in
                        let rule = rule(for: code, at: certificate)
                        if enforced.contains(rule) { failing = rule; return false }
                        return true
                    })
                return PathOutcome(failure: nil, rule: nil)
            } catch let error as ChainVerificationError {
                return PathOutcome(failure: error, rule: failing ?? Self.rule(for: error.code))
            }  // anything else (OpenSSL could not start) propagates and is not remembered
        }
        if let failure = outcome.failure, let rule = outcome.rule {
            throw RuleViolation(rule: rule, reason: "certificate chain: \(failure)")
        }
    }

    /// Everything `X509_verify_cert`'s answer depends on, as bytes.
    struct PathQuery: Hashable, Sendable {
        let leaf: ExactBytes
        let intermediates: [ExactBytes]
        let anchors: [ExactBytes]
        let time: Int64
        let partial: Bool
        let enforced: [RuleID]
        let authorityRules: [ExactBytes: RuleID]
        let validityRules: ValidityRules

        /// The certificate bytes it holds, for the memo's byte bound.
        var byteCount: Int {
            leaf.count + intermediates.reduce(0) { $0 + $1.count } + anchors.reduce(0) { $0 + $1.count }
                + authorityRules.keys.reduce(0) { $0 + $1.count }
        }
    }

    struct PathOutcome: Sendable {
        let failure: ChainVerificationError?
        /// The rule `failure` breaks.
        let rule: RuleID?
    }

    static let verdicts = Memo<PathQuery, PathOutcome>(capacity: 512, size: { query, _ in query.byteCount })
}
