import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// Registrations followed by assertions, as one relying party sees them: the baseline every WebAuthn case
/// mutates. `brokenStep` marks the step a mutation targets, counting registrations first.
public struct WebAuthnScenario: Sendable {
    public var registrations: [RegistrationBlueprint]
    public var assertions: [WebAuthnAssertionBlueprint]
    public var brokenStep: Int?
    /// Steps (by index) whose challenge was issued to another client session than the one answering, and that
    /// session's name (the step's `challengeSession` input).
    public var challengeSessions: [Int: String] = [:]
    /// Steps (by index) that go over an earlier step's ceremony again; a replay has that step's inputs exactly.
    public var repetitions: [Int: StepRepetition] = [:]
    /// The FIDO metadata BLOB the relying party is configured with (its root is the PKI's metadata root); nil when
    /// it trusts attestation roots directly.
    public var metadata: MetadataBLOB?
    /// With `metadata`: the relying party also keeps its direct trust anchors (the FIDO root), which a case without
    /// the model's metadata entry needs, to show that trust does not fall back to them. Otherwise metadata alone.
    public var directAnchorsBesideMetadata = false
    /// Relying-party parameters this case sets to its own values (an attestation policy of its own).
    public var parameterOverrides: [String: String] = [:]
    /// Credentials (by id) the relying party deletes after the registrations and before the assertions: one
    /// `webauthn.deletion` step each.
    public var deletedCredentials: [[UInt8]] = []

    /// The last assertion, which most assertion mutations target.
    public var lastAssertion: WebAuthnAssertionBlueprint {
        get { assertions[assertions.count - 1] }
        set { assertions[assertions.count - 1] = newValue }
    }
}

