import AttestCBOR
import AttestCrypto
import AttestEvidence

/// An App Attest assertion (Apple, assertion steps 1-6): CBOR `{signature, authenticatorData}` where the signature is
/// ES256 over `nonce = SHA-256(authenticatorData || SHA-256(clientData))`.
public struct AssertionBlueprint: Sendable {
    /// What the signature covers.
    public enum SignedMessage: Hashable, Sendable {
        /// Apple's: the nonce, hashed again by ES256.
        case nonce
        /// WebAuthn's: `authenticatorData || clientDataHash`, hashed once.
        case authenticatorDataAndClientDataHash
    }

    /// How the signature is written.
    public enum SignatureForm: Hashable, Sendable {
        case der
        /// 64-byte `r || s` (COSE/JWS style), which App Attest never emits.
        case raw
    }

    public var signingKey: PrivateKey
    /// The key identifier sent with the assertion.
    public var keyId: [UInt8]
    /// The challenge the server issued for this assertion.
    public var challenge: [UInt8]
    /// The app-defined client data; it carries the challenge.
    public var clientData: [UInt8]
    /// Sign this instead of `clientData` (a signature that does not cover what is sent).
    public var signedClientData: [UInt8]?
    public var rpIdHash: [UInt8]
    /// Real assertions carry 0x40 (AT) although no credential data follows.
    public var flags: UInt8 = 0x40
    public var counter: UInt32
    public var signedMessage = SignedMessage.nonce
    public var signatureForm = SignatureForm.der
    public var encoding: CBORMalformation?

    public init(signingKey: PrivateKey, keyId: [UInt8], challenge: [UInt8], appId: String, counter: UInt32) {
        self.signingKey = signingKey
        self.keyId = keyId
        self.challenge = challenge
        self.clientData = challenge
        self.rpIdHash = sha256(Array(appId.utf8))
        self.counter = counter
    }

    public struct Output: Sendable {
        public let assertion: [UInt8]
        public let clientData: [UInt8]
        public let keyId: [UInt8]
        public let challenge: [UInt8]
    }

    public func render() throws -> Output {
        let authenticatorData = AuthenticatorData(rpIdHash: rpIdHash, flags: .init(rawValue: flags), signCount: counter).bytes
        let clientDataHash = sha256(signedClientData ?? clientData)
        let message: [UInt8]
        switch signedMessage {
        case .nonce: message = sha256(authenticatorData + clientDataHash)
        case .authenticatorDataAndClientDataHash: message = authenticatorData + clientDataHash
        }
        var signature = try signingKey.sign(message, digest: .sha256)
        if signatureForm == .raw { signature = try ECDSASignatureValue(der: signature).raw(curve: .p256) }
        let object = [CBORMapEntry("signature", .bytes(signature)), CBORMapEntry("authenticatorData", .bytes(authenticatorData))]
        let bytes = encoding?.encode(object) ?? CBORWriter.encode(.map(object))
        return Output(assertion: bytes, clientData: clientData, keyId: keyId, challenge: challenge)
    }
}
