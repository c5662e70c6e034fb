/// A CBOR data item (RFC 8949 §3).
///
/// Maps keep their entries in wire order and may hold duplicate keys, so that a conformance tool can both
/// see and produce what a lenient decoder would silently merge. Floats keep their wire width and bits, because
/// CTAP2 canonical form leaves float representations unchanged.
public indirect enum CBORValue: Hashable, Sendable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value is `-1 - n`.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (valid UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, entries in order.
    case map([CBORMapEntry])
    /// Major type 6.
    case tagged(UInt64, CBORValue)
    /// Major type 7, values 20 and 21.
    case bool(Bool)
    /// Major type 7, value 22.
    case null
    /// Major type 7, value 23.
    case undefined
    /// Major type 7, other simple values (0..19 and 32..255).
    case simple(UInt8)
    /// Major type 7, half, single and double precision, as raw IEEE 754 bits.
    case float16(UInt16)
    case float32(UInt32)
    case float64(UInt64)

    /// An integer in either major type 0 or 1.
    public static func int(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The major type this value encodes with (RFC 8949 §3.1).
    public var majorType: UInt8 {
        switch self {
        case .unsigned: return 0
        case .negative: return 1
        case .bytes: return 2
        case .text: return 3
        case .array: return 4
        case .map: return 5
        case .tagged: return 6
        case .bool, .null, .undefined, .simple, .float16, .float32, .float64: return 7
        }
    }

    /// The value for `key` in a map, matching on encoded bytes; nil when absent or not a map.
    public subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let entries) = self else { return nil }
        let wanted = CBORWriter.encode(key, canonical: false)
        return entries.first { CBORWriter.encode($0.key, canonical: false) == wanted }?.value
    }

    public subscript(key: String) -> CBORValue? { self[.text(key)] }
    public subscript(key: Int64) -> CBORValue? { self[.int(key)] }

    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    public var textValue: String? {
        if case .text(let t) = self { return t }
        return nil
    }

    public var arrayValue: [CBORValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var mapEntries: [CBORMapEntry]? {
        if case .map(let m) = self { return m }
        return nil
    }

    /// The integer value when it fits in `Int64`.
    public var intValue: Int64? {
        switch self {
        case .unsigned(let n): return n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: return nil
        }
    }
}

extension CBORValue: ExpressibleByStringLiteral {
    /// A text string, so schemas read as `["fmt": "none"]`-like code.
    public init(stringLiteral value: String) { self = .text(value) }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Hashable, Sendable {
    public var key: CBORValue
    public var value: CBORValue

    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}
