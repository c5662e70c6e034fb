import Foundation

/// An OBJECT IDENTIFIER value (X.690 §8.19). Its identity is its content octets, so every arc is kept however large
/// (X.660 puts no bound on arcs; `1.2.18446744073709551616` is a valid OID that OpenSSL reads). `components` gives
/// the arcs when each fits 64 bits; `description` writes the dotted form in any case.
public struct DERObjectIdentifier: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Content octets: first two arcs combined as 40·x + y, each sub-identifier in minimal base 128.
    public let contentBytes: [UInt8]

    /// - Precondition: at least two arcs, the first 0, 1 or 2, the second below 40 unless the first is 2 (for
    ///   literals in our code; input goes through `init?(dotted:)` or `init?(contentBytes:)`).
    public init(_ components: [UInt64]) {
        guard let oid = DERObjectIdentifier(arcs: components) else {
            preconditionFailure("an OID has at least two arcs, the first 0, 1 or 2")
        }
        self = oid
    }

    /// Parses dotted form such as `"1.2.840.113635.100.8.2"` with arcs of up to 64 bits; nil when malformed.
    public init?(dotted: String) {
        guard dotted.utf8.count <= 1024 else { return nil }
        var arcs: [UInt64] = []
        for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
            guard let arc = UInt64(part) else { return nil }
            arcs.append(arc)
        }
        self.init(arcs: arcs)
    }

    private init?(arcs: [UInt64]) {
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        guard arcs[0] < 2 || arcs[1] <= UInt64.max - 80 else { return nil }
        var out: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var digits: [UInt8] = [UInt8(arc & 0x7f)]
            var rest = arc >> 7
            while rest > 0 {
                digits.append(UInt8(rest & 0x7f) | 0x80)
                rest >>= 7
            }
            out += digits.reversed()
        }
        contentBytes = out
    }

    /// Reads content octets; nil when empty, truncated (the last octet continues) or non-minimal (a sub-identifier
    /// starting with 0x80). Arcs of any size are kept.
    public init?(contentBytes bytes: [UInt8]) {
        guard DERObjectIdentifier.isWellFormed(bytes[...]) else { return nil }
        contentBytes = bytes
    }

    /// What `init?(contentBytes:)` accepts, checked in place (the reader checks OIDs without copying them).
    static func isWellFormed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let last = bytes.last, last & 0x80 == 0 else { return false }
        var startOfArc = true
        for byte in bytes {
            if startOfArc && byte == 0x80 { return false }
            startOfArc = byte & 0x80 == 0
        }
        return true
    }

    public init(stringLiteral value: String) {
        if let known = Literals.lookUp(value) {
            self = known
            return
        }
        guard let oid = DERObjectIdentifier(dotted: value) else { preconditionFailure("bad OID literal \(value)") }
        Literals.remember(value, oid)
        self = oid
    }

    /// OIDs written as literals, by their text: the forge builds the same few (attribute types, extension and
    /// algorithm OIDs) for every certificate, and parsing dotted text each time cost more than the rest of the
    /// element. Sound: `init(dotted:)` is a pure function of the text. Bounded: literals are constants of the
    /// program, and past `limit` entries nothing more is kept.
    private enum Literals {
        private static let lock = NSLock()
        nonisolated(unsafe) private static var known: [String: DERObjectIdentifier] = [:]
        private static let limit = 1024

        static func lookUp(_ text: String) -> DERObjectIdentifier? { lock.withLock { known[text] } }

        static func remember(_ text: String, _ oid: DERObjectIdentifier) {
            lock.withLock { if known.count < limit { known[text] = oid } }
        }
    }

    /// The sub-identifiers as base-128 digit groups (the first combines the first two arcs).
    private var subidentifiers: [[UInt8]] {
        var groups: [[UInt8]] = [[]]
        for byte in contentBytes {
            groups[groups.count - 1].append(byte & 0x7f)
            if byte & 0x80 == 0 { groups.append([]) }
        }
        return groups.dropLast()
    }

    /// The arcs, or nil when one does not fit 64 bits.
    public var components: [UInt64]? {
        var values: [UInt64] = []
        for digits in subidentifiers {
            var value: UInt64 = 0
            for digit in digits {
                guard value <= UInt64.max >> 7 else { return nil }
                value = value << 7 | UInt64(digit)
            }
            values.append(value)
        }
        guard let first = values.first else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return head + values.dropFirst()
    }

    /// Dotted form, with arcs of any size.
    public var description: String {
        let groups = subidentifiers
        guard let first = groups.first else { return "" }
        var head = Decimal128.digits(ofBase128: first)
        let firstArc: String
        if Decimal128.compare(head, 40) < 0 {
            firstArc = "0"
        } else if Decimal128.compare(head, 80) < 0 {
            firstArc = "1"
            head = Decimal128.subtract(head, 40)
        } else {
            firstArc = "2"
            head = Decimal128.subtract(head, 80)
        }
        return ([firstArc, Decimal128.text(head)] + groups.dropFirst().map { Decimal128.text(Decimal128.digits(ofBase128: $0)) })
            .joined(separator: ".")
    }
}

/// Just enough unbounded arithmetic to print an OID arc: base-10⁹ limbs, least significant first.
private enum Decimal128 {
    static let base: UInt64 = 1_000_000_000

    static func digits(ofBase128 digits: [UInt8]) -> [UInt64] {
        var limbs: [UInt64] = [0]
        for digit in digits {
            var carry = UInt64(digit)
            for index in limbs.indices {
                let value = limbs[index] * 128 + carry
                limbs[index] = value % base
                carry = value / base
            }
            while carry > 0 {
                limbs.append(carry % base)
                carry /= base
            }
        }
        return limbs
    }

    /// Sign of `limbs` minus the small `value`.
    static func compare(_ limbs: [UInt64], _ value: UInt64) -> Int {
        if limbs.count > 1 && limbs.dropFirst().contains(where: { $0 > 0 }) { return 1 }
        return limbs[0] < value ? -1 : limbs[0] == value ? 0 : 1
    }

    /// `limbs` minus `value`, for `limbs` at least `value` (below one limb).
    static func subtract(_ limbs: [UInt64], _ value: UInt64) -> [UInt64] {
        var result = limbs
        var borrow = value
        for index in result.indices where borrow > 0 {
            if result[index] >= borrow {
                result[index] -= borrow
                borrow = 0
            } else {
                result[index] = result[index] + base - borrow
                borrow = 1
            }
        }
        return result
    }

    static func text(_ limbs: [UInt64]) -> String {
        var trimmed = limbs
        while trimmed.count > 1 && trimmed.last == 0 { trimmed.removeLast() }
        guard let top = trimmed.last else { return "0" }
        return String(top) + trimmed.dropLast().reversed().map { limb in
            let digits = String(limb)
            return String(repeating: "0", count: 9 - digits.count) + digits
        }.joined()
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
