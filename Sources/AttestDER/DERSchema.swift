/// Helpers for typed decoders that walk a parsed tree in schema order, in the style of swift-asn1's
/// `DER.sequence`: each failure names the field and carries the element's byte offset.
extension DERElement {
    /// Offset used in errors about this element: where it started in the parsed input (0 when built in code).
    public var location: Int { offset ?? 0 }

    /// Throws unless this element has `identifier`.
    @discardableResult
    public func expect(_ identifier: DERIdentifier, field: String? = nil) throws -> DERElement {
        guard self.identifier == identifier else {
            throw DERError(.unexpectedTag(expected: identifier, found: self.identifier), at: location, field: field)
        }
        return self
    }

    /// Content octets of a primitive element with `identifier`.
    public func primitiveContent(_ identifier: DERIdentifier, field: String? = nil) throws -> [UInt8] {
        try expect(identifier, field: field)
        guard let bytes = primitiveBytes else { throw DERError(.wrongConstruction, at: location, field: field) }
        return bytes
    }

    /// A reader over the children of a constructed element with `identifier` (SEQUENCE by default).
    public func contents(_ identifier: DERIdentifier = .sequence, field: String? = nil) throws -> DERChildren {
        try expect(identifier, field: field)
        guard let children else { throw DERError(.wrongConstruction, at: location, field: field) }
        return DERChildren(parent: self, elements: children, field: field)
    }

    /// The single element inside an EXPLICIT `[tag]`.
    public func explicitlyTagged(_ tag: UInt64, field: String? = nil) throws -> DERElement {
        var inner = try contents(.explicit(tag), field: field)
        let element = try inner.next()
        try inner.finish()
        return element
    }

    /// `SEQUENCE { children }`.
    public static func sequence(_ children: [DERElement]) -> DERElement { .constructed(.sequence, children) }

    /// `SET OF { children }`, sorted as DER requires (X.690 §11.6).
    public static func set(_ children: [DERElement]) -> DERElement {
        // Nothing to sort (a Name's RDNs hold one attribute each): no need to serialize the child to compare it.
        if children.count < 2 { return .constructed(.set, children) }
        let encoded = children.map { ($0, $0.serialized) }
        let sorted = encoded.sorted { DERReader.precedes($0.1[...], $1.1[...]) }
        return .constructed(.set, sorted.map(\.0))
    }

    /// EXPLICIT `[tag] inner`.
    public static func explicit(_ tag: UInt64, _ inner: DERElement) -> DERElement {
        .constructed(.explicit(tag), [inner])
    }

    /// IMPLICIT `[tag]`: the inner element's content under a context-specific tag.
    public static func implicit(_ tag: UInt64, _ inner: DERElement) -> DERElement {
        DERElement(.implicit(tag, constructed: inner.identifier.isConstructed), inner.content)
    }
}

/// The children of a constructed element, read front to back.
public struct DERChildren {
    public let parent: DERElement
    public private(set) var remaining: ArraySlice<DERElement>
    let field: String?

    init(parent: DERElement, elements: [DERElement], field: String?) {
        self.parent = parent
        self.remaining = elements[...]
        self.field = field
    }

    /// The next child; throws `.missingElement` at the parent when there is none.
    public mutating func next(_ field: String? = nil) throws -> DERElement {
        guard let element = remaining.popFirst() else {
            throw DERError(.missingElement, at: parent.location, field: field ?? self.field)
        }
        return element
    }

    /// The next child if it has `identifier` (for OPTIONAL and DEFAULT components), else nil.
    public mutating func next(ifIdentifier identifier: DERIdentifier) -> DERElement? {
        guard remaining.first?.identifier == identifier else { return nil }
        return remaining.popFirst()
    }

    /// Throws `.unexpectedElement` if children are left over.
    public func finish() throws {
        if let extra = remaining.first {
            throw DERError(.unexpectedElement, at: extra.location, field: field)
        }
    }
}
