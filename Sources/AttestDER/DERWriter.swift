/// Serializes `DERElement` trees.
///
/// Elements built with the default `.definite` length encoding serialize as DER; elements carrying another
/// `LengthEncoding`, or raw content from `DERElement.primitive`, serialize exactly as described, which is how
/// deliberately non-DER variants are produced (see `DERDeviation`).
public enum DERWriter {
    public static func serialize(_ element: DERElement) -> [UInt8] {
        // Two passes, so that every byte is written once into one buffer: the first measures each element's content
        // (in pre-order, one entry per element), the second writes identifiers, lengths and contents. Writing each
        // constructed element's body into its own array first, then copying it into its parent's, cost a copy and
        // an allocation per level.
        var contentLengths: [Int] = []
        let total = measure(element, into: &contentLengths)
        var out: [UInt8] = []
        out.reserveCapacity(total)
        var next = 0
        write(element, contentLengths, &next, to: &out)
        return out
    }

    static func append(_ element: DERElement, to out: inout [UInt8]) {
        out += serialize(element)
    }

    /// Records the content length of `element` and of everything inside it, in pre-order; returns its whole
    /// encoded length.
    private static func measure(_ element: DERElement, into contentLengths: inout [Int]) -> Int {
        let slot = contentLengths.count
        contentLengths.append(0)
        var length = 0
        switch element.content {
        case .primitive(let bytes):
            length = bytes.count
        case .constructed(let children):
            for child in children { length += measure(child, into: &contentLengths) }
        }
        contentLengths[slot] = length
        let identifierLength = element.identifier.tagNumber < 31 ? 1 : element.identifier.encoded.count
        switch element.lengthEncoding {
        case .definite: return identifierLength + lengthOctetCount(length, minimumLongFormOctets: nil) + length
        case .longForm(let octets): return identifierLength + lengthOctetCount(length, minimumLongFormOctets: octets) + length
        case .indefinite: return identifierLength + 1 + length + 2
        }
    }

    private static func write(_ element: DERElement, _ contentLengths: [Int], _ next: inout Int, to out: inout [UInt8]) {
        let length = contentLengths[next]
        next += 1
        let identifier = element.identifier
        if identifier.tagNumber < 31 {
            out.append((identifier.tagClass.rawValue << 6) | (identifier.isConstructed ? 0x20 : 0) | UInt8(identifier.tagNumber))
        } else {
            out += identifier.encoded
        }
        switch element.lengthEncoding {
        case .definite: appendLengthOctets(length, minimumLongFormOctets: nil, to: &out)
        case .longForm(let octets): appendLengthOctets(length, minimumLongFormOctets: octets, to: &out)
        case .indefinite: out.append(0x80)
        }
        switch element.content {
        case .primitive(let bytes):
            out += bytes
        case .constructed(let children):
            for child in children { write(child, contentLengths, &next, to: &out) }
        }
        if case .indefinite = element.lengthEncoding { out += [0x00, 0x00] }
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
    /// The identifier and definite length octets of a SEQUENCE whose content is `contentLength` bytes already
    /// serialized: what `.sequence(children).serialized` puts before the children's bytes.
    public static func sequenceHeader(contentLength: Int) -> [UInt8] {
        var out: [UInt8] = [0x30]
        DERWriter.appendLengthOctets(contentLength, minimumLongFormOctets: nil, to: &out)
        return out
    }

    /// The serialized bytes of this element (DER unless the element describes a deviation).
    public var serialized: [UInt8] { DERWriter.serialize(self) }
}
