/// A DER decoding failure: what was wrong and the byte offset (from the start of the outermost input) where.
public struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Hashable, Sendable {
        /// The input ended inside an identifier, length or content.
        case truncated
        /// A declared length runs past the end of the enclosing element or input.
        case lengthExceedsInput(declared: Int, available: Int)
        /// Long-form length where short form or fewer octets suffice (X.690 §10.1).
        case nonMinimalLength
        /// Indefinite length (`0x80`), BER only (X.690 §10.1).
        case indefiniteLength
        /// Length octet `0xFF`, or a length too large to represent.
        case unsupportedLength
        /// Tag number in high-tag form that fits the low form, or with a leading `0x80` digit (X.690 §8.1.2.4.2).
        case nonMinimalTagNumber
        /// A tag number above 2^31 − 1: X.690 sets no limit, but OpenSSL cannot represent one and no format uses one.
        case tagNumberTooLarge
        /// An INTEGER or ENUMERATED whose first nine bits are all equal (X.690 §8.3.2).
        case nonMinimalInteger
        /// An INTEGER or ENUMERATED with no content octets (X.690 §8.3.1).
        case emptyInteger
        /// A BOOLEAN that is not one octet `00` or `FF` (X.690 §8.2.1, §11.1).
        case invalidBoolean
        /// A NULL with content (X.690 §8.8.2).
        case invalidNull
        /// A BIT STRING with a bad unused-bits octet or non-zero unused bits (X.690 §8.6.2, §11.2.1).
        case invalidBitString
        /// A universal type in the wrong form: constructed string, or primitive SEQUENCE/SET (X.690 §10.2).
        case wrongConstruction
        /// SET elements not in ascending order of their encodings (X.690 §11.6).
        case unsortedSet
        /// Bytes after the outermost element.
        case trailingBytes(count: Int)
        /// Elements nested deeper than the configured limit.
        case depthLimitExceeded(limit: Int)
        /// An end-of-contents marker (`00 00`) where an element was expected.
        case unexpectedEndOfContents
        /// A different element than the schema requires at this position.
        case unexpectedTag(expected: DERIdentifier, found: DERIdentifier)
        /// The schema requires another element here but the enclosing element has no more.
        case missingElement
        /// Components the schema requires in ascending tag order are not (Android AuthorizationList).
        case outOfOrder
        /// A component the schema allows once appears again (Android AuthorizationList: X.690 §8.9.2 encodes each
        /// component of a SEQUENCE at most once).
        case repeatedComponent
        /// The schema has no place for this element.
        case unexpectedElement
        /// An OBJECT IDENTIFIER that is empty or has a non-minimal sub-identifier (X.690 §8.19.2).
        case invalidObjectIdentifier
        /// A component equal to its DEFAULT value is encoded, which DER forbids (X.690 §11.5).
        case encodedDefault
        /// An INTEGER outside the range the caller asked for.
        case integerOutOfRange
        /// A UTCTime or GeneralizedTime not in the DER form (X.690 §11.7, §11.8; RFC 5280 §4.1.2.5).
        case invalidTime
        /// A string whose octets are not valid for its type.
        case invalidString
        /// A PEM document that is not well formed.
        case invalidPEM(String)
    }

    public var code: Code
    /// Offset of the offending octet.
    public var offset: Int
    /// What the schema was reading, when the error comes from a typed decoder (`"tbsCertificate.serialNumber"`).
    public var field: String?

    public init(_ code: Code, at offset: Int, field: String? = nil) {
        self.code = code
        self.offset = offset
        self.field = field
    }

    public var description: String {
        var text = "DER error \(code) at byte offset \(offset)"
        if let field { text += " in \(field)" }
        return text
    }
}
