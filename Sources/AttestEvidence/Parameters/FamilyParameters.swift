import AttestCrypto
import Foundation

/// App Attest: the app the attestations must name. Parameters `teamId`, `bundleId`, `environment`
/// (`production` or `development`); cases also carry `appId` (team id, dot, bundle id).
public struct AppAttestParameters: Hashable, Sendable {
    public var teamId: String
    public var bundleId: String
    public var environment: AppAttestFormat.Environment

    public init(teamId: String, bundleId: String, environment: AppAttestFormat.Environment) {
        self.teamId = teamId
        self.bundleId = bundleId
        self.environment = environment
    }

    public init(_ parameters: ParameterReader) throws {
        environment = try parameters.choice("environment", AppAttestFormat.Environment.self)
        if let appId = parameters.values["appId"], parameters.values["teamId"] == nil {
            // A case's context names the App ID itself.
            let parts = appId.split(separator: ".", maxSplits: 1).map(String.init)
            teamId = parts.first ?? ""
            bundleId = parts.count > 1 ? parts[1] : ""
        } else {
            teamId = try parameters.string("teamId")
            bundleId = try parameters.string("bundleId")
        }
    }

    /// The App ID Apple hashes into rpIdHash: team id, dot, bundle id.
    public var appId: String { "\(teamId).\(bundleId)" }
}

/// Android Key Attestation: the allow-listed app and, in a case, the revocation status list. Parameters
/// `packageName`, `signatureDigest` (SHA-256 of the signing certificate, hex; empty when the server allow-lists none,
/// as for platform keys whose attestationApplicationId carries no digest) and `attestationStatusList` (the status
/// list JSON, as Google serves it).
public struct AndroidParameters: Sendable {
    public var packageName: String
    public var signatureDigest: [UInt8]
    /// nil when the parameters name none (a profile; every case names one).
    public var statusList: AttestationStatusList?

    public init(packageName: String, signatureDigest: [UInt8], statusList: AttestationStatusList? = nil) {
        self.packageName = packageName
        self.signatureDigest = signatureDigest
        self.statusList = statusList
    }

    public init(_ parameters: ParameterReader) throws {
        packageName = try parameters.string("packageName")
        signatureDigest = try parameters.hexBytes("signatureDigest")
        if let json = parameters.values["attestationStatusList"] {
            do {
                statusList = try AttestationStatusList(json: Data(json.utf8))
            } catch {
                throw ParameterError(name: "attestationStatusList", value: json, expected: "a status list (\(error))")
            }
        }
    }

    /// The parameters the forge signs as: the app's digest must be a SHA-256 (a verifier may be configured with none).
    public init(forging parameters: ParameterReader) throws {
        try self.init(parameters)
        guard signatureDigest.count == 32 else {
            throw ParameterError(name: "signatureDigest", value: parameters.values["signatureDigest"], expected: "32 bytes in hex")
        }
    }
}

/// A WebAuthn relying party: `rpId`, `origins` and `topOrigins` (comma-separated), `allowCrossOrigin` (`true`),
/// `algorithms` (COSE alg values offered in pubKeyCredParams, comma-separated), `userVerification` (`required`),
/// `attestation` (`direct`: a chain to a trust anchor is required); in a metadata case, `metadataBLOB` (a FIDO
/// Metadata Service BLOB, compact JWS) and `metadataRoot` (PEM of the root that signs it): then attestation trust
/// comes from the BLOB's entry for the authenticator's AAGUID.
public struct WebAuthnParameters: Hashable, Sendable {
    public var rpId: String
    public var origins: [String]
    public var topOrigins: [String]
    public var allowCrossOrigin: Bool
    public var algorithms: [Int64]
    public var userVerificationRequired: Bool
    public var attestationRequired: Bool
    /// `attestationTrust` `none`: the relying party holds no attestation roots, so no statement is trustworthy to
    /// it, and whether it fails such a registration (§7.1 step 24: SHOULD) or registers the credential as
    /// unattested (the note after it: MAY) is its own choice. Set by a deployed site's policy (trust none).
    public var holdsNoAttestationRoots: Bool
    public var metadataBLOB: String?
    public var metadataRoot: String?

    public init(_ parameters: ParameterReader) throws {
        rpId = try parameters.string("rpId")
        origins = parameters.list("origins")
        topOrigins = parameters.list("topOrigins")
        allowCrossOrigin = parameters.flag("allowCrossOrigin", is: "true")
        algorithms = try parameters.integers("algorithms")
        userVerificationRequired = parameters.flag("userVerification", is: "required")
        attestationRequired = parameters.flag("attestation", is: "direct")
        holdsNoAttestationRoots = parameters.flag("attestationTrust", is: "none")
        metadataBLOB = parameters.values["metadataBLOB"]
        metadataRoot = parameters.values["metadataRoot"]
    }
}

/// The per-request API (docs/protocols/per-request-device-attestation.md §1.2): `accountToken`, lifetimes in seconds
/// (`challengeLifetime`, `tokenLifetime`, `tokenFreshness`), the statuses of device and account failures, and in a case
/// the Play Integrity keys (`integrityDecryptionKey`, base64 AES-256; `integrityVerificationKey`, PEM).
public struct PerRequestParameters: Sendable {
    public var accountToken: String
    public var challengeLifetime: TimeInterval
    public var tokenLifetime: TimeInterval
    public var tokenFreshness: TimeInterval
    public var deviceFailureStatus: String
    public var accountFailureStatus: String
    public var integrityDecryptionKey: [UInt8]?
    public var integrityVerificationKey: PublicKey?

    public init(_ parameters: ParameterReader) throws {
        accountToken = try parameters.string("accountToken")
        challengeLifetime = try parameters.seconds("challengeLifetime")
        tokenLifetime = try parameters.seconds("tokenLifetime")
        tokenFreshness = try parameters.seconds("tokenFreshness")
        deviceFailureStatus = parameters.values["deviceFailureStatus"] ?? "403"
        accountFailureStatus = parameters.values["accountFailureStatus"] ?? "401"
        if parameters.values["integrityDecryptionKey"] != nil {
            integrityDecryptionKey = try parameters.base64Bytes("integrityDecryptionKey")
        }
        if let pem = parameters.values["integrityVerificationKey"] {
            do {
                integrityVerificationKey = try PublicKey(pem: pem)
            } catch {
                throw ParameterError(name: "integrityVerificationKey", value: pem, expected: "a PEM public key")
            }
        }
    }
}

/// Step-up signing (docs/protocols/step-up-signing.md §3): `challengeLifetime` in seconds and `stepUpMessage`
/// (`challenge` or `action-bound`).
public struct StepUpParameters: Hashable, Sendable {
    public var challengeLifetime: TimeInterval
    public var message: StepUpMessage

    public init(_ parameters: ParameterReader) throws {
        challengeLifetime = try parameters.values["challengeLifetime"] == nil ? 120 : parameters.seconds("challengeLifetime")
        message = try parameters.choice("stepUpMessage", StepUpMessage.self)
    }
}
