import Foundation

/// The compact JOSE serializations a Play Integrity token nests (developer.android.com/google/play/integrity/verdicts):
/// a JWS signed ES256 (RFC 7515 §7.1; RFC 7518 §3.4, signature `r || s`) inside a JWE with `A256KW` key wrapping and
/// `A256GCM` content encryption (RFC 7516 §7.1; RFC 7518 §4.4, §5.3).
public enum JOSE {
    /// The dot-separated parts of a compact serialization, split on the byte: a "." is one byte in UTF-8 and no
    /// other character's encoding contains it (the parts are checked as base64url afterwards).
    package static func parts(of compact: String) -> [String] {
        compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Why a compact token was refused, naming the part.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case malformed(String)
        case unsupportedHeader(String)
        case keyUnwrap
        case authenticationTag
        case signature

        public var description: String {
            switch self {
            case .malformed(let what): return "malformed token: \(what)"
            case .unsupportedHeader(let header): return "unsupported protected header \(header)"
            case .keyUnwrap: return "the content key does not unwrap under this key (RFC 3394 integrity check)"
            case .authenticationTag: return "the GCM authentication tag does not verify"
            case .signature: return "the ES256 signature does not verify"
            }
        }
    }

    public static let jwsHeader = #"{"alg":"ES256"}"#
    public static let jweHeader = #"{"alg":"A256KW","enc":"A256GCM"}"#

    /// `header.payload.signature`, ES256 over the ASCII of `header.payload`.
    public static func signES256(_ payload: [UInt8], key: PrivateKey, header: String = jwsHeader) throws -> String {
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload)
        let der = try key.sign(Array(signingInput.utf8), digest: .sha256)
        return signingInput + "." + Base64URL.encode(try ECDSASignatureValue(der: der).raw(curve: .p256))
    }

    /// The payload of an ES256 compact JWS; `verify: false` skips the signature, as a verifier that only decodes.
    public static func verifyES256(_ compact: String, key: PublicKey, verify: Bool = true) throws -> [UInt8] {
        let parts = parts(of: compact)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]) else { throw Failure.malformed("JWS is not three base64url parts") }
        guard (try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])?["alg"] as? String == "ES256" else {
            throw Failure.unsupportedHeader(String(decoding: header, as: UTF8.self))
        }
        if verify {
            guard signature.count == 64, let der = try? ECDSASignatureValue(raw: signature, curve: .p256).der,
                  key.verify(der, for: Array((parts[0] + "." + parts[1]).utf8), digest: .sha256) else { throw Failure.signature }
        }
        return payload
    }

    /// `header.payload.signature`, RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) over the ASCII of
    /// `header.payload`: what SafetyNet attestations and the FIDO metadata BLOB are.
    public static func signRS256(_ payload: [UInt8], key: PrivateKey, header: String) throws -> String {
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(try key.sign(Array(signingInput.utf8), digest: .sha256))
    }

    /// A compact JWS whose header and payload are JSON objects, read without trusting it: the caller verifies
    /// `signature` over `signingInput` with the key its policy names.
    public struct CompactJWS {
        public let header: [String: Any]
        public let payload: [String: Any]
        /// The ASCII of `header.payload`, what the signature covers.
        public let signingInput: [UInt8]
        public let signature: [UInt8]

        public init(_ compact: String) throws {
            let parts = parts(of: compact)
            guard parts.count == 3, let header = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
                  let signature = Base64URL.decode(parts[2]) else { throw Failure.malformed("JWS is not three base64url parts") }
            guard let headerObject = try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any],
                  let payloadObject = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
                throw Failure.malformed("the JWS header or payload is not a JSON object")
            }
            self.header = headerObject
            self.payload = payloadObject
            signingInput = Array((parts[0] + "." + parts[1]).utf8)
            self.signature = signature
        }

        /// The header's `x5c` (RFC 7515 §4.1.6: standard base64 DER), in order; nil when absent, empty or not all
        /// certificates.
        public var certificateChain: [X509Certificate]? {
            guard let texts = header["x5c"] as? [String], !texts.isEmpty else { return nil }
            let certificates = texts.compactMap { Data(base64Encoded: $0).flatMap { try? X509Certificate(der: Array($0)) } }
            return certificates.count == texts.count ? certificates : nil
        }

        /// True when `signature` verifies with `key` under the header's `alg` (RS256, or ES256 with raw r || s).
        public func verifies(with key: PublicKey) -> Bool {
            switch header["alg"] as? String {
            case "RS256": return key.verify(signature, for: signingInput, digest: .sha256)
            case "ES256":
                guard signature.count == 64, let der = try? ECDSASignatureValue(raw: signature, curve: .p256).der else { return false }
                return key.verify(der, for: signingInput, digest: .sha256)
            default: return false
            }
        }
    }

    /// `header.encryptedKey.iv.ciphertext.tag` with the content key `cek` wrapped under `key`.
    public static func encrypt(_ payload: [UInt8], key: [UInt8], cek: [UInt8], iv: [UInt8], header: String = jweHeader) throws -> String {
        let protected = Base64URL.encode(Array(header.utf8))
        let sealed = try AESCipher.sealGCM(payload, key: cek, iv: iv, aad: Array(protected.utf8))
        return [protected, Base64URL.encode(try AESCipher.wrap(cek, key: key)), Base64URL.encode(iv),
                Base64URL.encode(sealed.ciphertext), Base64URL.encode(sealed.tag)].joined(separator: ".")
    }

    /// The plaintext of an A256KW/A256GCM compact JWE; `verifyTag: false` decrypts without authenticating.
    public static func decrypt(_ compact: String, key: [UInt8], verifyTag: Bool = true) throws -> [UInt8] {
        let parts = parts(of: compact)
        guard parts.count == 5, let header = Base64URL.decode(parts[0]), let wrapped = Base64URL.decode(parts[1]),
              let iv = Base64URL.decode(parts[2]), let ciphertext = Base64URL.decode(parts[3]), let tag = Base64URL.decode(parts[4]),
              iv.count == 12, tag.count == 16 else { throw Failure.malformed("JWE is not five base64url parts with a 12-byte IV and 16-byte tag") }
        let fields = (try? JSONSerialization.jsonObject(with: Data(header)) as? [String: Any]) ?? [:]
        guard fields["alg"] as? String == "A256KW", fields["enc"] as? String == "A256GCM" else {
            throw Failure.unsupportedHeader(String(decoding: header, as: UTF8.self))
        }
        guard let cek = try? AESCipher.unwrap(wrapped, key: key), cek.count == 32 else { throw Failure.keyUnwrap }
        do {
            return try AESCipher.openGCM(ciphertext, key: cek, iv: iv, aad: Array(parts[0].utf8), tag: tag, verifyTag: verifyTag)
        } catch {
            throw Failure.authenticationTag
        }
    }
}
