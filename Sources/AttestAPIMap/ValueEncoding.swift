import AttestCrypto
import AttestDER
import Foundation

/// How the bytes of a step input are spelled in a request, or how a response value is turned back into bytes.
public enum ValueEncoding: String, Hashable, Sendable, CaseIterable {
    /// Standard base64 with padding.
    case base64
    /// Unpadded base64url (RFC 4648 §5), WebAuthn's spelling.
    case base64url
    /// Lowercase hexadecimal.
    case hex
    /// The bytes are UTF-8 text.
    case text
    /// The bytes are a JSON document, embedded as JSON.
    case json
    /// The bytes are the decimal text of an integer, written as a JSON number.
    case integer
    /// The bytes as they are (a raw request body only).
    case raw
    /// The bytes are DER elements one after another (a certificate chain): a JSON array of their base64.
    case derSequenceBase64 = "der-sequence-base64"

    /// The JSON value `bytes` are written as.
    package func render(_ bytes: [UInt8]) throws -> JSONValue {
        switch self {
        case .base64: return .string(Data(bytes).base64EncodedString())
        case .base64url: return .string(Base64URL.encode(bytes))
        case .hex: return .string(bytes.map { String(format: "%02x", $0) }.joined())
        case .text, .raw:
            guard let text = String(validating: bytes, as: UTF8.self) else { throw APIMapError("", "the value is not UTF-8 text") }
            return .string(text)
        case .json: return try JSONValue.parse(Data(bytes))
        case .integer:
            guard let text = String(validating: bytes, as: UTF8.self), let number = Int(text) else {
                throw APIMapError("", "the value \"\(String(decoding: bytes.prefix(40), as: UTF8.self))\" is not an integer")
            }
            return .integer(number)
        case .derSequenceBase64:
            let elements = try DERReader.parseSequence(bytes, options: .ber)
            guard elements.flatMap(\.serialized) == bytes else {
                throw APIMapError("", "the value is not DER elements that can be split without re-encoding")
            }
            return .array(elements.map { .string(Data($0.serialized).base64EncodedString()) })
        }
    }

    /// The bytes a JSON value read from a request or response stands for, or nil when it is not spelled this way.
    package func read(_ value: JSONValue) -> [UInt8]? {
        switch (self, value) {
        case (.base64, .string(let text)): return Data(base64Encoded: text).map(Array.init)
        case (.base64url, .string(let text)): return Base64URL.decode(text)
        case (.hex, .string(let text)): return bytes(hex: text)
        case (.text, .string(let text)), (.raw, .string(let text)): return Array(text.utf8)
        case (.json, _): return Array(value.serialized)
        case (.integer, .integer(let number)): return Array(String(number).utf8)
        case (.integer, .string(let text)): return Int(text).map { Array(String($0).utf8) }
        case (.derSequenceBase64, .array(let items)):
            var joined: [UInt8] = []
            for item in items {
                guard let text = item.stringValue, let der = Data(base64Encoded: text) else { return nil }
                joined += der
            }
            return joined
        default: return nil
        }
    }

    private func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            result.append(byte)
        }
        return result
    }
}
