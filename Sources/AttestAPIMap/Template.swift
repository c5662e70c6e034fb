import Foundation

/// What a template asks for a value: the values of a case, a session, the profile, the environment.
public protocol TemplateValues {
    /// The bytes `source` stands for now, or nil when it has none (an input the step lacks).
    func value(_ source: ValueSource) throws -> [UInt8]?
}

/// `{"$": "input.challenge", "as": "base64url"}`: one value, spelled one way. Without `optional`, a missing value
/// is an error (a map that asks for an input the step never has); with it, the member is left out. `default` is
/// the text used when the source has no value.
public struct ValueExpression: Hashable, Sendable {
    public var source: ValueSource
    public var encoding: ValueEncoding
    public var optional: Bool
    public var fallback: String?

    func bytes(_ values: any TemplateValues, at pointer: String) throws -> [UInt8]? {
        if let bytes = try values.value(source) { return bytes }
        if let fallback { return Array(fallback.utf8) }
        if optional { return nil }
        throw APIMapError(pointer, "\(source) has no value for this step")
    }
}

/// `{"$if": "input.platform", "equals": "IOS", "then": ..., "else": ...}`: the source has a value (equal to
/// `equals` as text, when given).
public struct TemplateCondition: Hashable, Sendable {
    public var source: ValueSource
    public var equals: String?

    func holds(_ values: any TemplateValues) throws -> Bool {
        guard let bytes = try values.value(source) else { return false }
        return equals.map { Array($0.utf8) == bytes } ?? true
    }
}

