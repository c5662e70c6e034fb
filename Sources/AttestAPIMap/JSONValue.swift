import Foundation

/// A JSON document as a value: what API maps are written in, what their templates render to, and what responses
/// are read from. Objects keep no member order (bodies are written with sorted keys).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `data` (at most `limit` bytes; deeper than 64 levels is refused).
    public static func parse(_ data: Data, limit: Int = 1 << 20) throws -> JSONValue {
        guard data.count <= limit else { throw APIMapError("", "the document is \(data.count) bytes, over the \(limit)-byte cap") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw APIMapError("", "not JSON: \(error.localizedDescription)")
        }
        return try JSONValue(foundation: object, depth: 0)
    }

    init(foundation object: Any, depth: Int) throws {
        guard depth < 64 else { throw APIMapError("", "nested deeper than 64 levels") }
        switch object {
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let number as NSNumber:
            // JSON's true and false are the only numbers Foundation reads as the C char type.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else if let integer = Int(exactly: number.doubleValue), !String(describing: number).contains(".") {
                self = .integer(integer)
            } else {
                self = .number(number.doubleValue)
            }
        case let array as [Any]: self = .array(try array.map { try JSONValue(foundation: $0, depth: depth + 1) })
        case let dictionary as [String: Any]:
            self = .object(try dictionary.mapValues { try JSONValue(foundation: $0, depth: depth + 1) })
        default: throw APIMapError("", "unexpected JSON value \(type(of: object))")
        }
    }

    var foundation: Any {
        switch self {
        case .null: NSNull()
        case .bool(let value): value
        case .integer(let value): value
        case .number(let value): value
        case .string(let value): value
        case .array(let values): values.map(\.foundation)
        case .object(let members): members.mapValues(\.foundation)
        }
    }

    /// The compact JSON text, keys sorted, slashes unescaped.
    public var serialized: Data {
        (try? JSONSerialization.data(withJSONObject: foundation, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])) ?? Data()
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }

    /// The value at `pointer` (RFC 6901), or nil.
    public func at(_ pointer: String) -> JSONValue? {
        guard !pointer.isEmpty else { return self }
        guard pointer.hasPrefix("/") else { return nil }
        var value = self
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch value {
            case .object(let members): guard let next = members[key] else { return nil }; value = next
            case .array(let values): guard let index = Int(key), values.indices.contains(index) else { return nil }; value = values[index]
            default: return nil
            }
        }
        return value
    }

    /// This value with `member` written at `pointer`, creating objects on the way (for the emulation's answers).
    package func setting(_ pointer: String, to member: JSONValue) -> JSONValue {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: true).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        func set(_ value: JSONValue, _ tokens: ArraySlice<String>) -> JSONValue {
            guard let first = tokens.first else { return member }
            var members = value.objectValue ?? [:]
            members[first] = set(members[first] ?? .null, tokens.dropFirst())
            return .object(members)
        }
        return set(self, tokens[...])
    }

    /// The text a status or reason reads from this value: strings as they are, numbers in decimal.
    package var text: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        default: nil
        }
    }
}