/// Forges WebAuthn scenarios for one relying party from a seed.
public struct WebAuthnForge: Sendable {
    /// The attestation formats the forge writes.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        case none
        case packed
        /// `packed` signed by the credential key itself, no x5c.
        case packedSelf = "packed-self"
        case androidKey = "android-key"
        case apple
        case fidoU2F = "fido-u2f"
        /// `tpm` with an RSA-2048 credential (what Windows Hello registers).
        case tpm
        /// `tpm` with a P-256 credential.
        case tpmECC = "tpm-ecc"
        case androidSafetyNet = "android-safetynet"
    }

    public let seed: ForgeSeed
    public let pki: WebAuthnPKI
    public let android: AndroidForge
    public let rpId: String
    /// The web origin: `https://` + rpId, or the relying party's first web origin.
    public let origin: String
    /// The RP's Android app origin, `android:apk-key-hash:` + base64url of its signing-certificate digest.
    public let androidOrigin: String
    /// Whether the relying party has an Android app: android-key and SafetyNet registrations then come from it
    /// (`androidOrigin`); a web-only relying party gets them from a browser on Android, with its web origin.
    public let appOrigin: Bool
    public let time: Date

    /// `origin`: the relying party's web origin when it is not `https://` + rpId (a site on `http://localhost:8000`).
    public init(seed: ForgeSeed, rpId: String, packageName: String, signatureDigest: [UInt8],
                time: Date = ForgeSeed.referenceTime, origin: String? = nil, appOrigin: Bool = true) throws {
        self.seed = seed
        pki = try WebAuthnPKI(seed: seed)
        android = try AndroidForge(seed: seed, packageName: packageName, signatureDigest: signatureDigest, time: time)
        self.rpId = rpId
        self.origin = origin ?? "https://\(rpId)"
        androidOrigin = WebAuthnFormat.androidOriginPrefix + Base64URL.encode(signatureDigest)
        self.appOrigin = appOrigin
        self.time = time
    }

    public func user(_ label: String) throws -> [UInt8] { try seed.bytes("webauthn user \(label)", count: 16) }
    public func challenge(_ label: String) throws -> [UInt8] { try seed.bytes("webauthn challenge \(label)", count: 32) }
    public func credentialKey(_ label: String) throws -> PrivateKey { try seed.key(.ec(.p256), "webauthn credential \(label)") }
    public func credentialId(_ label: String) throws -> [UInt8] { try seed.bytes("webauthn credential id \(label)", count: 32) }

    /// A valid registration of a new P-256 credential for `user`, attested in `format`.
    public func registration(_ format: Format, user: String = "alice", credential: String = "passkey") throws -> RegistrationBlueprint {
        var key = try credentialKey(credential)
        let statement: AttestationStatementBlueprint
        var aaguid = try seed.bytes("webauthn aaguid", count: 16)
        var origin = self.origin
        switch format {
        case .none:
            statement = .none
        case .packed:
            statement = .packed(PackedStatement(issuer: pki.attestationRoot, attestationKey: pki.attestationKey,
                                                subject: PackedStatement.subject(vendor: "attest-harness TEST"),
                                                validity: WebAuthnPKI.rootValidity))
        case .packedSelf:
            statement = .packed(PackedStatement(issuer: nil, attestationKey: key, subject: X509Name([]),
                                                validity: WebAuthnPKI.rootValidity))
        case .androidKey:
            var scenario = try android.scenario()
            scenario.attestation.key = key
            statement = .androidKey(AndroidKeyStatement(android: scenario, pki: android.pki))
            if appOrigin { origin = androidOrigin }
        case .apple:
            aaguid = [UInt8](repeating: 0, count: 16)
            statement = .apple(AppleStatement(intermediate: pki.appleIntermediate,
                                              validity: (time - 86_400, time + 2 * 86_400)))
        case .fidoU2F:
            aaguid = [UInt8](repeating: 0, count: 16)
            statement = .fidoU2F(FidoU2FStatement(issuer: pki.attestationRoot, attestationKey: try seed.key(.ec(.p256), "webauthn u2f attestation"),
                                                  subject: X509Name([.country("US"), .organization("attest-harness TEST"),
                                                                     .commonName("attest-harness U2F Token")]),
                                                  validity: WebAuthnPKI.rootValidity))
        case .tpm, .tpmECC:
            if format == .tpm { key = try seed.key(.rsa(bits: 2048), "webauthn credential tpm \(credential)") }
            statement = .tpm(TPMStatement(issuer: pki.tpmIntermediate, aikKey: try seed.key(.rsa(bits: 2048), "webauthn tpm aik"),
                                          validity: WebAuthnPKI.rootValidity))
        case .androidSafetyNet:
            statement = .androidSafetyNet(SafetyNetStatement(
                issuer: pki.safetyNetIntermediate, signingKey: try seed.key(.rsa(bits: 2048), "webauthn safetynet attest.android.com"),
                validity: (time - 30 * 86_400, time + 60 * 86_400), timestamp: time - 1))
            if appOrigin { origin = androidOrigin }
        }
        return RegistrationBlueprint(user: try self.user(user), challenge: try challenge("registration \(credential)"),
                                     origin: origin, rpId: rpId, aaguid: aaguid, credentialId: try credentialId(credential),
                                     credentialKey: key, statement: statement)
    }

    /// A valid assertion by `registration`'s credential in a ceremony for its user.
    public func assertion(by registration: RegistrationBlueprint, signCount: UInt32, label: String) throws -> WebAuthnAssertionBlueprint {
        WebAuthnAssertionBlueprint(user: registration.user, credentialId: registration.credentialId,
                                   challenge: try challenge("assertion \(label)"), origin: registration.clientData.origin,
                                   rpId: rpId, signCount: signCount, userHandle: registration.user,
                                   signingKey: registration.credentialKey)
    }

    /// A metadata BLOB, due for renewal in 30 days, whose one entry trusts `roots` for `aaguid`.
    public func metadata(aaguid: [UInt8], roots: [X509Certificate]) -> MetadataBLOB {
        MetadataBLOB(entries: [MetadataBLOB.Entry(aaguid: aaguid, attestationRoots: roots)], nextUpdate: time + 30 * 86_400,
                     signingKey: pki.metadataSigner.key, chain: [pki.metadataSigner.certificate])
    }

    /// A registration in `format` followed by assertions with these counters.
    public func scenario(_ format: Format, assertionCounters: [UInt32]) throws -> WebAuthnScenario {
        let registration = try registration(format)
        let assertions = try assertionCounters.enumerated().map { index, counter in
            try assertion(by: registration, signCount: counter, label: "\(index)")
        }
        return WebAuthnScenario(registrations: [registration], assertions: assertions, brokenStep: nil)
    }
}
