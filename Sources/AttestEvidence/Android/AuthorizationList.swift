import AttestDER

/// A KeyMint AuthorizationList (AOSP KeyMint `Tag.aidl`): EXPLICIT-tagged optional fields in ascending tag order.
/// Fields and SET members are kept in wire order, and tags this parser does not know are kept as they were, so
/// that re-encoding reproduces what was read and forged lists can carry anything.
public struct AuthorizationList: Hashable, Sendable {
    public enum Value: Hashable, Sendable {
        case integer(Int64)
        case integerSet([Int64])
        /// NULL: present means true.
        case flag
        case octets([UInt8])
        case rootOfTrust(RootOfTrust)
        case attestationApplicationId(AttestationApplicationId)
        /// A tag this parser does not know, as read.
        case unknown(DERElement)
    }

    public struct Field: Hashable, Sendable {
        public var tag: UInt64
        public var value: Value

        public init(_ tag: UInt64, _ value: Value) {
            self.tag = tag
            self.value = value
        }

        public init(_ tag: AuthorizationTag, _ value: Value) { self.init(tag.rawValue, value) }
    }

    public var fields: [Field]

    /// False when the fields are not in ascending tag order (read with `allowUnorderedTags`, or forged so); a
    /// repeated tag right after itself is `repeatedTags`, not disorder.
    public var tagsAscending: Bool { zip(fields, fields.dropFirst()).allSatisfy { $0.tag <= $1.tag } }

    /// Tags that appear more than once (read with `allowRepeatedTags`, or forged so), in order of first repetition.
    /// `self[tag]` reads the first occurrence, or the last with `readsLastOfRepeated` (as android/keyattestation's
    /// parser keeps it).
    public var repeatedTags: [UInt64] {
        var seen = Set<UInt64>(), reported = Set<UInt64>(), repeated: [UInt64] = []
        for field in fields where !seen.insert(field.tag).inserted && reported.insert(field.tag).inserted { repeated.append(field.tag) }
        return repeated
    }

    /// Which occurrence of a repeated tag lookups read: the first (false, the default) or the last.
    public var readsLastOfRepeated = false

    public init(_ fields: [Field] = []) { self.fields = fields }

    public subscript(tag: AuthorizationTag) -> Value? {
        readsLastOfRepeated ? fields.last { $0.tag == tag.rawValue }?.value : fields.first { $0.tag == tag.rawValue }?.value
    }

    public func integer(_ tag: AuthorizationTag) -> Int64? {
        if case .integer(let value)? = self[tag] { return value }
        return nil
    }

    public func integerSet(_ tag: AuthorizationTag) -> [Int64]? {
        if case .integerSet(let values)? = self[tag] { return values }
        return nil
    }

    public func contains(_ tag: AuthorizationTag) -> Bool { self[tag] != nil }

    /// Sets `tag` to `value`, replacing it in place or inserting it where ascending order puts it.
    public mutating func set(_ tag: AuthorizationTag, _ value: Value) {
        if let index = fields.firstIndex(where: { $0.tag == tag.rawValue }) {
            fields[index].value = value
        } else {
            fields.insert(Field(tag, value), at: fields.firstIndex { $0.tag > tag.rawValue } ?? fields.count)
        }
    }

    public mutating func remove(_ tag: AuthorizationTag) { fields.removeAll { $0.tag == tag.rawValue } }

    public var rootOfTrust: RootOfTrust? {
        if case .rootOfTrust(let value)? = self[.rootOfTrust] { return value }
        return nil
    }

    public var attestationApplicationId: AttestationApplicationId? {
        if case .attestationApplicationId(let value)? = self[.attestationApplicationId] { return value }
        return nil
    }

    /// `SEQUENCE { [tag] EXPLICIT value ... }` in the stored order.
    public var element: DERElement {
        .sequence(fields.map { field in
            let inner: DERElement
            switch field.value {
            case .integer(let value): inner = .integer(value)
            // SET OF in the stored order: real KeyMint output is not always sorted, and re-encoding must match it.
            case .integerSet(let values): inner = .constructed(.set, values.map { .integer($0) })
            case .flag: inner = .null
            case .octets(let bytes): inner = .octetString(bytes)
            case .rootOfTrust(let root): inner = root.element
            case .attestationApplicationId(let id): inner = .octetString(id.element.serialized)
            case .unknown(let element): return element
            }
            return .explicit(field.tag, inner)
        })
    }

    init(_ element: DERElement, field name: String, options: KeyDescription.Options) throws {
        var list = try element.contents(field: name)
        var fields: [Field] = []
        var previous: UInt64?
        var seen = Set<UInt64>()
        while let tagged = list.remaining.first {
            _ = try list.next()
            let identifier = tagged.identifier
            let path = "\(name).[\(identifier.tagNumber)]"
            guard identifier.tagClass == .contextSpecific else {
                throw DERError(.unexpectedTag(expected: .explicit(identifier.tagNumber), found: identifier),
                               at: tagged.location, field: path)
            }
            if !seen.insert(identifier.tagNumber).inserted, !options.allowRepeatedTags {
                throw DERError(.repeatedComponent, at: tagged.location, field: "\(name): tag \(identifier.tagNumber) again")
            }
            if let previous, identifier.tagNumber < previous, !options.allowUnorderedTags {
                throw DERError(.outOfOrder, at: tagged.location, field: "\(name): tag \(identifier.tagNumber) after \(previous)")
            }
            previous = identifier.tagNumber
            guard let tag = AuthorizationTag(rawValue: identifier.tagNumber) else {
                fields.append(Field(identifier.tagNumber, .unknown(tagged)))
                continue
            }
            let fieldName = "\(name).\(tag)"
            let inner: DERElement
            if options.allowImplicitTags, !identifier.isConstructed, let content = tagged.primitiveBytes {
                let universal: DERIdentifier = tag.kind == .octets || tag.kind == .attestationApplicationId ? .octetString
                    : tag.kind == .flag ? .null : .integer
                inner = DERElement(universal, .primitive(content), offset: tagged.offset)
            } else {
                inner = try tagged.explicitlyTagged(tag.rawValue, field: fieldName)
            }
            switch tag.kind {
            case .integer:
                fields.append(Field(tag, .integer(try inner.integerValue(field: fieldName))))
            case .integerSet:
                var members = try inner.contents(.set, field: fieldName)
                var values: [Int64] = []
                while !members.remaining.isEmpty { values.append(try members.next().integerValue(field: fieldName)) }
                fields.append(Field(tag, .integerSet(values)))
            case .flag:
                guard inner.identifier == .null else {
                    throw DERError(.unexpectedTag(expected: .null, found: inner.identifier), at: inner.location, field: fieldName)
                }
                fields.append(Field(tag, .flag))
            case .octets:
                fields.append(Field(tag, .octets(try inner.octetStringValue(field: fieldName))))
            case .rootOfTrust:
                fields.append(Field(tag, .rootOfTrust(try RootOfTrust(inner, field: fieldName, options: options))))
            case .attestationApplicationId:
                let bytes = try inner.octetStringValue(field: fieldName)
                fields.append(Field(tag, .attestationApplicationId(try AttestationApplicationId(der: bytes, field: fieldName))))
            }
        }
        self.fields = fields
    }
}
