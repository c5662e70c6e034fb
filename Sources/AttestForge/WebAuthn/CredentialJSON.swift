import AttestCrypto
import Foundation

/// A credential as browsers serialise it for the server: L3 `PublicKeyCredential.toJSON()` (§5.1), i.e.
/// RegistrationResponseJSON or AuthenticationResponseJSON, binary members as unpadded base64url. Many server
/// libraries consume exactly this document; `edit` changes it (members missing, mistyped, or naming another id).
public struct CredentialJSON: Sendable {
    /// The document's members before `edit`.
    public typealias Members = [String: JSONMember]

    /// A JSON value the forge writes: text, a number, a boolean, an array or an object.
    public indirect enum JSONMember: Sendable, Equatable {
        case text(String)
        case number(Int64)
        case boolean(Bool)
        case array([JSONMember])
        case object([String: JSONMember])

        var foundation: Any {
            switch self {
            case .text(let text): return text
            case .number(let number): return number
            case .boolean(let flag): return flag
            case .array(let items): return items.map(\.foundation)
            case .object(let members): return members.mapValues(\.foundation)
            }
        }
    }

    /// RegistrationResponseJSON (§5.1.1 `AuthenticatorAttestationResponseJSON` inside).
    public static func registration(id: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8], authenticatorData: [UInt8],
                                    publicKeyAlgorithm: Int64, publicKey: [UInt8]?) -> Members {
        var response: [String: JSONMember] = [
            "clientDataJSON": .text(Base64URL.encode(clientDataJSON)), "attestationObject": .text(Base64URL.encode(attestationObject)),
            "authenticatorData": .text(Base64URL.encode(authenticatorData)), "transports": .array([.text("internal")]),
            "publicKeyAlgorithm": .number(publicKeyAlgorithm),
        ]
        response["publicKey"] = publicKey.map { .text(Base64URL.encode($0)) }
        return envelope(id: id, response: response)
    }

    /// AuthenticationResponseJSON (§5.1.1 `AuthenticatorAssertionResponseJSON` inside).
    public static func assertion(id: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
                                 userHandle: [UInt8]?) -> Members {
        var response: [String: JSONMember] = [
            "clientDataJSON": .text(Base64URL.encode(clientDataJSON)), "authenticatorData": .text(Base64URL.encode(authenticatorData)),
            "signature": .text(Base64URL.encode(signature)),
        ]
        response["userHandle"] = userHandle.map { .text(Base64URL.encode($0)) }
        return envelope(id: id, response: response)
    }

    static func envelope(id: [UInt8], response: [String: JSONMember]) -> Members {
        ["id": .text(Base64URL.encode(id)), "rawId": .text(Base64URL.encode(id)), "type": .text("public-key"),
         "response": .object(response), "clientExtensionResults": .object([:]), "authenticatorAttachment": .text("platform")]
    }

    /// The UTF-8 JSON text, keys sorted (deterministic).
    public static func text(_ members: Members) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: members.mapValues(\.foundation), options: [.sortedKeys, .withoutEscapingSlashes]))
    }
}
