/// A CBOR decoding failure: what was wrong and the byte offset where (RFC 8949 §5.3, Appendix F).
public struct CBORDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Hashable, Sendable {
        /// The input ended inside a data item.
        case truncated
        /// A declared string length or element count is larger than the bytes left (checked before allocating).
        case lengthExceedsInput(declared: UInt64, available: Int)
        /// Additional information 28, 29 or 30 (RFC 8949 §3).
        case reservedAdditionalInfo(UInt8)
        /// Indefinite length where the reader does not allow it, or on a major type that has none.
        case indefiniteLength
        /// A break code (`0xFF`) outside an indefinite-length item.
        case unexpectedBreak
        /// A chunk of an indefinite-length string that is not a definite string of the same major type.
        case invalidChunk
        /// A two-byte simple value below 32 (RFC 8949 §3.3).
        case invalidSimpleValue
        /// A text string that is not valid UTF-8.
        case invalidUTF8
        /// The same key twice in one map (RFC 8949 §5.6).
        case duplicateMapKey
        /// Bytes after the top-level item.
        case trailingBytes(count: Int)
        /// Items nested deeper than the configured limit.
        case depthLimitExceeded(limit: Int)
        /// CTAP2 canonical form: an argument not in its shortest form.
        case nonCanonicalHead
        /// CTAP2 canonical form: map keys not sorted (major type, then length, then bytes).
        case nonCanonicalKeyOrder
        /// CTAP2 canonical form: tags are not allowed.
        case tagNotAllowed
        /// A different type than the schema requires at this position.
        case unexpectedType(expected: String)
        /// A required map key is absent.
        case missingKey(String)
    }

    public var code: Code
    public var offset: Int

    public init(_ code: Code, at offset: Int) {
        self.code = code
        self.offset = offset
    }

    public var description: String { "CBOR error \(code) at byte offset \(offset)" }
}
