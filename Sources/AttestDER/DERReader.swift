/// A strict DER parser (X.690 §10, §11) with named leniencies for real-world quirks.
///
/// Structure is checked for every element: identifier and length octets in their shortest form, no length
/// beyond the bytes left, universal types in the right form, SET elements sorted, and the content rules of
/// BOOLEAN, INTEGER, ENUMERATED, NULL, OBJECT IDENTIFIER, BIT STRING, and the character width of UniversalString
/// and BMPString. Character sets and dates (strings, times) are checked when their typed accessor reads them. Nesting is limited, so hostile input can
/// neither exhaust the stack nor make the parser allocate more than the input's size.
public struct DERReader {
    /// Deviations from DER the reader accepts. All are off in `.strict`.
    public struct Options: Hashable, Sendable {
        /// Accept long-form lengths with more octets than needed, or long form below 128 (BER).
        public var allowNonMinimalLengths = false
        /// Accept indefinite lengths on constructed elements (BER).
        public var allowIndefiniteLengths = false
        /// Accept INTEGERs and ENUMERATEDs with redundant leading `00` or `FF` octets (BER).
        public var allowNonMinimalIntegers = false
        /// Accept BOOLEAN content other than `00` and `FF` (BER).
        public var allowNonCanonicalBooleans = false
        /// Accept SET elements in any order (BER).
        public var allowUnsortedSets = false
        /// Deepest nesting accepted; the outermost element is depth 1.
        public var maximumDepth = 50

        public init() {}

        public static let strict = Options()

        /// Every BER leniency on (what a BER reader accepts), with the same depth limit: for reading what others
        /// wrote without judging it, and for checking that the writer reproduces what the reader accepted.
        public static let ber: Options = {
            var options = Options()
            options.allowNonMinimalLengths = true
            options.allowIndefiniteLengths = true
            options.allowNonMinimalIntegers = true
            options.allowNonCanonicalBooleans = true
            options.allowUnsortedSets = true
            return options
        }()
    }

    public let options: Options
    private let bytes: [UInt8]

