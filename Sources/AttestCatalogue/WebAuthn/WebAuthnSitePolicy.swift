import AttestConformance
import AttestEvidence

/// A WebAuthn relying party's own choices turned into the profile its cases are judged by. The parameters change
/// what is forged (rp id, origin, algorithms, attestation) and the rules change what is expected:
/// - user verification not `required`: §7.1 step 15 and §7.2 step 17 check the UV flag only "if user verification
///   was determined to be required", and the relying party determines that per ceremony (a site asking
///   `preferred` may still require UV for a passwordless sign-in and not for a second factor), so
///   `webauthn.flags.userVerified` is left to it: either verdict conforms;
/// - attestation `none` or `indirect`, unless the map says it trusts roots or metadata: the relying party asked for
///   no attestation (§5.4.7: with `none` the client may replace any statement by a `none` statement) and holds no
///   roots, so a `none` or self statement is to be accepted (`webauthn.attestation.required` and
///   `webauthn.attestation.self` leave), and what it does with a statement it never asked for is its choice (the
///   note at the end of §7.1: a relying party may treat a credential as unattested): every statement and trust
///   rule is left to it, judged "either verdict conforms", and so is every registration step with a statement
///   other than `none` that breaks no rule itself (it holds none of the roots they chain to: §7.1 step 24 says it SHOULD fail
///   an untrustworthy statement, its note that it MAY register the credential as unattested);
/// - no app origins: the Android app's origin leaves `origins`, android-key and SafetyNet registrations are forged
///   as a browser on Android sends them (with the web origin), and only a case that sends an app origin on purpose
///   cannot reach the site (`MapDriver` reports it unsupported).
extension WebAuthnFamily {
    /// Rules of the ceremony itself, which hold whatever the relying party trusts attestation to.
    static let ceremonyRules: Set<RuleID> = [
        .webAuthnStructure, .webAuthnType, .webAuthnChallenge, .webAuthnChallengeSession, .webAuthnChallengeSingleUse,
        .webAuthnOrigin, .webAuthnCrossOrigin, .webAuthnTopOrigin, .webAuthnRpIdHash, .webAuthnUserPresent,
        .webAuthnUserVerified, .webAuthnBackupState, .webAuthnBackupEligibility, .webAuthnAuthenticatorData, .webAuthnAlgorithm,
        .webAuthnCredentialKeyFit, .webAuthnCredentialIdLength, .webAuthnCredentialIdUnique, .webAuthnCredential,
        .webAuthnOwner, .webAuthnUserHandle, .webAuthnAssertionSignature, .webAuthnSignatureEncoding, .webAuthnSignCount,
        .webAuthnCredentialJSON, .webAuthnCredentialIdBinding,
        // The attestation object's own CBOR encoding (§2.4), read by every relying party whatever it trusts.
        .cborTrailingBytes, .cborDuplicateMapKey, .cborIndefiniteLength,
    ]

    /// What a relying party that asked for no attestation and holds no roots accepts: no statement, a self statement.
    static let acceptedWithoutTrust: Set<RuleID> = [.webAuthnAttestationRequired, .webAuthnSelfAttestation]

    /// `base` as a relying party with `policy` is judged.
    public static func profile(_ base: Profile, following policy: RelyingPartyPolicy) -> Profile {
        var parameters = base.parameters
        var rules = base.rules
        var left = base.leftToRelyingParty
        let current = (parameters["origins"] ?? "").split(separator: ",").map(String.init)
        let currentApp = current.filter { $0.hasPrefix(WebAuthnFormat.androidOriginPrefix) }
        if let rpId = policy.rpId { parameters["rpId"] = rpId }
        var web = current.filter { !$0.hasPrefix(WebAuthnFormat.androidOriginPrefix) }
        if let origins = policy.origins {
            web = origins
        } else if let rpId = policy.rpId, rpId != base.parameters["rpId"] {
            web = ["https://\(rpId)"]
        }
        let app = (policy.appOrigins ?? !currentApp.isEmpty) ? currentApp : []
        parameters["origins"] = (web + app).joined(separator: ",")
        if let algorithms = policy.algorithms { parameters["algorithms"] = algorithms.map(String.init).joined(separator: ",") }
        if let userVerification = policy.userVerification {
            parameters["userVerification"] = userVerification
            if userVerification != "required", rules.remove(.webAuthnUserVerified) != nil { left.insert(.webAuthnUserVerified) }
        }
        if let attestation = policy.attestation {
            parameters["attestation"] = ["direct", "enterprise"].contains(attestation) ? "direct" : "none"
        }
        let trust = policy.trust ?? (parameters["attestation"] == "none" ? .none : .roots)
        if trust == .none {
            parameters["attestation"] = "none"
            parameters["attestationTrust"] = "none"
            rules.subtract(acceptedWithoutTrust)
            let statementRules = rules.filter { !ceremonyRules.contains($0) }
            left.formUnion(statementRules)
            rules.subtract(statementRules)
        }
        let description = base.description + " Judged under the site's policy: " + [
            "rp id \(parameters["rpId"] ?? "")", "origins \(parameters["origins"] ?? "")",
            "algorithms \(parameters["algorithms"] ?? "")", "user verification \(parameters["userVerification"] ?? "")",
            "attestation \(parameters["attestation"] ?? "")", "trust \(trust.rawValue)",
        ].joined(separator: ", ") + "."
        // A profile already derived for a site (a `profile derive` file given back as --profile) keeps its name.
        return Profile(name: base.name.hasSuffix("+site") ? base.name : base.name + "+site", description: description, families: base.families, rules: rules,
                       parameters: parameters, leftToRelyingParty: left)
    }
}

extension BuiltinCatalogue {
    /// The profile a relying party with `policy` is judged by, derived from `base` by the family of `family`.
    public static func profile(_ base: Profile, following policy: RelyingPartyPolicy, family: FamilyName) throws -> Profile {
        guard family == WebAuthnFamily.name else {
            throw CatalogueError.badParameter("policy", "a site policy is defined for the webauthn family, not \(family)")
        }
        return WebAuthnFamily.profile(base, following: policy)
    }
}
