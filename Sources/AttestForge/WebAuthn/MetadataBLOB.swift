import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// A FIDO Metadata Service (MDS3) BLOB as a relying party downloads it: a compact JWS, RS256 as the production
/// BLOB is, its signing
/// certificate chain in the `x5c` header, whose payload lists one entry per authenticator model, keyed by AAGUID,
/// with the model's attestation roots and status reports (FIDO Metadata Service v3.0 §3.1). Forged under a test
/// MDS root, as case context: the relying party is configured with the BLOB and the root it trusts to sign it.
public struct MetadataBLOB: Sendable {
    /// One authenticator model.
    public struct Entry: Sendable {
        public var aaguid: [UInt8]
        /// metadataStatement.attestationRootCertificates: a relying party trusts these for this model only; they
        /// may be intermediates (FIDO Metadata Statement §4).
        public var attestationRoots: [X509Certificate]
        /// statusReports[].status, oldest first (AuthenticatorStatus values).
        public var statuses: [String]
        public var description: String

        public init(aaguid: [UInt8], attestationRoots: [X509Certificate], statuses: [String] = ["FIDO_CERTIFIED_L1"],
                    description: String = "attest-harness TEST Authenticator") {
            self.aaguid = aaguid
            self.attestationRoots = attestationRoots
            self.statuses = statuses
            self.description = description
        }
    }

    public var entries: [Entry]
    /// The BLOB's serial number (`no`).
    public var number = 42
    /// When the next BLOB is due (`nextUpdate`, a date).
    public var nextUpdate: Date
    /// Signs the BLOB (RS256 for an RSA key, ES256 for a P-256 key); its certificate is `x5c[0]`.
    public var signingKey: PrivateKey
    /// The certificates in `x5c`, signing certificate first (the root is not sent).
    public var chain: [X509Certificate]
    /// Sign with this key instead (the header still names `chain`).
    public var signer: PrivateKey?

    public init(entries: [Entry], nextUpdate: Date, signingKey: PrivateKey, chain: [X509Certificate]) {
        self.entries = entries
        self.nextUpdate = nextUpdate
        self.signingKey = signingKey
        self.chain = chain
    }

    /// `header.payload.signature`.
    public func render() throws -> String {
        let payload: [String: Any] = [
            "legalHeader": "attest-harness TEST metadata: not FIDO Alliance data; for conformance testing only.",
            "no": number, "nextUpdate": FIDOMetadata.day(nextUpdate),
            "entries": entries.map { entry -> [String: Any] in
                [
                    "aaguid": FIDOMetadata.uuid(entry.aaguid),
                    "metadataStatement": [
                        "legalHeader": "attest-harness TEST metadata statement", "aaguid": FIDOMetadata.uuid(entry.aaguid),
                        "description": entry.description, "authenticatorVersion": 1, "protocolFamily": "fido2",
                        "schema": 3, "upv": [["major": 1, "minor": 0]], "authenticationAlgorithms": ["secp256r1_ecdsa_sha256_raw"],
                        "publicKeyAlgAndEncodings": ["cose"], "attestationTypes": ["basic_full"],
                        "userVerificationDetails": [[["userVerificationMethod": "presence_internal"]]],
                        "keyProtection": ["hardware", "secure_element"], "matcherProtection": ["on_chip"],
                        "attachmentHint": ["external", "wired"], "tcDisplay": [] as [String],
                        "attestationRootCertificates": entry.attestationRoots.map { Data($0.der).base64EncodedString() },
                    ] as [String: Any],
                    "statusReports": entry.statuses.map { ["status": $0, "effectiveDate": "2025-01-01"] },
                    "timeOfLastStatusChange": "2025-01-01",
                ]
            },
        ]
        let key = signer ?? signingKey
        let algorithm = if case .rsa = signingKey.algorithm { "RS256" } else { "ES256" }
        let header: [String: Any] = ["alg": algorithm, "typ": "JWT", "x5c": chain.map { Data($0.der).base64EncodedString() }]
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        let headerJSON = try JSONSerialization.data(withJSONObject: header, options: options)
        let payloadJSON = try JSONSerialization.data(withJSONObject: payload, options: options)
        let headerText = String(decoding: headerJSON, as: UTF8.self)
        return algorithm == "RS256" ? try JOSE.signRS256(Array(payloadJSON), key: key, header: headerText)
            : try JOSE.signES256(Array(payloadJSON), key: key, header: headerText)
    }
}
