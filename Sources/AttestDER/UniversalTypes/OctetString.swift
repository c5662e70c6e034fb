/// OCTET STRING and BIT STRING (X.690 §8.6, §8.7, §11.2).
extension DERElement {
    public static func octetString(_ bytes: [UInt8]) -> DERElement {
        .primitive(.octetString, bytes)
    }

    /// A BIT STRING whose last `unusedBits` bits are padding (they are cleared, as DER requires).
    public static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> DERElement {
        precondition(unusedBits < 8 && (unusedBits == 0 || !bytes.isEmpty), "unused bits need a final octet")
        var data = bytes
        if unusedBits > 0 { data[data.count - 1] &= ~UInt8((1 << unusedBits) - 1) }
        return .primitive(.bitString, [unusedBits] + data)
    }

    /// A BIT STRING for a named-bit list (X.690 §11.2.2: trailing zero bits removed), bit 0 first.
    public static func namedBits(_ bits: [Int]) -> DERElement {
        guard let highest = bits.max() else { return .primitive(.bitString, [0]) }
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in bits { bytes[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        return .bitString(bytes, unusedBits: UInt8(7 - highest % 8))
    }

    public func octetStringValue(field: String? = nil) throws -> [UInt8] {
        try primitiveContent(.octetString, field: field)
    }

    /// The octets and the unused-bit count of a BIT STRING.
    public func bitStringValue(field: String? = nil) throws -> (bytes: [UInt8], unusedBits: UInt8) {
        let content = try primitiveContent(.bitString, field: field)
        guard let unused = content.first, unused <= 7 else {
            throw DERError(.invalidBitString, at: location, field: field)
        }
        return (Array(content.dropFirst()), unused)
    }
}
