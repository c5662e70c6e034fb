import AttestCrypto
import Foundation

/// A profile's or case's parameters as the exec and vector documents spell them (a flat object of strings), read
/// into typed values. Each family reads its own struct (`AppAttestParameters`, `WebAuthnParameters`, ...) once;
/// nothing else parses the strings.
public struct ParameterReader: Sendable {
    public let values: [String: String]

    public init(_ values: [String: String]) { self.values = values }

    public func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw ParameterError(name: name, value: nil, expected: "a value") }
        return value
    }

    /// A comma-separated list; absent or empty is the empty list.
    public func list(_ name: String) -> [String] {
        (values[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// True exactly when the value is `expected` (`required`, `direct`, `true`).
    public func flag(_ name: String, is expected: String) -> Bool { values[name] == expected }

    public func seconds(_ name: String) throws -> TimeInterval {
        let text = try string(name)
        guard let value = TimeInterval(text), value.isFinite, value >= 0 else {
            throw ParameterError(name: name, value: text, expected: "a number of seconds")
        }
        return value
    }

    public func integers(_ name: String) throws -> [Int64] {
        try list(name).map { text in
            guard let value = Int64(text) else { throw ParameterError(name: name, value: text, expected: "integers") }
            return value
        }
    }

    /// Bytes written in hex; `count`, when given, is the only length accepted.
    public func hexBytes(_ name: String, count: Int? = nil) throws -> [UInt8] {
        let text = try string(name)
        guard let bytes = bytes(fromHex: text), count == nil || bytes.count == count else {
            throw ParameterError(name: name, value: text, expected: count.map { "\($0) bytes in hex" } ?? "hex")
        }
        return bytes
    }

    public func base64Bytes(_ name: String) throws -> [UInt8] {
        let text = try string(name)
        guard let data = Data(base64Encoded: text) else { throw ParameterError(name: name, value: text, expected: "base64") }
        return Array(data)
    }

    public func choice<Value: RawRepresentable>(_ name: String, _: Value.Type) throws -> Value where Value.RawValue == String {
        let text = try string(name)
        guard let value = Value(rawValue: text) else { throw ParameterError(name: name, value: text, expected: "one of the documented values") }
        return value
    }
}

/// A parameter that is missing or does not read as its type: the profile or suite is broken, never a verdict.
public struct ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// The value as written; nil when absent.
    public let value: String?
    public let expected: String

    public init(name: String, value: String?, expected: String) {
        self.name = name
        self.value = value
        self.expected = expected
    }

    public var description: String {
        guard let value else { return "the parameter \(name) is missing (expected \(expected))" }
        return "the parameter \(name) is \"\(value.prefix(80))\", not \(expected)"
    }
}
