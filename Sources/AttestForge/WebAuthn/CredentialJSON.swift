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

    /// The UTF-8 JSON text, keys sorted (deterministic): compact, byte for byte what `JSONSerialization` writes with
    /// `.sortedKeys` and `.withoutEscapingSlashes` (`CredentialJSONTests` compares the two), written directly because a
    /// map run forges a case again around every server value and Foundation's writer was a quarter of its time.
    public static func text(_ members: Members) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        JSONMember.object(members).write(into: &out)
        return out
    }
}

extension CredentialJSON.JSONMember {
    func write(into out: inout [UInt8]) {
        switch self {
        case .text(let text): Self.write(text, into: &out)
        case .number(let number): out += Array(String(number).utf8)
        case .boolean(let flag): out += Array((flag ? "true" : "false").utf8)
        case .array(let items):
            out.append(0x5b)
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(0x2c) }
                item.write(into: &out)
            }
            out.append(0x5d)
        case .object(let members):
            out.append(0x7b)
            for (index, (key, value)) in members.sorted(by: { Self.precedes($0.key, $1.key) }).enumerated() {
                if index > 0 { out.append(0x2c) }
                Self.write(key, into: &out)
                out.append(0x3a)
                value.write(into: &out)
            }
            out.append(0x7d)
        }
    }

    /// Foundation's key order under `.sortedKeys`: numeric, case-insensitive, forced ordering in the system locale
    /// (`"a" < "B" < "b"`, not byte order).
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
                  locale: Locale(identifier: "")) == .orderedAscending
    }

    /// A JSON string as Foundation's writer escapes it: quote, backslash, the short escapes, other control characters
    /// as `\u00xx` (lower-case hex); everything else, `/` included, as UTF-8.
    static func write(_ text: String, into out: inout [UInt8]) {
        out.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out += [0x5c, 0x22]
            case 0x5c: out += [0x5c, 0x5c]
            case 0x08: out += [0x5c, 0x62]
            case 0x0c: out += [0x5c, 0x66]
            case 0x0a: out += [0x5c, 0x6e]
            case 0x0d: out += [0x5c, 0x72]
            case 0x09: out += [0x5c, 0x74]
            case 0x00..<0x20: out += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }
}
