import Foundation
import AttestConformance

/// Where a template value comes from, written `input.challenge`, `parameter.rpId`, `identity.username`,
/// `session.token`, `derived.attestedCredentialId` or `env.NAME`.
public enum ValueSource: Hashable, Sendable, CustomStringConvertible {
    /// A step input, after the server's values replaced the forged ones.
    case input(InputKey)
    /// A parameter of the profile (`rpId`, `userVerification`).
    case parameter(String)
    /// A fresh per-case identity the map declares under `identities` (a user name no earlier case used).
    case identity(String)
    /// A value a capture stored in the current session (`"store": "token"`).
    case session(String)
    /// A value read out of a step input.
    case derived(DerivedValue)
    /// An environment variable of the harness (a secret: its value never reaches a report or a dry run).
    case environment(String)
    /// A field of the real account the step's simulated user is (`account.username`), from the map's account pool.
    case account(String)

    public init(parsing text: String, at pointer: String) throws {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
            throw APIMapError(pointer, "\"\(text)\" is not a source (input.KEY, parameter.NAME, identity.NAME, account.NAME, session.NAME, derived.NAME or env.NAME)")
        }
        let name = String(text[text.index(after: dot)...])
        // A name is a word of the map's own vocabulary (`challenge`, `header.X-Platform`, `rpId`): no control
        // character, space or quote can ride in it into a request or an error message.
        guard name.utf8.count <= 128, name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }) else {
            throw APIMapError(pointer, "\"\(text)\" is not a name (letters, digits, ., _ and -, at most 128)")
        }
        switch text[..<dot] {
        case "input": self = .input(InputKey(name))
        case "parameter": self = .parameter(name)
        case "identity": self = .identity(name)
        case "session": self = .session(name)
        case "account": self = .account(name)
        case "env":
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw APIMapError(pointer, "\"\(name)\" is not an environment variable name")
            }
            self = .environment(name)
        case "derived":
            guard let value = DerivedValue(rawValue: name) else {
                throw APIMapError(pointer, "unknown derived value \"\(name)\"; known: "
                                  + DerivedValue.allCases.map(\.rawValue).joined(separator: ", "))
            }
            self = .derived(value)
        default:
            throw APIMapError(pointer, "\"\(text)\" is not a source (input.KEY, parameter.NAME, identity.NAME, account.NAME, session.NAME, derived.NAME or env.NAME)")
        }
    }

    public var description: String {
        switch self {
        case .input(let key): "input.\(key)"
        case .parameter(let name): "parameter.\(name)"
        case .identity(let name): "identity.\(name)"
        case .session(let name): "session.\(name)"
        case .derived(let value): "derived.\(value.rawValue)"
        case .environment(let name): "env.\(name)"
        case .account(let name): "account.\(name)"
        }
    }
}

/// Values a request may need that are inside a step input rather than an input of their own.
public enum DerivedValue: String, Hashable, Sendable, CaseIterable {
    /// The credential id in a registration's attestation object (its authenticator data's attested credential
    /// data), which clients send as `id` and `rawId`.
    case attestedCredentialId
}

import AttestCBOR

extension DerivedValue {
    /// The value in `inputs`, or nil when it cannot be read there.
    public func value(in inputs: [InputKey: [UInt8]]) -> [UInt8]? {
        switch self {
        case .attestedCredentialId:
            // Leniently: a case may break the attestation object's encoding and still need its id sent.
            var lenient = CBORReader.Options()
            lenient.allowDuplicateMapKeys = true
            lenient.allowIndefiniteLengths = true
            guard let attestationObject = inputs[InputKey("attestationObject")],
                  let (object, _) = try? CBORReader.decodePrefix(attestationObject, options: lenient),
                  let authData = object["authData"]?.bytesValue, authData.count >= 55 else { return nil }
            let length = Int(authData[53]) << 8 | Int(authData[54])
            return authData.count >= 55 + length ? Array(authData[55..<(55 + length)]) : nil
        }
    }
}
