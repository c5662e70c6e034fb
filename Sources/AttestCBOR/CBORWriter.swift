/// Encodes `CBORValue`s: shortest heads and definite lengths always; map keys in CTAP2 canonical order when
/// `canonical` (CTAP 2.1 §8), otherwise in the order given (duplicates included).
public enum CBORWriter {
    public static func encode(_ value: CBORValue, canonical: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        append(value, canonical: canonical, to: &out)
        return out
    }

    static func append(_ value: CBORValue, canonical: Bool, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): appendHead(0, n, to: &out)
        case .negative(let n): appendHead(1, n, to: &out)
        case .bytes(let b):
            appendHead(2, UInt64(b.count), to: &out)
            out += b
        case .text(let t):
            appendHead(3, UInt64(t.utf8.count), to: &out)
            out += t.utf8
        case .array(let elements):
            appendHead(4, UInt64(elements.count), to: &out)
            for element in elements { append(element, canonical: canonical, to: &out) }
        case .map(let entries):
            appendHead(5, UInt64(entries.count), to: &out)
            var encoded = entries.map { (encode($0.key, canonical: canonical), encode($0.value, canonical: canonical)) }
            if canonical { encoded.sort { ctap2Precedes($0.0, $1.0) } }
            for (key, value) in encoded { out += key + value }
        case .tagged(let tag, let inner):
            appendHead(6, tag, to: &out)
            append(inner, canonical: canonical, to: &out)
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case .simple(let s):
            if s < 24 { out.append(0xe0 | s) } else { out += [0xf8, s] }
        case .float16(let bits): out += [0xf9] + bigEndian(UInt64(bits), width: 2)
        case .float32(let bits): out += [0xfa] + bigEndian(UInt64(bits), width: 4)
        case .float64(let bits): out += [0xfb] + bigEndian(bits, width: 8)
        }
    }

    /// The head of a data item with the argument in its shortest form (RFC 8949 §4.2.1).
    static func appendHead(_ major: UInt8, _ argument: UInt64, to out: inout [UInt8]) {
        let width: CBORRawWriter.ArgumentWidth =
            argument < 24 ? .immediate : argument <= 0xff ? .oneByte : argument <= 0xffff ? .twoBytes
            : argument <= 0xffff_ffff ? .fourBytes : .eightBytes
        CBORRawWriter.appendHead(major, argument, width: width, to: &out)
    }

    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }

    /// `entries` sorted into CTAP2 canonical key order.
    public static func canonicalOrder(_ entries: [CBORMapEntry]) -> [CBORMapEntry] {
        entries.map { (encode($0.key), $0) }.sorted { ctap2Precedes($0.0, $1.0) }.map(\.1)
    }

    /// CTAP2 key order: lower major type first, then shorter encoding, then byte-wise lower.
    static func ctap2Precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let (majorA, majorB) = (a.first.map { $0 >> 5 } ?? 0, b.first.map { $0 >> 5 } ?? 0)
        if majorA != majorB { return majorA < majorB }
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}

/// Emits CBOR exactly as told, including what strict decoders must reject: non-minimal heads, indefinite
/// lengths, break codes, duplicate or unsorted map keys (through `value(_:canonical:)` with `canonical: false`),
/// any major type for any argument, and trailing bytes (through `raw`).
public struct CBORRawWriter: Sendable {
    /// How the argument of a head is written (RFC 8949 §3).
    public enum ArgumentWidth: Sendable {
        /// In the initial byte (argument below 24).
        case immediate
        case oneByte, twoBytes, fourBytes, eightBytes
    }

    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// A head with `argument` written in exactly `width`.
    public mutating func head(major: UInt8, argument: UInt64, width: ArgumentWidth) {
        CBORRawWriter.appendHead(major, argument, width: width, to: &bytes)
    }

    /// The start of an indefinite-length item of `major` (additional information 31).
    public mutating func beginIndefinite(major: UInt8) { bytes.append(major << 5 | 31) }

    /// The break code `0xFF`.
    public mutating func breakCode() { bytes.append(0xff) }

    /// A whole value, canonical or in the order given.
    public mutating func value(_ value: CBORValue, canonical: Bool = false) {
        CBORWriter.append(value, canonical: canonical, to: &bytes)
    }

    /// Bytes appended verbatim.
    public mutating func raw(_ extra: [UInt8]) { bytes += extra }

    static func appendHead(_ major: UInt8, _ argument: UInt64, width: ArgumentWidth, to out: inout [UInt8]) {
        switch width {
        case .immediate:
            precondition(argument < 24, "an immediate argument is below 24")
            out.append(major << 5 | UInt8(argument))
        case .oneByte: out += [major << 5 | 24] + CBORWriter.bigEndian(argument, width: 1)
        case .twoBytes: out += [major << 5 | 25] + CBORWriter.bigEndian(argument, width: 2)
        case .fourBytes: out += [major << 5 | 26] + CBORWriter.bigEndian(argument, width: 4)
        case .eightBytes: out += [major << 5 | 27] + CBORWriter.bigEndian(argument, width: 8)
        }
    }
}
