/// An OBJECT IDENTIFIER value (X.690 §8.19), written and read in dotted form.
public struct DERObjectIdentifier: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let components: [UInt64]

    public init(_ components: [UInt64]) {
        precondition(components.count >= 2 && components[0] <= 2 && (components[0] == 2 || components[1] < 40),
                     "an OID has at least two arcs, the first 0, 1 or 2")
        self.components = components
    }

    /// Parses dotted form such as `"1.2.840.113635.100.8.2"`; nil when malformed.
    public init?(dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map { UInt64($0) }
        guard parts.count >= 2, !parts.contains(nil) else { return nil }
        let arcs = parts.map { $0! }
        guard arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        if arcs[0] == 2 && arcs[1] > UInt64.max - 80 { return nil }
        self.components = arcs
    }

    public init(stringLiteral value: String) {
        guard let oid = DERObjectIdentifier(dotted: value) else { preconditionFailure("bad OID literal \(value)") }
        self = oid
    }

    public var description: String { components.map(String.init).joined(separator: ".") }

    /// Content octets: first two arcs combined as 40·x + y, each sub-identifier in minimal base 128.
    public var contentBytes: [UInt8] {
        var out: [UInt8] = []
        for arc in [components[0] * 40 + components[1]] + components.dropFirst(2) {
            var digits: [UInt8] = [UInt8(arc & 0x7f)]
            var n = arc >> 7
            while n > 0 {
                digits.insert(UInt8(n & 0x7f) | 0x80, at: 0)
                n >>= 7
            }
            out += digits
        }
        return out
    }

    /// Decodes content octets; nil when empty, truncated, non-minimal or overflowing.
    init?(contentBytes bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.last! & 0x80 == 0 else { return nil }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var startOfArc = true
        for byte in bytes {
            if startOfArc && byte == 0x80 { return nil }
            if value > (UInt64.max >> 7) { return nil }
            value = (value << 7) | UInt64(byte & 0x7f)
            startOfArc = byte & 0x80 == 0
            if startOfArc {
                arcs.append(value)
                value = 0
            }
        }
        let first = arcs[0]
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        self.components = head + arcs.dropFirst()
    }
}

extension DERElement {
    public static func oid(_ oid: DERObjectIdentifier) -> DERElement {
        .primitive(.objectIdentifier, oid.contentBytes)
    }

    public func oidValue(field: String? = nil) throws -> DERObjectIdentifier {
        let content = try primitiveContent(.objectIdentifier, field: field)
        guard let oid = DERObjectIdentifier(contentBytes: content) else {
            throw DERError(.invalidObjectIdentifier, at: location, field: field)
        }
        return oid
    }
}
