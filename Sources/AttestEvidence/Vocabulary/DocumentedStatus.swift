import AttestConformance

/// The answers documented APIs give when a rule fails: what a verifier's `Verdict.status` must say, and what the
/// catalogue puts in `Step.expectedStatus`.
public enum DocumentedStatus {
    /// The API error a complete request gets for a violation of `rule` (docs/protocols/passkey-import.md §7): 100011
    /// challenge, 100004 cap, 999995 validation, 999998 duplicate credential id, otherwise 100012 with the failing
    /// step.
    public static func importAPIError(for rule: RuleID) -> String {
        switch rule {
        case .importChallengeKnown, .importChallengeLifetime, .importChallengeConsumedOnFailure: return "100011"
        case .importPasskeyCap: return "100004"
        case .importCredentialIdLength, .importProofMembers: return "999995"
        case .importCredentialIdUnique: return "999998"
        case .appAttestNonce, .androidChallenge: return "100012 NONCE"
        case .importProofBinding, .importProofPublicKeyHash, .importProofSignature: return "100012 PROOF"
        case .chainTrustAnchor, .chainValidity, .chainBasicConstraints, .chainRevoked, .chainSuspended, .androidChainLength,
             .androidChainOrder, .androidChainAttestationKeyIsCA, .androidChainFactoryExpiry, .androidChainLeafValidity,
             .appAttestCertificateList:
            return "100012 CHAIN"
        case .androidPackage, .androidSigningDigest, .appAttestRpIdHash, .appAttestAAGUID: return "100012 APP"
        case .importKey, .androidAlgorithm, .androidCurve, .androidNoAuthRequired, .androidUserAuthType, .androidAuthTimeout,
             .androidSecurityLevel, .androidOrigin, .androidRootOfTrust, .androidDeviceLocked, .androidVerifiedBootState,
             .androidAllApplications, .androidPurpose:
            return "100012 POLICY"
        default: return "100012 ATTESTATION"
        }
    }

    /// Device failures answer 403, account-token failures 401 (docs/protocols/per-request-device-attestation.md §5),
    /// whatever the rule.
    public static func perRequestStatus(for rule: RuleID, api: PerRequestParameters) -> String {
        rule == .requestAccountToken ? api.accountFailureStatus : api.deviceFailureStatus
    }
}