    private init(bytes: [UInt8], options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// Parses exactly one element that spans all of `bytes`.
    /// - Throws: `DERError` naming the first violation and its byte offset.
    public static func parse(_ bytes: [UInt8], options: Options = .strict) throws -> DERElement {
        let reader = DERReader(bytes: bytes, options: options)
        let (element, end) = try reader.element(at: 0, limit: bytes.count, depth: 1)
        if end != bytes.count {
            throw DERError(.trailingBytes(count: bytes.count - end), at: end)
        }
        return element
    }

    /// Parses a concatenation of elements (a certificate chain as one byte string), each strictly.
    public static func parseSequence(_ bytes: [UInt8], options: Options = .strict) throws -> [DERElement] {
        let reader = DERReader(bytes: bytes, options: options)
        var elements: [DERElement] = []
        var position = 0
        while position < bytes.count {
            let (element, end) = try reader.element(at: position, limit: bytes.count, depth: 1)
            elements.append(element)
            position = end
        }
        return elements
    }

    private func element(at start: Int, limit: Int, depth: Int) throws -> (DERElement, Int) {
        if depth > options.maximumDepth {
            throw DERError(.depthLimitExceeded(limit: options.maximumDepth), at: start)
        }
        let (identifier, lengthStart) = try readIdentifier(at: start, limit: limit)
        if identifier.tagClass == .universal && identifier.tagNumber == 0 {
            throw DERError(.unexpectedEndOfContents, at: start)
        }
        if identifier.mustBePrimitive && identifier.isConstructed
            || identifier.mustBeConstructed && !identifier.isConstructed {
            throw DERError(.wrongConstruction, at: start)
        }
        let (length, encoding, contentStart) = try readLength(at: lengthStart, limit: limit)

        if encoding == .indefinite {
            if !identifier.isConstructed { throw DERError(.indefiniteLength, at: lengthStart) }
            var children: [DERElement] = []
            var spans: [Range<Int>] = []
            var position = contentStart
            while true {
                if position + 2 <= limit && bytes[position] == 0 && bytes[position + 1] == 0 { break }
                if position >= limit { throw DERError(.truncated, at: position) }
                let (child, end) = try element(at: position, limit: limit, depth: depth + 1)
                children.append(child)
                spans.append(position..<end)
                position = end
            }
            try checkSetOrder(identifier, spans)
            return (DERElement(identifier, .constructed(children), lengthEncoding: encoding, offset: start), position + 2)
        }

        guard let length else { preconditionFailure("definite encodings carry a length") }
        let end = contentStart + length
        if identifier.isConstructed {
            var children: [DERElement] = []
            var spans: [Range<Int>] = []
            var position = contentStart
            while position < end {
                let (child, childEnd) = try element(at: position, limit: end, depth: depth + 1)
                children.append(child)
                spans.append(position..<childEnd)
                position = childEnd
            }
            try checkSetOrder(identifier, spans)
            return (DERElement(identifier, .constructed(children), lengthEncoding: encoding, offset: start), end)
        }
        let content = Array(bytes[contentStart..<end])
        try checkPrimitiveContent(identifier, content, at: contentStart)
        return (DERElement(identifier, .primitive(content), lengthEncoding: encoding, offset: start), end)
    }

    /// X.690 §8.1.2: one octet for tag numbers below 31, otherwise `0x1f` and base-128 digits.
    private func readIdentifier(at start: Int, limit: Int) throws -> (DERIdentifier, Int) {
        guard start < limit else { throw DERError(.truncated, at: start) }
        let first = bytes[start]
        // Two bits: all four values are tag classes.
        let tagClass = DERIdentifier.TagClass(rawValue: first >> 6)!
        let constructed = first & 0x20 != 0
        if first & 0x1f != 0x1f {
            return (DERIdentifier(tagClass: tagClass, tagNumber: UInt64(first & 0x1f), isConstructed: constructed),
                    start + 1)
        }
        var number: UInt64 = 0
        var position = start + 1
        while true {
            guard position < limit else { throw DERError(.truncated, at: position) }
            let digit = bytes[position]
            if position == start + 1 && digit == 0x80 { throw DERError(.nonMinimalTagNumber, at: position) }
            if number > (UInt64(Int32.max) >> 7) { throw DERError(.tagNumberTooLarge, at: position) }
            number = (number << 7) | UInt64(digit & 0x7f)
            position += 1
            if digit & 0x80 == 0 { break }
        }
        if number < 31 { throw DERError(.nonMinimalTagNumber, at: start + 1) }
        return (DERIdentifier(tagClass: tagClass, tagNumber: number, isConstructed: constructed), position)
    }

    /// X.690 §8.1.3 and §10.1. Returns `nil` as the length for the indefinite form.
    private func readLength(
        at start: Int, limit: Int
    ) throws -> (Int?, DERElement.LengthEncoding, Int) {
        guard start < limit else { throw DERError(.truncated, at: start) }
        let first = bytes[start]
        if first < 0x80 {
            return try (checked(Int(first), contentStart: start + 1, limit: limit, at: start), .definite, start + 1)
        }
        if first == 0x80 {
            guard options.allowIndefiniteLengths else { throw DERError(.indefiniteLength, at: start) }
            return (nil, .indefinite, start + 1)
        }
        let count = Int(first & 0x7f)
        if first == 0xff || count > 8 { throw DERError(.unsupportedLength, at: start) }
        guard start + 1 + count <= limit else { throw DERError(.truncated, at: limit) }
        var value: UInt64 = 0
        for i in 0..<count { value = (value << 8) | UInt64(bytes[start + 1 + i]) }
        guard value <= UInt64(Int.max / 2) else { throw DERError(.unsupportedLength, at: start) }
        let minimal = value >= 0x80 && bytes[start + 1] != 0
        if !minimal && !options.allowNonMinimalLengths { throw DERError(.nonMinimalLength, at: start) }
        let contentStart = start + 1 + count
        let length = try checked(Int(value), contentStart: contentStart, limit: limit, at: start)
        return (length, minimal ? .definite : .longForm(octets: count), contentStart)
    }

    private func checked(_ length: Int, contentStart: Int, limit: Int, at offset: Int) throws -> Int {
        let available = limit - contentStart
        if length > available { throw DERError(.lengthExceedsInput(declared: length, available: available), at: offset) }
        return length
    }

    /// X.690 §11.6: SET OF components in ascending order of their encodings, the shorter padded with zeros.
    private func checkSetOrder(_ identifier: DERIdentifier, _ spans: [Range<Int>]) throws {
        guard identifier == .set, !options.allowUnsortedSets, spans.count > 1 else { return }
        for i in 1..<spans.count where DERReader.precedes(bytes[spans[i]], bytes[spans[i - 1]]) {
            throw DERError(.unsortedSet, at: spans[i].lowerBound)
        }
    }

    /// True when `a` sorts strictly before `b` under the X.690 §11.6 comparison.
    static func precedes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        let count = max(a.count, b.count)
        for i in 0..<count {
            let x = i < a.count ? a[a.startIndex + i] : 0
            let y = i < b.count ? b[b.startIndex + i] : 0
            if x != y { return x < y }
        }
        return false
    }

    private func checkPrimitiveContent(_ identifier: DERIdentifier, _ content: [UInt8], at offset: Int) throws {
        guard identifier.tagClass == .universal else { return }
        switch identifier.tagNumber {
        case 1:
            guard content.count == 1 else { throw DERError(.invalidBoolean, at: offset) }
            if content[0] != 0 && content[0] != 0xff && !options.allowNonCanonicalBooleans {
                throw DERError(.invalidBoolean, at: offset)
            }
        case 2, 10:
            guard !content.isEmpty else { throw DERError(.emptyInteger, at: offset) }
            if !options.allowNonMinimalIntegers && !DERReader.isMinimalInteger(content) {
                throw DERError(.nonMinimalInteger, at: offset)
            }
        case 3:
            guard let unused = content.first, unused <= 7, content.count > 1 || unused == 0 else {
                throw DERError(.invalidBitString, at: offset)
            }
            if unused > 0 && content[content.count - 1] & ((1 << unused) - 1) != 0 {
                throw DERError(.invalidBitString, at: offset + content.count - 1)
            }
        case 5:
            if !content.isEmpty { throw DERError(.invalidNull, at: offset) }
        case 6:
            if DERObjectIdentifier(contentBytes: content) == nil { throw DERError(.invalidObjectIdentifier, at: offset) }
        case 28:
            // UniversalString holds 4-octet characters, BMPString 2-octet ones (X.690 §8.23.7, §8.23.8).
            if content.count % 4 != 0 { throw DERError(.invalidString, at: offset) }
        case 30:
            if content.count % 2 != 0 { throw DERError(.invalidString, at: offset) }
        default:
            break
        }
    }

    /// X.690 §8.3.2: the first nine bits of a multi-octet INTEGER are not all equal.
    static func isMinimalInteger(_ content: [UInt8]) -> Bool {
        guard content.count > 1 else { return true }
        return !(content[0] == 0x00 && content[1] & 0x80 == 0 || content[0] == 0xff && content[1] & 0x80 != 0)
    }
}
