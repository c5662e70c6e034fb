/// Serializes `DERElement` trees.
///
/// Elements built with the default `.definite` length encoding serialize as DER; elements carrying another
/// `LengthEncoding`, or raw content from `DERElement.primitive`, serialize exactly as described, which is how
/// deliberately non-DER variants are produced (see `DERDeviation`).
public enum DERWriter {
    public static func serialize(_ element: DERElement) -> [UInt8] {
        // Back to front, in one pass: an element's content is written before its length octets are, so the length
        // is known when they are, every byte is written once into one buffer, and one reversal puts them in order.
        // (Writing each constructed element's body into its own array and copying it into its parent's cost a copy
        // and an allocation per level.)
        var reversed: [UInt8] = []
        reversed.reserveCapacity(256)
        appendReversed(element, to: &reversed)
        reversed.reverse()
        return reversed
    }

    static func append(_ element: DERElement, to out: inout [UInt8]) {
        out += serialize(element)
    }

    /// Appends `element`'s encoding to `out` last octet first.
    private static func appendReversed(_ element: DERElement, to out: inout [UInt8]) {
        let indefinite = element.lengthEncoding == .indefinite
        if indefinite { out += [0x00, 0x00] }
        let contentStart = out.count
        switch element.content {
        case .primitive(let bytes):
            out.append(contentsOf: bytes.reversed())
        case .constructed(let children):
            for child in children.reversed() { appendReversed(child, to: &out) }
        }
        let length = out.count - contentStart
        switch element.lengthEncoding {
        case .definite: appendLengthOctetsReversed(length, minimumLongFormOctets: nil, to: &out)
        case .longForm(let octets): appendLengthOctetsReversed(length, minimumLongFormOctets: octets, to: &out)
        case .indefinite: out.append(0x80)
        }
        let identifier = element.identifier
        if identifier.tagNumber < 31 {
            out.append((identifier.tagClass.rawValue << 6) | (identifier.isConstructed ? 0x20 : 0) | UInt8(identifier.tagNumber))
        } else {
            out.append(contentsOf: identifier.encoded.reversed())
        }
    }

    /// `lengthOctets`, appended last octet first.
    private static func appendLengthOctetsReversed(_ length: Int, minimumLongFormOctets: Int?, to out: inout [UInt8]) {
        if minimumLongFormOctets == nil && length < 128 {
            out.append(UInt8(length))
            return
        }
        let count = lengthOctetCount(length, minimumLongFormOctets: minimumLongFormOctets) - 1
        for index in 0..<count {
            out.append(index >= Int.bitWidth / 8 ? 0 : UInt8(truncatingIfNeeded: length >> (8 * index)))
        }
        out.append(0x80 | UInt8(count))
    }

    /// How many octets `lengthOctets` writes.
    private static func lengthOctetCount(_ length: Int, minimumLongFormOctets: Int?) -> Int {
        if minimumLongFormOctets == nil && length < 128 { return 1 }
        var digits = 0
        var n = length
        while n > 0 {
            digits += 1
            n >>= 8
        }
        return 1 + max(digits, minimumLongFormOctets ?? 1)
    }

    /// `lengthOctets`, appended without building an array.
    static func appendLengthOctets(_ length: Int, minimumLongFormOctets: Int?, to out: inout [UInt8]) {
        if minimumLongFormOctets == nil && length < 128 {
            out.append(UInt8(length))
            return
        }
        let count = lengthOctetCount(length, minimumLongFormOctets: minimumLongFormOctets) - 1
        out.append(0x80 | UInt8(count))
        for index in stride(from: count - 1, through: 0, by: -1) {
            out.append(index >= Int.bitWidth / 8 ? 0 : UInt8(truncatingIfNeeded: length >> (8 * index)))
        }
    }

    /// X.690 §8.1.3: short form below 128, otherwise `0x80 | n` followed by n big-endian octets.
    static func lengthOctets(_ length: Int, minimumLongFormOctets: Int?) -> [UInt8] {
        if minimumLongFormOctets == nil && length < 128 {
            return [UInt8(length)]
        }
        var digits: [UInt8] = []
        var n = length
        while n > 0 {
            digits.insert(UInt8(n & 0xff), at: 0)
            n >>= 8
        }
        while digits.count < (minimumLongFormOctets ?? 1) { digits.insert(0, at: 0) }
        return [0x80 | UInt8(digits.count)] + digits
    }
}

extension DERElement {
    /// The identifier and definite length octets of an element whose content is `contentLength` bytes already
    /// serialized: what `.constructed(identifier, children).serialized` puts before the children's bytes.
    public static func header(_ identifier: DERIdentifier, contentLength: Int) -> [UInt8] {
        var out = identifier.encoded
        DERWriter.appendLengthOctets(contentLength, minimumLongFormOctets: nil, to: &out)
        return out
    }

    /// The serialized bytes of this element (DER unless the element describes a deviation).
    public var serialized: [UInt8] { DERWriter.serialize(self) }
}
