import Foundation

/// `clientDataJSON` (WebAuthn L3 §5.8.1): written byte for byte as browsers serialize it (§5.8.1.1), read as a
/// relying party parses it (§7.1 steps 5-6: UTF-8 decode, then JSON; unknown members tolerated).
public struct CollectedClientData: Hashable, Sendable {
    public var type: String
    /// The challenge as written: base64url of the RP's challenge, or anything a mutation puts there.
    public var challenge: String
    public var origin: String
    /// Browsers always write it (false by default); nil leaves it out, as apps that build clientDataJSON
    /// themselves do.
    public var crossOrigin: Bool?
    public var topOrigin: String?
    /// Members after the fixed ones as raw JSON, without the surrounding braces (`"extraData":"..."`).
    public var remainder: String?

    public init(type: String, challenge: String, origin: String, crossOrigin: Bool? = false, topOrigin: String? = nil,
                remainder: String? = nil) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        self.remainder = remainder
    }

    /// The §5.8.1.1 serialization: fixed member order, then the remainder, strings through CCDToString.
    public var bytes: [UInt8] {
        var out = "{\"type\":" + Self.ccdString(type) + ",\"challenge\":" + Self.ccdString(challenge)
            + ",\"origin\":" + Self.ccdString(origin)
        if let crossOrigin { out += ",\"crossOrigin\":" + (crossOrigin ? "true" : "false") }
        if let topOrigin { out += ",\"topOrigin\":" + Self.ccdString(topOrigin) }
        if let remainder { out += "," + remainder }
        return Array((out + "}").utf8)
    }

    /// CCDToString (§5.8.1.1): only `"` and `\` are escaped with a backslash; code points below U+0020 become
    /// `\u` and four lowercase hex digits; everything else is written as UTF-8.
    public static func ccdString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0..<0x20:
                let digits = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Why clientDataJSON could not be read (§7.1 steps 5-6).
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    private struct Members: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }

    /// Parses clientDataJSON: a UTF-8 BOM is stripped (UTF-8 decode, WHATWG Encoding §4.1), members must have
    /// their JSON types, and unknown members are ignored.
    public init(parsing bytes: [UInt8]) throws {
        var data = bytes
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        guard String(validating: data, as: UTF8.self) != nil else {
            throw ParseError(description: "clientDataJSON is not UTF-8")
        }
        let members: Members
        do {
            members = try JSONDecoder().decode(Members.self, from: Data(data))
        } catch DecodingError.keyNotFound(let key, _) {
            throw ParseError(description: "clientDataJSON lacks member \(key.stringValue)")
        } catch DecodingError.typeMismatch(_, let context) {
            throw ParseError(description: "clientDataJSON member \(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong JSON type")
        } catch {
            throw ParseError(description: "clientDataJSON is not a JSON object")
        }
        // A member two JSON readers read with different values has no one value: a name given twice (RFC 8259
        // §4: "the behavior of software that receives such an object is unpredictable"), which a first-wins and a
        // last-wins verifier read as two different client data.
        if let object = (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any],
           object["type"] as? String != members.type || object["challenge"] as? String != members.challenge
            || object["origin"] as? String != members.origin {
            throw ParseError(description: "clientDataJSON gives type, challenge or origin twice with different values")
        }
        self.init(type: members.type, challenge: members.challenge, origin: members.origin,
                  crossOrigin: members.crossOrigin, topOrigin: members.topOrigin)
    }
}
