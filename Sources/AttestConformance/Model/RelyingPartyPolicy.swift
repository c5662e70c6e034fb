/// What a relying party chose where the specification lets it choose: the attestation it asks for, whether it
/// requires user verification, the algorithms it offers, its origins, and what it trusts attestation to. A site's
/// API map states it (or reads it from the options the site returns); the family derives the profile a run judges
/// by from it (`BuiltinCatalogue.profile(_:following:)`), so expectations follow the site's policy, not only the
/// forging. Every member is optional: an absent one keeps the profile's choice.
public struct RelyingPartyPolicy: Hashable, Sendable, Codable {
    /// What the relying party trusts attestation statements to.
    public enum Trust: String, Hashable, Sendable, Codable, CaseIterable {
        /// Attestation roots it holds (the profile's trust anchors).
        case roots
        /// FIDO metadata.
        case metadata
        /// Nothing: every credential is treated as unattested.
        case none
    }

    public var rpId: String?
    /// Web origins the relying party accepts (`https://login.example.com`, `http://localhost:8000`).
    public var origins: [String]?
    /// Whether it also accepts its Android app's origin (`android:apk-key-hash:...`).
    public var appOrigins: Bool?
    /// The attestation conveyance it asks for: `none`, `indirect`, `direct` or `enterprise` (§5.4.7).
    public var attestation: String?
    /// `required`, `preferred` or `discouraged` (§5.8.6).
    public var userVerification: String?
    /// COSE algorithm identifiers it offers in `pubKeyCredParams`, in its order.
    public var algorithms: [Int]?
    public var trust: Trust?

    public init(rpId: String? = nil, origins: [String]? = nil, appOrigins: Bool? = nil, attestation: String? = nil,
                userVerification: String? = nil, algorithms: [Int]? = nil, trust: Trust? = nil) {
        self.rpId = rpId
        self.origins = origins
        self.appOrigins = appOrigins
        self.attestation = attestation
        self.userVerification = userVerification
        self.algorithms = algorithms
        self.trust = trust
    }

    public static let attestationValues = ["none", "indirect", "direct", "enterprise"]
    public static let userVerificationValues = ["required", "preferred", "discouraged"]

    /// This policy, with `other`'s members where this one has none (a stated policy over one read from options).
    public func filling(from other: RelyingPartyPolicy) -> RelyingPartyPolicy {
        RelyingPartyPolicy(rpId: rpId ?? other.rpId, origins: origins ?? other.origins, appOrigins: appOrigins ?? other.appOrigins,
                           attestation: attestation ?? other.attestation, userVerification: userVerification ?? other.userVerification,
                           algorithms: algorithms ?? other.algorithms, trust: trust ?? other.trust)
    }

    /// Whether nothing is stated.
    public var isEmpty: Bool { self == RelyingPartyPolicy() }
}
