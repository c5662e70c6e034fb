import Foundation

/// The proof of possession of a device-bound passkey import (docs/protocols/passkey-import.md §4): a JSON
/// object with exactly the members type, challenge, challengeId, userId (businessId on business routes),
/// credentialId and publicKeySha256, all strings, signed as bytes (DER ECDSA-SHA256) by the new key.
public struct ImportProof: Hashable, Sendable {
    public static let type = "striga.passkey.import"

    /// Members in the order the API documents them; `extra` are written after them.
    public var members: [(name: String, value: String)]

    public init(challenge: String, challengeId: String, userId: String, credentialId: String, publicKeySha256: String) {
        members = [("type", Self.type), ("challenge", challenge), ("challengeId", challengeId), ("userId", userId),
                   ("credentialId", credentialId), ("publicKeySha256", publicKeySha256)]
    }

    public subscript(name: String) -> String? {
        get { members.first { $0.name == name }?.value }
        set {
            if let index = members.firstIndex(where: { $0.name == name }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((name, newValue))
            }
        }
    }

    /// Compact JSON, members in order, strings escaped by JSONSerialization's rules.
    public var bytes: [UInt8] {
        let body = members.map { member in
            // Member values are JSON values the forge or a parser put there; anything else is written as null.
            let data = JSONSerialization.isValidJSONObject([member.value])
                ? (try? JSONSerialization.data(withJSONObject: member.value, options: .fragmentsAllowed)) : nil
            let value = data.map { String(decoding: $0, as: UTF8.self) } ?? "null"
            return "\"\(member.name)\":\(value)"
        }
        return Array(("{" + body.joined(separator: ",") + "}").utf8)
    }

    /// Why proof bytes are not a proof object.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads a proof: a JSON object whose members are all strings. Which members are required is the
    /// verifier's rule, not the parser's.
    public init(parsing bytes: [UInt8]) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw ParseError(description: "the proof is not a JSON object")
        }
        members = try object.keys.sorted().map { name in
            guard let value = object[name] as? String else { throw ParseError(description: "proof member \(name) is not a string") }
            return (name, value)
        }
    }

    public static func == (lhs: ImportProof, rhs: ImportProof) -> Bool {
        lhs.members.map(\.name) == rhs.members.map(\.name) && lhs.members.map(\.value) == rhs.members.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.name)
            hasher.combine(member.value)
        }
    }
}

/// Constants of the device-bound passkey import API (docs/protocols/passkey-import.md).
public enum PasskeyImportFormat {
    /// The challenge lives 10 minutes and is single use.
    public static let challengeLifetime: TimeInterval = 600
    public static let passkeyCap = 5
    /// credentialId is 16 to 64 random bytes chosen by the app.
    public static let credentialIdLength = 16...64
    /// The members a user-route proof has; business routes use businessId instead of userId.
    public static let proofMembers: Set<String> = ["type", "challenge", "challengeId", "userId", "credentialId", "publicKeySha256"]
    public static let businessProofMembers: Set<String> = ["type", "challenge", "challengeId", "businessId", "credentialId", "publicKeySha256"]
}
