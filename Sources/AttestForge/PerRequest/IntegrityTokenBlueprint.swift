import AttestCrypto
import AttestEvidence
import Foundation

/// The test keys a Play Integrity verifier is configured with (there is no public root: Google issues each app its
/// own): the app's AES-256 decryption key and Google's EC P-256 verification key, both derived from a seed.
public struct PlayIntegrityKeys: Sendable {
    public let decryptionKey: [UInt8]
    public let verificationKey: PrivateKey

    public init(seed: ForgeSeed, label: String = "play integrity") throws {
        decryptionKey = try seed.bytes("\(label) decryption key", count: 32)
        verificationKey = try seed.key(.ec(.p256), "\(label) verification key")
    }
}

/// A Play Integrity token (developer.android.com/google/play/integrity/verdicts): the verdict JSON signed as an ES256
/// JWS, encrypted as an A256KW/A256GCM JWE, as fields a mutation can change.
public struct IntegrityTokenBlueprint: Sendable {
    public var verdict: IntegrityVerdict
    public var signingKey: PrivateKey
    public var encryptionKey: [UInt8]
    /// Content key and IV, derived so that tokens are reproducible.
    public var contentKey: [UInt8]
    public var iv: [UInt8]
    /// Flip a bit of the GCM tag.
    public var alterTag = false
    /// Send the JWS without the JWE around it.
    public var unencrypted = false

    public init(verdict: IntegrityVerdict, keys: PlayIntegrityKeys, contentKey: [UInt8], iv: [UInt8]) {
        self.verdict = verdict
        signingKey = keys.verificationKey
        encryptionKey = keys.decryptionKey
        self.contentKey = contentKey
        self.iv = iv
    }

    public func render() throws -> String {
        let jws = try JOSE.signES256(verdict.json, key: signingKey)
        if unencrypted { return jws }
        let token = try JOSE.encrypt(Array(jws.utf8), key: encryptionKey, cek: contentKey, iv: iv)
        guard alterTag else { return token }
        var parts = token.split(separator: ".").map(String.init)
        // parts[4] is the tag the JOSE encoder just wrote in base64url.
        var tag = Base64URL.decode(parts[4])!
        tag[0] ^= 0x01
        parts[4] = Base64URL.encode(tag)
        return parts.joined(separator: ".")
    }
}
