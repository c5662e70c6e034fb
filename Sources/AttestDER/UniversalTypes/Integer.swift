/// INTEGER and ENUMERATED (X.690 §8.3, §8.4): two's complement, big-endian, minimal.
extension DERElement {
    /// An INTEGER holding `value`, minimally encoded.
    public static func integer(_ value: Int64) -> DERElement {
        .primitive(.integer, DERElement.twosComplement(value))
    }

    /// An INTEGER holding the non-negative number whose big-endian magnitude is `magnitude`
    /// (leading zeros are dropped; a `00` is added when the top bit is set, as serial numbers need).
    public static func integer(unsignedBigEndian magnitude: [UInt8]) -> DERElement {
        var digits = Array(magnitude.drop { $0 == 0 })
        if digits.isEmpty { digits = [0] }
        if digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
        return .primitive(.integer, digits)
    }

    /// An ENUMERATED holding `value`.
    public static func enumerated(_ value: Int64) -> DERElement {
        .primitive(.enumerated, DERElement.twosComplement(value))
    }

    static func twosComplement(_ value: Int64) -> [UInt8] {
        var bytes = withUnsafeBytes(of: value.bigEndian, Array.init)
        while bytes.count > 1 && DERReader.isMinimalInteger(bytes) == false { bytes.removeFirst() }
        return bytes
    }

    /// The value of an INTEGER (or, with `identifier: .enumerated`, an ENUMERATED) that fits in `Int64`.
    public func integerValue(_ identifier: DERIdentifier = .integer, field: String? = nil) throws -> Int64 {
        let content = try primitiveContent(identifier, field: field)
        guard !content.isEmpty else { throw DERError(.emptyInteger, at: location, field: field) }
        guard content.count <= 8 else { throw DERError(.integerOutOfRange, at: location, field: field) }
        var value: Int64 = content[0] & 0x80 != 0 ? -1 : 0
        for byte in content { value = (value << 8) | Int64(byte) }
        return value
    }

    /// The big-endian magnitude of a non-negative INTEGER of any size (no leading zero octets, `[0]` for zero).
    public func unsignedIntegerBytes(field: String? = nil) throws -> [UInt8] {
        let content = try primitiveContent(.integer, field: field)
        guard let first = content.first else { throw DERError(.emptyInteger, at: location, field: field) }
        if first & 0x80 != 0 { throw DERError(.integerOutOfRange, at: location, field: field) }
        let magnitude = Array(content.drop { $0 == 0 })
        return magnitude.isEmpty ? [0] : magnitude
    }
}