/// A JSON value with holes: what a request body, a header or a method is written as. Literals are sent as they
/// are; `$` objects become step values; `$if` objects choose a branch; a member whose value is left out (an
/// optional value without one, an `$if` without `else`) is not written at all.
public indirect enum Template: Hashable, Sendable {
    case literal(JSONValue)
    case array([Template])
    case object([String: Template])
    case value(ValueExpression)
    case condition(TemplateCondition, then: Template, otherwise: Template?)
    /// `{"$text": "Bearer {session.token}"}`: text with placeholders (`{source}` or `{source|encoding}`), each
    /// value written in its encoding's text; a value that is missing is an error.
    case text([TextPart])

    public enum TextPart: Hashable, Sendable {
        case literal(String)
        case value(ValueExpression)
    }

    /// Reads a template from the map at `pointer`.
    public init(_ json: JSONValue, at pointer: String) throws {
        switch json {
        case .array(let items):
            self = .array(try items.enumerated().map { try Template($0.element, at: "\(pointer)/\($0.offset)") })
        case .object(let members) where members["$"] != nil:
            let reader = ObjectReader(members, at: pointer)
            let source = try ValueSource(parsing: try reader.string("$"), at: pointer + "/$")
            let encoding = try reader.encoding("as") ?? .text
            self = .value(ValueExpression(source: source, encoding: encoding, optional: try reader.bool("optional") ?? false,
                                          fallback: try reader.optionalString("default")))
            try reader.onlyKnown(["$", "as", "optional", "default"])
        case .object(let members) where members["$text"] != nil:
            let reader = ObjectReader(members, at: pointer)
            self = .text(try Self.textParts(try reader.string("$text"), at: pointer + "/$text"))
            try reader.onlyKnown(["$text"])
        case .object(let members) where members["$if"] != nil:
            let reader = ObjectReader(members, at: pointer)
            let condition = TemplateCondition(source: try ValueSource(parsing: try reader.string("$if"), at: pointer + "/$if"),
                                              equals: try reader.optionalString("equals"))
            guard let then = members["then"] else { throw APIMapError(pointer, "an $if needs a then") }
            self = .condition(condition, then: try Template(then, at: pointer + "/then"),
                              otherwise: try members["else"].map { try Template($0, at: pointer + "/else") })
            try reader.onlyKnown(["$if", "equals", "then", "else"])
        case .object(let members):
            if let key = members.keys.first(where: { $0.hasPrefix("$") }) {
                throw APIMapError("\(pointer)/\(escape(key))", "unknown template operator \"\(key)\" (known: $, $if and $text)")
            }
            self = .object(Dictionary(uniqueKeysWithValues: try members.map { ($0.key, try Template($0.value, at: "\(pointer)/\(escape($0.key))")) }))
        default:
            self = .literal(json)
        }
    }

    /// The JSON this template renders to with `values`, or nil when it is left out.
    public func render(_ values: any TemplateValues, at pointer: String = "") throws -> JSONValue? {
        switch self {
        case .literal(let json): return json
        case .array(let items):
            return .array(try items.enumerated().compactMap { try $0.element.render(values, at: "\(pointer)/\($0.offset)") })
        case .object(let members):
            var rendered: [String: JSONValue] = [:]
            for (key, member) in members {
                if let value = try member.render(values, at: "\(pointer)/\(escape(key))") { rendered[key] = value }
            }
            return .object(rendered)
        case .value(let expression):
            guard let bytes = try expression.bytes(values, at: pointer) else { return nil }
            do {
                return try expression.encoding.render(bytes)
            } catch let error as APIMapError {
                throw APIMapError(pointer, "\(expression.source) as \(expression.encoding.rawValue): \(error.message)")
            }
        case .condition(let condition, let then, let otherwise):
            return try condition.holds(values) ? then.render(values, at: pointer + "/then") : otherwise?.render(values, at: pointer + "/else")
        case .text(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .literal(let literal): text += literal
                case .value(let expression):
                    guard let rendered = try Template.value(expression).render(values, at: pointer), let piece = rendered.text else {
                        throw APIMapError(pointer, "\(expression.source) has no text value for this step")
                    }
                    text += piece
                }
            }
            return .string(text)
        }
    }

    /// `{source}` and `{source|encoding}` placeholders in `text`, between literal runs (`place` ends the messages:
    /// " in the path").
    static func textParts(_ text: String, at pointer: String, place: String = "") throws -> [TextPart] {
        var parts: [TextPart] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { throw APIMapError(pointer, "an unclosed {\(place)") }
            let inside = rest[rest.index(after: open)..<close].split(separator: "|", maxSplits: 1).map(String.init)
            guard let first = inside.first else { throw APIMapError(pointer, "an empty {}\(place)") }
            var encoding = ValueEncoding.text
            if inside.count == 2 {
                guard let named = ValueEncoding(rawValue: inside[1]) else { throw APIMapError(pointer, "unknown encoding \"\(inside[1])\"") }
                encoding = named
            }
            parts.append(.value(ValueExpression(source: try ValueSource(parsing: first, at: pointer), encoding: encoding,
                                                optional: false, fallback: nil)))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        return parts
    }

    /// The text this template renders to (a header value, a method), or nil when it is left out.
    func renderText(_ values: any TemplateValues, at pointer: String) throws -> String? {
        guard let json = try render(values, at: pointer) else { return nil }
        guard let text = json.text else { throw APIMapError(pointer, "renders to \(json.serialized.count)-byte JSON, not text") }
        return text
    }

    /// The values a request written from this template carries: every `$` whose place holds a value it can read
    /// (both branches of an `$if` are tried). What the emulation of a map reads a request with.
    public func extract(from json: JSONValue?, into values: inout [ValueSource: [UInt8]]) {
        guard let json else { return }
        switch self {
        case .literal: return
        case .array(let items):
            guard let elements = json.arrayValue else { return }
            for (item, element) in zip(items, elements) { item.extract(from: element, into: &values) }
        case .object(let members):
            guard let object = json.objectValue else { return }
            for (key, member) in members.sorted(by: { $0.key < $1.key }) { member.extract(from: object[key], into: &values) }
        case .value(let expression):
            if values[expression.source] == nil, let bytes = expression.encoding.read(json) { values[expression.source] = bytes }
        case .condition(_, let then, let otherwise):
            then.extract(from: json, into: &values)
            otherwise?.extract(from: json, into: &values)
        case .text(let parts):
            // The literal runs anchor the values between them; each value is the shortest run up to the next literal.
            guard let whole = json.stringValue else { return }
            var rest = Substring(whole)
            for (index, part) in parts.enumerated() {
                switch part {
                case .literal(let literal):
                    guard rest.hasPrefix(literal) else { return }
                    rest = rest.dropFirst(literal.count)
                case .value(let expression):
                    var end = rest.endIndex
                    if index + 1 < parts.count, case .literal(let next) = parts[index + 1], let range = rest.range(of: next) { end = range.lowerBound }
                    if values[expression.source] == nil, let bytes = expression.encoding.read(.string(String(rest[..<end]))) {
                        values[expression.source] = bytes
                    }
                    rest = rest[end...]
                }
            }
        }
    }

    /// Every value source this template reads (for validation and for the emulation).
    public var sources: [ValueSource] {
        switch self {
        case .literal: []
        case .array(let items): items.flatMap(\.sources)
        case .object(let members): members.sorted { $0.key < $1.key }.flatMap(\.value.sources)
        case .value(let expression): [expression.source]
        case .condition(let condition, let then, let otherwise): [condition.source] + then.sources + (otherwise?.sources ?? [])
        case .text(let parts): parts.compactMap { if case .value(let expression) = $0 { expression.source } else { nil } }
        }
    }
}

