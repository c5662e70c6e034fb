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
    /// The input, for the duration of one `parse` or `parseSequence` (the reader never outlives it). Every read is
    /// below a `limit` that is at most `bytes.count`, checked before the read: the unchecked indexing of an
    /// UnsafeBufferPointer in release builds saves the array's second check, not the first.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Every element found so far, in pre-order (see `DERParsedTree`).
    private var nodes: [DERParsedTree.Node] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, options: Options) {
        self.bytes = bytes
        self.options = options
        // An element takes at least two octets: room for a small input's nodes at once, never more than it could need.
        nodes.reserveCapacity(min(bytes.count / 2 + 1, 256))
    }

    /// Parses exactly one element that spans all of `bytes`.
    /// - Throws: `DERError` naming the first violation and its byte offset.
    public static func parse(_ bytes: [UInt8], options: Options = .strict) throws -> DERElement {
        let nodes = try bytes.withUnsafeBufferPointer { buffer in
            var reader = DERReader(bytes: buffer, options: options)
            let end = try reader.element(at: 0, limit: buffer.count, depth: 1)
            if end != buffer.count {
                throw DERError(.trailingBytes(count: buffer.count - end), at: end)
            }
            return reader.nodes
        }
        return DERElement(DERParsedTree(input: bytes, nodes: nodes), 0)
    }

    /// Parses a concatenation of elements (a certificate chain as one byte string), each strictly.
    public static func parseSequence(_ bytes: [UInt8], options: Options = .strict) throws -> [DERElement] {
        var roots: [Int] = []
        let nodes = try bytes.withUnsafeBufferPointer { buffer in
            var reader = DERReader(bytes: buffer, options: options)
            var position = 0
            while position < buffer.count {
                roots.append(reader.nodes.count)
                position = try reader.element(at: position, limit: buffer.count, depth: 1)
            }
            return reader.nodes
        }
        let tree = DERParsedTree(input: bytes, nodes: nodes)
        return roots.map { DERElement(tree, $0) }
    }

    /// Checks the element at `start` and everything inside it, appending their nodes; returns where it ends.
    private mutating func element(at start: Int, limit: Int, depth: Int) throws -> Int {
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
        let index = nodes.count
        // The content's end and the subtree's size are filled in below, once known.
        nodes.append(DERParsedTree.Node(identifier: identifier, lengthEncoding: encoding, start: start,
                                        contentStart: contentStart))
        let contentEnd: Int
        let end: Int
        if let length {
            contentEnd = contentStart + length
            end = contentEnd
            if identifier.isConstructed {
                try children(of: identifier, from: contentStart, to: contentEnd, depth: depth)
            } else {
                try checkPrimitiveContent(identifier, contentStart..<contentEnd)
            }
        } else {
            if !identifier.isConstructed { throw DERError(.indefiniteLength, at: lengthStart) }
            contentEnd = try children(of: identifier, from: contentStart, to: nil, depth: depth, limit: limit)
            end = contentEnd + 2
        }
        nodes[index].finish(contentEnd: contentEnd, subtreeSize: nodes.count - index)
        return end
    }

    /// Checks the children of a constructed element from `position` up to `end` (definite length), or up to the
    /// end-of-contents octets before `limit` (indefinite, `end` nil); returns where the children end. A SET's
    /// order (X.690 §11.6) is compared with each child's predecessor as it goes, with no list of spans; the first
    /// child out of order is reported once all are read, as a check over the whole list did.
    @discardableResult
    private mutating func children(of identifier: DERIdentifier, from start: Int, to end: Int?, depth: Int,
                                   limit: Int = 0) throws -> Int {
        let checkOrder = identifier == .set && !options.allowUnsortedSets
        var previous: Range<Int>?
        var unsortedAt: Int?
        var position = start
        while true {
            if let end {
                if position >= end { break }
            } else {
                if position + 2 <= limit && bytes[position] == 0 && bytes[position + 1] == 0 { break }
                if position >= limit { throw DERError(.truncated, at: position) }
            }
            let childEnd = try element(at: position, limit: end ?? limit, depth: depth + 1)
            if checkOrder {
                if unsortedAt == nil, let previous, DERReader.precedes(bytes[position..<childEnd], bytes[previous]) {
                    unsortedAt = position
                }
                previous = position..<childEnd
            }
            position = childEnd
        }
        if let unsortedAt { throw DERError(.unsortedSet, at: unsortedAt) }
        return position
    }

    /// X.690 §8.1.2: one octet for tag numbers below 31, otherwise `0x1f` and base-128 digits.
    private func readIdentifier(at start: Int, limit: Int) throws -> (DERIdentifier, Int) {
        guard start < limit else { throw DERError(.truncated, at: start) }
        let first = bytes[start]
        let tagClass: DERIdentifier.TagClass
        switch first >> 6 {
        case 0: tagClass = .universal
        case 1: tagClass = .application
        case 2: tagClass = .contextSpecific
        default: tagClass = .private
        }
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

    /// True when `a` sorts strictly before `b` under the X.690 §11.6 comparison.
    static func precedes<Bytes: Collection<UInt8>>(_ a: Bytes, _ b: Bytes) -> Bool where Bytes.Index == Int {
        let count = max(a.count, b.count)
        for i in 0..<count {
            let x = i < a.count ? a[a.startIndex + i] : 0
            let y = i < b.count ? b[b.startIndex + i] : 0
            if x != y { return x < y }
        }
        return false
    }

    /// The content rules of the universal primitive types, on `bytes[content]` (no copy is made).
    private func checkPrimitiveContent(_ identifier: DERIdentifier, _ content: Range<Int>) throws {
        guard identifier.tagClass == .universal else { return }
        let offset = content.lowerBound
        let count = content.count
        switch identifier.tagNumber {
        case 1:
            guard count == 1 else { throw DERError(.invalidBoolean, at: offset) }
            if bytes[offset] != 0 && bytes[offset] != 0xff && !options.allowNonCanonicalBooleans {
                throw DERError(.invalidBoolean, at: offset)
            }
        case 2, 10:
            guard count > 0 else { throw DERError(.emptyInteger, at: offset) }
            if !options.allowNonMinimalIntegers && !DERReader.isMinimalInteger(bytes[content]) {
                throw DERError(.nonMinimalInteger, at: offset)
            }
        case 3:
            guard count > 0, bytes[offset] <= 7, count > 1 || bytes[offset] == 0 else {
                throw DERError(.invalidBitString, at: offset)
            }
            let unused = bytes[offset]
            if unused > 0 && bytes[content.upperBound - 1] & ((1 << unused) - 1) != 0 {
                throw DERError(.invalidBitString, at: content.upperBound - 1)
            }
        case 5:
            if count != 0 { throw DERError(.invalidNull, at: offset) }
        case 6:
            if !DERObjectIdentifier.isWellFormed(bytes[content]) { throw DERError(.invalidObjectIdentifier, at: offset) }
        case 28:
            // UniversalString holds 4-octet characters, BMPString 2-octet ones (X.690 §8.23.7, §8.23.8).
            if count % 4 != 0 { throw DERError(.invalidString, at: offset) }
        case 30:
            if count % 2 != 0 { throw DERError(.invalidString, at: offset) }
        default:
            break
        }
    }

    /// X.690 §8.3.2: the first nine bits of a multi-octet INTEGER are not all equal.
    static func isMinimalInteger(_ content: [UInt8]) -> Bool { isMinimalInteger(content[...]) }

    static func isMinimalInteger<Bytes: Collection<UInt8>>(_ content: Bytes) -> Bool where Bytes.Index == Int {
        guard content.count > 1 else { return true }
        let first = content[content.startIndex], second = content[content.startIndex + 1]
        return !(first == 0x00 && second & 0x80 == 0 || first == 0xff && second & 0x80 != 0)
    }
}
