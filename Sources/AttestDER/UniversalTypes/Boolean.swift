/// BOOLEAN and NULL (X.690 §8.2, §8.8, §11.1).
extension DERElement {
    public static func boolean(_ value: Bool) -> DERElement {
        .primitive(.boolean, [value ? 0xff : 0x00])
    }

    public static let null = DERElement.primitive(.null, [])

    /// Reads a BOOLEAN; DER allows only `00` (false) and `FF` (true).
    public func booleanValue(field: String? = nil) throws -> Bool {
        let content = try primitiveContent(.boolean, field: field)
        switch content {
        case [0x00]: return false
        case [0xff]: return true
        default: throw DERError(.invalidBoolean, at: location, field: field)
        }
    }
}
