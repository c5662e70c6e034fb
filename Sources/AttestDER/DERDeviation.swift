/// The non-DER variants a negative case needs, each applied to one element in one call.
///
/// The strict `DERReader` rejects each with its own `DERError.Code`, except `.tagClass`, which is well-formed
/// BER/DER but fails the schema (`.unexpectedTag`) of whoever reads the element.
public enum DERDeviation: Hashable, Sendable {
    /// Length in long form with this many octets (`81 05` for length 5): `.nonMinimalLength`.
    case longFormLength(octets: Int)
    /// Indefinite length with end-of-contents (constructed elements only): `.indefiniteLength`.
    case indefiniteLength
    /// A redundant leading `00` (or `FF` for negatives) on an INTEGER or ENUMERATED: `.nonMinimalInteger`.
    case nonMinimalInteger
    /// BOOLEAN content octet other than `00`/`FF`, e.g. `01`: `.invalidBoolean`.
    case booleanOctet(UInt8)
    /// The same tag number in another class: `.unexpectedTag` in the schema.
    case tagClass(DERIdentifier.TagClass)
    /// A primitive universal type marked constructed or vice versa: `.wrongConstruction`.
    case flipConstructedBit
    /// SET elements in descending order: `.unsortedSet`.
    case reverseSetOrder
}

extension DERElement {
    public func deviating(_ deviation: DERDeviation) -> DERElement {
        var copy = self
        switch deviation {
        case .longFormLength(let octets):
            copy.lengthEncoding = .longForm(octets: octets)
        case .indefiniteLength:
            precondition(identifier.isConstructed, "indefinite length needs a constructed element")
            copy.lengthEncoding = .indefinite
        case .nonMinimalInteger:
            guard let bytes = primitiveBytes else { preconditionFailure("not a primitive INTEGER") }
            let pad: UInt8 = (bytes.first ?? 0) & 0x80 != 0 ? 0xff : 0x00
            copy.content = .primitive([pad] + bytes)
        case .booleanOctet(let octet):
            copy.content = .primitive([octet])
        case .tagClass(let tagClass):
            copy.identifier.tagClass = tagClass
        case .flipConstructedBit:
            copy.identifier.isConstructed.toggle()
        case .reverseSetOrder:
            guard let children else { preconditionFailure("not a constructed SET") }
            copy.content = .constructed(children.reversed())
        }
        return copy
    }

    /// The serialized element followed by `extra` bytes: `.trailingBytes` at the end of the element.
    public func serialized(trailingBytes extra: [UInt8]) -> [UInt8] { serialized + extra }
}
