/// Reads the members of one JSON object of a map strictly: each getter names the pointer of a member that is
/// missing or of the wrong type, and `onlyKnown` refuses members the format does not define (a typo is an error,
/// never a silently ignored setting).
struct ObjectReader {
    let members: [String: JSONValue]
    let pointer: String

    init(_ members: [String: JSONValue], at pointer: String) {
        self.members = members
        self.pointer = pointer
    }

    init(_ json: JSONValue, at pointer: String) throws {
        guard let members = json.objectValue else { throw APIMapError(pointer, "expected an object") }
        self.init(members, at: pointer)
    }

    func at(_ key: String) -> String { "\(pointer)/\(escape(key))" }

    func string(_ key: String) throws -> String {
        guard let value = try optionalString(key) else { throw APIMapError(at(key), "required") }
        return value
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = members[key] else { return nil }
        guard let text = value.stringValue else { throw APIMapError(at(key), "expected a string") }
        return text
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = members[key] else { return nil }
        guard case .bool(let flag) = value else { throw APIMapError(at(key), "expected true or false") }
        return flag
    }

    func integer(_ key: String) throws -> Int? {
        guard let value = members[key] else { return nil }
        guard case .integer(let number) = value else { throw APIMapError(at(key), "expected an integer") }
        return number
    }

    func encoding(_ key: String) throws -> ValueEncoding? {
        guard let name = try optionalString(key) else { return nil }
        guard let encoding = ValueEncoding(rawValue: name) else {
            throw APIMapError(at(key), "unknown encoding \"\(name)\"; known: " + ValueEncoding.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return encoding
    }

    func object(_ key: String) throws -> ObjectReader? {
        guard let value = members[key] else { return nil }
        return try ObjectReader(value, at: at(key))
    }

    func array(_ key: String) throws -> [(JSONValue, String)] {
        guard let value = members[key] else { return [] }
        guard let items = value.arrayValue else { throw APIMapError(at(key), "expected an array") }
        return items.enumerated().map { ($0.element, "\(at(key))/\($0.offset)") }
    }

    func onlyKnown(_ known: Set<String>) throws {
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw APIMapError(at(unknown), "unknown member \"\(unknown)\" (known here: \(known.sorted().joined(separator: ", ")))")
        }
    }
}