/// A path written `/users/{identity.username}/keys` (each `{source}` or `{source|encoding}` is percent-encoded as
/// one path segment), or a `$` object whose text is the whole target, query included.
public enum PathTemplate: Hashable, Sendable {
    public enum Part: Hashable, Sendable {
        case literal(String)
        case value(ValueExpression)
    }

    case parts([Part])
    case whole(ValueExpression)

    package init(_ json: JSONValue, at pointer: String) throws {
        switch json {
        case .string(let text):
            guard text.hasPrefix("/") else { throw APIMapError(pointer, "a path starts with /") }
            guard !text.contains("?"), !text.contains("#") else {
                throw APIMapError(pointer, "a path template has no query: write the whole target as a $ value ({\"$\": \"input.target\"}) instead")
            }
            guard !text.unicodeScalars.contains(where: { $0.value <= 32 || $0.value == 127 }),
                  !text.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }), !text.hasPrefix("//") else {
                throw APIMapError(pointer, "a path has no whitespace, control characters, // prefix or . and .. segments")
            }
            let parts: [Part] = try Template.textParts(text, at: pointer, place: " in the path").map { part in
                switch part {
                case .literal(let literal): .literal(literal)
                case .value(let expression): .value(expression)
                }
            }
            self = .parts(parts)
        case .object:
            guard case .value(let expression) = try Template(json, at: pointer) else { throw APIMapError(pointer, "a path is a string or a $ object") }
            self = .whole(expression)
        default:
            throw APIMapError(pointer, "a path is a string or a $ object")
        }
    }

    package func render(_ values: any TemplateValues, at pointer: String) throws -> String {
        switch self {
        case .whole(let expression):
            let bytes = try expression.bytes(values, at: pointer) ?? []
            guard let target = String(validating: bytes, as: UTF8.self), target.hasPrefix("/") else {
                throw APIMapError(pointer, "\(expression.source) is not a request target starting with /")
            }
            // A whole target (a case's own, or one a server handed back) is held to what a literal path may be: no
            // dot segments, no "//" authority form, no whitespace or control characters, nothing but what a
            // request line carries as it is.
            let path = target.prefix { $0 != "?" && $0 != "#" }
            let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            let unsafe = target.hasPrefix("//") || segments.contains { $0 == "." || $0 == ".." || $0.lowercased() == "%2e" || $0.lowercased() == "%2e%2e" || $0.lowercased() == ".%2e" || $0.lowercased() == "%2e." }
                || target.unicodeScalars.contains { $0.value <= 0x20 || $0.value >= 0x7f || $0 == "#" }
            guard !unsafe else {
                throw APIMapError(pointer, "\(expression.source) is not a request target without dot segments, whitespace or control characters")
            }
            return target
        case .parts(let parts):
            return try parts.map { part in
                switch part {
                case .literal(let text): return text
                case .value(let expression):
                    let json = try Template.value(expression).render(values, at: pointer)
                    let text = json?.text ?? ""
                    // One segment: "/", "?" and "#" are encoded, and so is a value of "." or ".." (never a dot segment).
                    if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
                    return text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? ""
                }
            }.joined()
        }
    }

    /// The values a request target carries when it matches this path, or nil when it does not match.
    package func match(_ target: String) -> [ValueSource: [UInt8]]? {
        switch self {
        case .whole(let expression): return [expression.source: Array(target.utf8)]
        case .parts(let parts):
            let path = String(target.prefix { $0 != "?" })
            var values: [ValueSource: [UInt8]] = [:]
            var rest = Substring(path)
            for (index, part) in parts.enumerated() {
                switch part {
                case .literal(let text):
                    guard rest.hasPrefix(text) else { return nil }
                    rest = rest.dropFirst(text.count)
                case .value(let expression):
                    // A value runs to the next literal (or the end); it is one segment.
                    let next: Substring.Index
                    if index + 1 < parts.count, case .literal(let following) = parts[index + 1],
                       let range = rest.range(of: following) {
                        next = range.lowerBound
                    } else {
                        next = rest.endIndex
                    }
                    let segment = String(rest[..<next])
                    guard !segment.isEmpty, !segment.contains("/"), let decoded = segment.removingPercentEncoding,
                          let bytes = expression.encoding.read(.string(decoded)) else { return nil }
                    values[expression.source] = bytes
                    rest = rest[next...]
                }
            }
            return rest.isEmpty ? values : nil
        }
    }

    /// A path that matches any target (a step whose target is an input): tried after every fixed path.
    package var isCatchAll: Bool { if case .whole = self { true } else { false } }
}

/// RFC 6901 escaping of one reference token.
func escape(_ key: String) -> String { key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }
