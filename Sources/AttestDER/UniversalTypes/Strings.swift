/// Character string types used in X.509 names and attestation extensions (X.680 §41).
extension DERElement {
    public static func utf8String(_ text: String) -> DERElement { .primitive(.utf8String, Array(text.utf8)) }

    /// PrintableString; the caller must pass only PrintableString characters (X.680 §41.4).
    public static func printableString(_ text: String) -> DERElement {
        precondition(text.utf8.allSatisfy(DERElement.isPrintable), "not a PrintableString: \(text)")
        return .primitive(.printableString, Array(text.utf8))
    }

    public static func ia5String(_ text: String) -> DERElement {
        precondition(text.utf8.allSatisfy { $0 < 0x80 }, "not an IA5String: \(text)")
        return .primitive(.ia5String, Array(text.utf8))
    }

    static func isPrintable(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array(" '()+,-./:=?".utf8).contains(c)
        }
    }

    /// The text of a UTF8String, PrintableString or IA5String, checked against its character set.
    public func stringValue(field: String? = nil) throws -> String {
        let error = DERError(.invalidString, at: location, field: field)
        guard identifier.tagClass == .universal, !identifier.isConstructed, let bytes = primitiveBytes else {
            throw DERError(.unexpectedTag(expected: .utf8String, found: identifier), at: location, field: field)
        }
        switch identifier.tagNumber {
        case 12:
            guard let text = String(validating: bytes, as: UTF8.self) else { throw error }
            return text
        case 19:
            guard bytes.allSatisfy(DERElement.isPrintable) else { throw error }
        case 22:
            guard bytes.allSatisfy({ $0 < 0x80 }) else { throw error }
        default:
            throw DERError(.unexpectedTag(expected: .utf8String, found: identifier), at: location, field: field)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
