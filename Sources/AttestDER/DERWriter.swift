/// Serializes `DERElement` trees.
///
/// Elements built with the default `.definite` length encoding serialize as DER; elements carrying another
/// `LengthEncoding`, or raw content from `DERElement.primitive`, serialize exactly as described, which is how
/// deliberately non-DER variants are produced (see `DERDeviation`).
public enum DERWriter {
    public static func serialize(_ element: DERElement) -> [UInt8] {
        var out: [UInt8] = []
        append(element, to: &out)
        return out
    }

    static func append(_ element: DERElement, to out: inout [UInt8]) {
        out += element.identifier.encoded
        var body: [UInt8] = []
        switch element.content {
        case .primitive(let bytes):
            body = bytes
        case .constructed(let children):
            for child in children { append(child, to: &body) }
        }
        switch element.lengthEncoding {
        case .definite:
            out += lengthOctets(body.count, minimumLongFormOctets: nil)
            out += body
        case .longForm(let octets):
            out += lengthOctets(body.count, minimumLongFormOctets: octets)
            out += body
        case .indefinite:
            out.append(0x80)
            out += body
            out += [0x00, 0x00]
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
    /// The serialized bytes of this element (DER unless the element describes a deviation).
    public var serialized: [UInt8] { DERWriter.serialize(self) }
}
