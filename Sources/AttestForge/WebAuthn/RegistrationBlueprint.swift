import AttestCBOR
import AttestCrypto
import AttestEvidence
import Foundation

/// A WebAuthn registration (§7.1) as an authenticator and browser produce it: clientDataJSON, then the
/// attestation object `{fmt, attStmt, authData}` (§6.5.4), as fields a mutation can change before `render()`.
public struct RegistrationBlueprint: Sendable {
    /// The account the relying party registers the credential for (its user handle).
    public var user: [UInt8]
    /// The challenge the relying party issued.
    public var challenge: [UInt8]
    public var clientData: CollectedClientData
    /// Send these bytes as clientDataJSON instead of `clientData`'s serialization (members missing or mistyped).
    public var clientDataJSONOverride: [UInt8]?
    public var rpIdHash: [UInt8]
    public var flags: AuthenticatorData.Flags
    public var signCount: UInt32 = 0
    public var aaguid: [UInt8]
    public var credentialId: [UInt8]
    public var credentialKey: PrivateKey
    /// The COSE algorithm the credential key is bound to, when not the key type's usual one (PS256 for an RSA key).
    public var credentialAlgorithm: COSEKey.Algorithm?
    /// Write this COSE_Key instead of the credential key's.
    public var coseKeyOverride: [UInt8]?
    /// Set AT but write no attested credential data.
    public var omitAttestedCredentialData = false
    /// Bytes after the authenticator data's last structure.
    public var authenticatorDataSuffix: [UInt8] = []
    public var statement: AttestationStatementBlueprint
    /// Write this `fmt` instead of the statement's.
    public var formatOverride: String?
    public var encoding: CBORMalformation?
    /// Changes the attestation object's top level before it is encoded (a member missing or mistyped, or no map at all).
    public var objectEdit: (@Sendable ([CBORMapEntry]) -> CBORValue)?
    /// The credential id (`id`, `rawId`) the client sends, when not the attested one.
    public var sentCredentialId: [UInt8]?
    /// Changes the credential's JSON (RegistrationResponseJSON) after it is built.
    public var credentialJSONEdit: (@Sendable (inout CredentialJSON.Members) -> Void)?

    public init(user: [UInt8], challenge: [UInt8], origin: String, rpId: String, aaguid: [UInt8], credentialId: [UInt8],
                credentialKey: PrivateKey, statement: AttestationStatementBlueprint) {
        self.user = user
        self.challenge = challenge
        self.clientData = CollectedClientData(type: WebAuthnFormat.createType, challenge: Base64URL.encode(challenge), origin: origin)
        self.rpIdHash = sha256(Array(rpId.utf8))
        self.flags = [.userPresent, .userVerified, .attestedCredentialData]
        self.aaguid = aaguid
        self.credentialId = credentialId
        self.credentialKey = credentialKey
        self.statement = statement
    }

    public struct Output: Sendable {
        public let clientDataJSON: [UInt8]
        public let attestationObject: [UInt8]
        /// The id the client sends (`rawId`).
        public let credentialId: [UInt8]
        /// RegistrationResponseJSON.
        public let credentialJSON: [UInt8]
        public let user: [UInt8]
        public let challenge: [UInt8]
    }

    public func authenticatorData() throws -> [UInt8] {
        let coseKey = try coseKeyOverride ?? CBORWriter.encode(
            try COSEKey(algorithm: try resolvedCredentialAlgorithm(), publicKey: credentialKey.publicKey).cbor)
        let credential = omitAttestedCredentialData ? nil : AuthenticatorData.AttestedCredentialData(
            aaguid: aaguid, credentialId: credentialId, credentialPublicKey: coseKey)
        return AuthenticatorData(rpIdHash: rpIdHash, flags: flags, signCount: signCount,
                                 attestedCredentialData: credential).bytes + authenticatorDataSuffix
    }

    func resolvedCredentialAlgorithm() throws -> COSEKey.Algorithm {
        try credentialAlgorithm ?? COSEKey.algorithm(for: credentialKey.publicKey)
    }

    public func render() throws -> Output {
        let clientDataJSON = clientDataJSONOverride ?? clientData.bytes
        let authData = try authenticatorData()
        let statementMap = try statement.render(.init(authenticatorData: authData, clientDataHash: sha256(clientDataJSON),
                                                      credentialKey: credentialKey,
                                                      credentialAlgorithm: try resolvedCredentialAlgorithm(), aaguid: aaguid))
        let object = [CBORMapEntry("fmt", .text(formatOverride ?? statement.format)),
                      CBORMapEntry("attStmt", .map(statementMap)), CBORMapEntry("authData", .bytes(authData))]
        let attestationObject = objectEdit.map { CBORWriter.encode($0(object)) } ?? encoding?.encode(object) ?? CBORWriter.encode(.map(object))
        let sentId = sentCredentialId ?? credentialId
        var json = CredentialJSON.registration(id: sentId, clientDataJSON: clientDataJSON, attestationObject: attestationObject,
                                               authenticatorData: authData, publicKeyAlgorithm: try resolvedCredentialAlgorithm().rawValue,
                                               publicKey: credentialKey.publicKey.spki)
        credentialJSONEdit?(&json)
        return Output(clientDataJSON: clientDataJSON, attestationObject: attestationObject, credentialId: sentId,
                      credentialJSON: try CredentialJSON.text(json), user: user, challenge: challenge)
    }

    /// Changes the `packed` statement; no effect on other formats.
    public mutating func packed(_ change: (inout PackedStatement) throws -> Void) rethrows {
        guard case .packed(var statement) = statement else { return }
        try change(&statement)
        self.statement = .packed(statement)
    }

    public mutating func androidKey(_ change: (inout AndroidKeyStatement) throws -> Void) rethrows {
        guard case .androidKey(var statement) = statement else { return }
        try change(&statement)
        self.statement = .androidKey(statement)
    }

    public mutating func apple(_ change: (inout AppleStatement) throws -> Void) rethrows {
        guard case .apple(var statement) = statement else { return }
        try change(&statement)
        self.statement = .apple(statement)
    }

    public mutating func fidoU2F(_ change: (inout FidoU2FStatement) throws -> Void) rethrows {
        guard case .fidoU2F(var statement) = statement else { return }
        try change(&statement)
        self.statement = .fidoU2F(statement)
    }

    public mutating func tpm(_ change: (inout TPMStatement) throws -> Void) rethrows {
        guard case .tpm(var statement) = statement else { return }
        try change(&statement)
        self.statement = .tpm(statement)
    }

    public mutating func safetyNet(_ change: (inout SafetyNetStatement) throws -> Void) rethrows {
        guard case .androidSafetyNet(var statement) = statement else { return }
        try change(&statement)
        self.statement = .androidSafetyNet(statement)
    }
}
