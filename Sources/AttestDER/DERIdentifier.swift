/// The identifier octets of a BER/DER element: class, constructed bit and tag number (X.690 §8.1.2).
public struct DERIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// X.690 §8.1.2.2, bits 8 and 7 of the first identifier octet.
    public enum TagClass: UInt8, Sendable, CaseIterable {
        case universal = 0
        case application = 1
        case contextSpecific = 2
        case `private` = 3
    }

    public var tagClass: TagClass
    public var tagNumber: UInt64
    public var isConstructed: Bool

    public init(tagClass: TagClass, tagNumber: UInt64, isConstructed: Bool) {
        self.tagClass = tagClass
        self.tagNumber = tagNumber
        self.isConstructed = isConstructed
    }

    /// `[n]` as used by EXPLICIT tagging: context-specific and constructed.
    public static func explicit(_ tagNumber: UInt64) -> DERIdentifier {
        DERIdentifier(tagClass: .contextSpecific, tagNumber: tagNumber, isConstructed: true)
    }

    /// `[n]` as used by IMPLICIT tagging of a primitive type.
    public static func implicit(_ tagNumber: UInt64, constructed: Bool = false) -> DERIdentifier {
        DERIdentifier(tagClass: .contextSpecific, tagNumber: tagNumber, isConstructed: constructed)
    }

    static func universal(_ n: UInt64, constructed: Bool = false) -> DERIdentifier {
        DERIdentifier(tagClass: .universal, tagNumber: n, isConstructed: constructed)
    }

    public static let boolean = universal(1)
    public static let integer = universal(2)
    public static let bitString = universal(3)
    public static let octetString = universal(4)
    public static let null = universal(5)
    public static let objectIdentifier = universal(6)
    public static let enumerated = universal(10)
    public static let utf8String = universal(12)
    public static let sequence = universal(16, constructed: true)
    public static let set = universal(17, constructed: true)
    public static let printableString = universal(19)
    public static let teletexString = universal(20)
    public static let ia5String = universal(22)
    public static let utcTime = universal(23)
    public static let generalizedTime = universal(24)
    public static let universalString = universal(28)
    public static let bmpString = universal(30)

    /// The identifier octets, with the tag number in the shortest form (X.690 §8.1.2.4.2 c).
    public var encoded: [UInt8] {
        let first = (tagClass.rawValue << 6) | (isConstructed ? 0x20 : 0)
        if tagNumber < 31 {
            return [first | UInt8(tagNumber)]
        }
        var digits: [UInt8] = []
        var n = tagNumber
        repeat {
            digits.append(UInt8(n & 0x7f))
            n >>= 7
        } while n > 0
        digits.reverse()
        for i in 0..<(digits.count - 1) { digits[i] |= 0x80 }
        return [first | 0x1f] + digits
    }

    /// Universal types whose encoding is always primitive in DER (X.690 §10.2: no constructed strings). EXTERNAL,
    /// EMBEDDED PDV and CHARACTER STRING, constructed in X.690, are refused too: no attestation format uses them and
    /// OpenSSL reads every constructed universal type but SEQUENCE and SET as a constructed string (fuzz-der).
    var mustBePrimitive: Bool {
        tagClass == .universal && tagNumber != 16 && tagNumber != 17
    }

    /// SEQUENCE and SET are always constructed (X.690 §8.9.1, §8.11.1).
    var mustBeConstructed: Bool {
        tagClass == .universal && (tagNumber == 16 || tagNumber == 17)
    }

    public var description: String {
        let name: String
        switch tagClass {
        case .universal: name = "UNIVERSAL \(tagNumber)"
        case .application: name = "[APPLICATION \(tagNumber)]"
        case .contextSpecific: name = "[\(tagNumber)]"
        case .private: name = "[PRIVATE \(tagNumber)]"
        }
        return name + (isConstructed ? " constructed" : "")
    }
}
