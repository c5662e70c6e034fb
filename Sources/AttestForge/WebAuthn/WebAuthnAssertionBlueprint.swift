import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// A WebAuthn authentication assertion (§7.2): clientDataJSON, authenticatorData without attested credential
/// data, and a signature over `authenticatorData || SHA-256(clientDataJSON)` by the credential key (§6.3.3),
/// DER for ECDSA (§6.5.5).
public struct WebAuthnAssertionBlueprint: Sendable {
    /// The account the relying party runs the ceremony for (the user it identified first).
    public var user: [UInt8]
    public var credentialId: [UInt8]
    public var challenge: [UInt8]
    public var clientData: CollectedClientData
    /// Send these bytes as clientDataJSON instead of `clientData`'s serialization (members missing or mistyped).
    public var clientDataJSONOverride: [UInt8]?
    public var rpIdHash: [UInt8]
    public var flags: AuthenticatorData.Flags = [.userPresent, .userVerified]
    public var signCount: UInt32
    /// `response.userHandle`; nil when the authenticator returns none.
    public var userHandle: [UInt8]?
    /// The credential ids the options listed in allowCredentials; nil for an empty list (a discoverable credential).
    public var allowCredentials: [[UInt8]]?
    public var signingKey: PrivateKey
    /// The COSE algorithm to sign with, when not the key type's usual one (PS256 for an RSA key).
    public var algorithm: COSEKey.Algorithm?
    /// Sign these bytes instead of `authenticatorData || clientDataHash`.
    public var signedMessage: [UInt8]?
    /// Rewrites the DER signature (non-minimal encodings).
    public var signatureEncoding: (@Sendable ([UInt8]) -> [UInt8])?
    public var authenticatorDataSuffix: [UInt8] = []
    /// Changes the credential's JSON (AuthenticationResponseJSON) after it is built.
    public var credentialJSONEdit: (@Sendable (inout CredentialJSON.Members) -> Void)?

    public init(user: [UInt8], credentialId: [UInt8], challenge: [UInt8], origin: String, rpId: String, signCount: UInt32,
                userHandle: [UInt8]?, signingKey: PrivateKey) {
        self.user = user
        self.credentialId = credentialId
        self.challenge = challenge
        self.clientData = CollectedClientData(type: WebAuthnFormat.getType, challenge: Base64URL.encode(challenge), origin: origin)
        self.rpIdHash = sha256(Array(rpId.utf8))
        self.signCount = signCount
        self.userHandle = userHandle
        self.signingKey = signingKey
    }

    public struct Output: Sendable {
        public let credentialId: [UInt8]
        public let clientDataJSON: [UInt8]
        public let authenticatorData: [UInt8]
        public let signature: [UInt8]
        public let userHandle: [UInt8]?
        /// AuthenticationResponseJSON.
        public let credentialJSON: [UInt8]
        public let user: [UInt8]
        public let challenge: [UInt8]
    }

    /// The JSON array of unpadded base64url credential ids the `allowCredentials` input carries.
    public static func allowCredentialsJSON(_ ids: [[UInt8]]) -> [UInt8] {
        Array(("[" + ids.map { "\"" + Base64URL.encode($0) + "\"" }.joined(separator: ",") + "]").utf8)
    }

    public func render() throws -> Output {
        let clientDataJSON = clientDataJSONOverride ?? clientData.bytes
        let authData = AuthenticatorData(rpIdHash: rpIdHash, flags: flags, signCount: signCount).bytes + authenticatorDataSuffix
        let algorithm = try self.algorithm ?? COSEKey.algorithm(for: signingKey.publicKey)
        var signature = try signingKey.sign(signedMessage ?? authData + sha256(clientDataJSON), digest: algorithm.digest,
                                            padding: algorithm.padding)
        if let signatureEncoding { signature = signatureEncoding(signature) }
        var json = CredentialJSON.assertion(id: credentialId, clientDataJSON: clientDataJSON, authenticatorData: authData,
                                            signature: signature, userHandle: userHandle)
        credentialJSONEdit?(&json)
        return Output(credentialId: credentialId, clientDataJSON: clientDataJSON, authenticatorData: authData,
                      signature: signature, userHandle: userHandle, credentialJSON: try CredentialJSON.text(json), user: user,
                      challenge: challenge)
    }
}
