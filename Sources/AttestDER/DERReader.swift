/// A strict DER parser (X.690 §10, §11) with named leniencies for real-world quirks.
///
/// Structure is checked for every element: identifier and length octets in their shortest form, no length
/// beyond the bytes left, universal types in the right form, SET elements sorted, and the content rules of
/// BOOLEAN, INTEGER, ENUMERATED, NULL, OBJECT IDENTIFIER, BIT STRING, and the character width of UniversalString
/// and BMPString. Character sets and dates (strings, times) are checked when their typed accessor reads them.
///
/// `parse` checks the framing first: an outer element whose header reads and whose definite length ends before the
/// input does is refused as `trailingBytes` before its content is read. Then one loop reads every element in
/// order, with a stack of the open constructed ones bounded by `maximumDepth` (no recursion, so hostile nesting
/// cannot exhaust the call stack). Inputs of 2^32 − 1 octets or more are refused (`unsupportedLength` at 0): offsets
/// are kept in 32 bits.
///
/// Memory is bounded by the input: each element becomes one 24-byte node and takes at least two input octets, so
/// the finished tree takes at most twelve times the input's size; while reading, the growing list (capacity
/// doubling, old and new buffers side by side) takes at most 36 times, and the stack of open elements 168 bytes per
/// allowed level of nesting (56 each, doubling), at most min(`maximumDepth`, size / 2) levels: a few kilobytes
/// under the default limit of 50. A small input's nodes and open elements live on the stack while it is read, so refusing
/// one allocates nothing, and accepting one allocates the tree and a copy of its nodes.
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
    // The nodes found so far are not part of the reader: they are passed `inout` to the methods that append to
    // them, so the reader itself is immutable and its methods pass it on without copying it.

    private init(bytes: UnsafeBufferPointer<UInt8>, options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// Parses exactly one element that spans all of `bytes`.
    /// - Throws: `DERError` naming the first violation and its byte offset.
    public static func parse(_ bytes: [UInt8], options: Options = .strict) throws(DERError) -> DERElement {
        let tree = try read(bytes, options: options) { reader, nodes, buffer throws(DERError) in
            // The framing first, as d2i does: an outer definite length that ends before the input does is refused
            // before its content is read (with the content's own errors, if any, unreported).
            try reader.checkSpansInput()
            let end = try reader.element(at: 0, limit: buffer.count, into: &nodes)
            if end != buffer.count {
                throw DERError(.trailingBytes(count: buffer.count - end), at: end)
            }
        }
        return DERElement(tree, 0)
    }

    /// Parses a concatenation of elements (a certificate chain as one byte string), each strictly.
    public static func parseSequence(_ bytes: [UInt8], options: Options = .strict) throws(DERError) -> [DERElement] {
        var roots: [Int] = []
        let tree = try read(bytes, options: options) { reader, nodes, buffer throws(DERError) in
            var position = 0
            while position < buffer.count {
                roots.append(nodes.count)
                position = try reader.element(at: position, limit: buffer.count, into: &nodes)
            }
        }
        return roots.map { DERElement(tree, $0) }
    }

    /// Runs `body` with a reader over `bytes` and makes the tree of what it read. Errors are typed throughout, so
    /// refusing an input allocates no error box.
    private static func read(
        _ bytes: [UInt8], options: Options,
        _ body: (DERReader, inout ScratchList<DERParsedNode>, UnsafeBufferPointer<UInt8>) throws(DERError) -> Void
    ) throws(DERError) -> DERParsedTree {
        // Node offsets are 32 bits wide: a larger input is a length too large to represent.
        guard bytes.count < Int(UInt32.max) else { throw DERError(.unsupportedLength, at: 0) }
        let outcome: Result<DERParsedTree, DERError> = bytes.withUnsafeBufferPointer { buffer in
            // Most inputs' nodes fit in scratch space on the stack; the list moves to the heap when they do not.
            withUnsafeTemporaryAllocation(of: DERParsedNode.self, capacity: 40) { scratch in
                var nodes = ScratchList<DERParsedNode>(scratch: scratch)
                defer { nodes.release() }
                do throws(DERError) {
                    try body(DERReader(bytes: buffer, options: options), &nodes, buffer)
                } catch {
                    return .failure(error)
                }
                return .success(DERParsedTree.make(input: bytes, nodes: nodes.buffer))
            }
        }
        return try outcome.get()
    }

    /// Throws `.trailingBytes` when the first element's identifier and definite length say it ends before the input
    /// does. Whatever `element` would refuse before reading the content (the depth limit, the identifier, its
    /// construction, the length octets) is left for `element` to report.
    private func checkSpansInput() throws(DERError) {
        guard options.maximumDepth >= 1,
              let (classAndForm, tagNumber, lengthStart) = try? readIdentifier(at: 0, limit: bytes.count),
              classAndForm & 0xc0 != 0 || tagNumber != 0 && (classAndForm & 0x20 != 0) == (tagNumber == 16 || tagNumber == 17),
              let (length, _, contentStart) = try? readLength(at: lengthStart, limit: bytes.count),
              length >= 0, contentStart + length < bytes.count else { return }
        throw DERError(.trailingBytes(count: bytes.count - (contentStart + length)), at: contentStart + length)
    }

    /// A constructed element whose children are being read.
    private struct OpenElement: BitwiseCopyable {
        /// Its node.
        var index: Int
        /// Where its content ends (definite length), or −1 (indefinite: the children end at end-of-contents).
        var end: Int
        /// The limit its children are read under: `end`, or for an indefinite length the limit the element itself
        /// was read under.
        var childLimit: Int
        /// A SET in DER: each child's encoding is compared with its predecessor's (X.690 §11.6).
        var checkOrder: Bool
        /// Where the previous child started (−1 before the first) and ended: children are contiguous, so the
        /// child being read starts at `previousEnd`, which starts as the content's start.
        var previousStart = -1
        var previousEnd: Int
        /// The first child out of order, reported once every child is read (−1: none so far).
        var unsortedAt = -1
    }

    /// Checks the element at `start` and everything inside it, appending their nodes in pre-order; returns where it
    /// ends. One loop over the elements with a stack of the open constructed ones (at most `maximumDepth`), not one
    /// call per element: the same checks in the same order as a recursive descent, without its call overhead.
    /// Elements are appended to `nodes` as they are read; an open element's content end and subtree size are set
    /// when it closes.
    private func element(at start: Int, limit: Int, into nodes: inout ScratchList<DERParsedNode>) throws(DERError) -> Int {
        // Twelve open elements fit the scratch space (672 bytes, on the stack); deeper nesting moves to the heap.
        let outcome: Result<Int, DERError> = withUnsafeTemporaryAllocation(of: OpenElement.self, capacity: 12) {
            var stack = ScratchList<OpenElement>(scratch: $0)
            defer { stack.release() }
            do throws(DERError) {
                return .success(try elements(at: start, limit: limit, stack: &stack, into: &nodes))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private func elements(at start: Int, limit: Int, stack openElements: inout ScratchList<OpenElement>,
                          into parsedNodes: inout ScratchList<DERParsedNode>) throws(DERError) -> Int {
        // Local copies, handed back on every exit (the callers free what the lists grew into): the stores into the
        // lists' memory cannot then be taken to change the lists themselves, which keeps their fields in registers.
        var stack = openElements
        var nodes = parsedNodes
        defer {
            openElements = stack
            parsedNodes = nodes
        }
        var position = start
        var readLimit = limit
        while true {
            // Read the element at `position`, nested in the open elements on the stack.
            if stack.count >= options.maximumDepth {
                throw DERError(.depthLimitExceeded(limit: options.maximumDepth), at: position)
            }
            let elementStart = position
            let (classAndForm, tagNumber, lengthStart) = try readIdentifier(at: elementStart, limit: readLimit)
            let universal = classAndForm & 0xc0 == 0
            let constructed = classAndForm & 0x20 != 0
            if universal {
                if tagNumber == 0 { throw DERError(.unexpectedEndOfContents, at: elementStart) }
                // SEQUENCE and SET are always constructed (X.690 §8.9.1, §8.11.1); every other universal type is
                // primitive in DER (X.690 §10.2: no constructed strings; see `DERIdentifier.mustBePrimitive`).
                if constructed != (tagNumber == 16 || tagNumber == 17) {
                    throw DERError(.wrongConstruction, at: elementStart)
                }
            }
            let (length, lengthForm, contentStart) = try readLength(at: lengthStart, limit: readLimit)
            // A definite length gives the content's end now; an indefinite one, and a constructed element's subtree
            // size, are set when the element closes.
            let contentEnd = length >= 0 ? contentStart + length : contentStart
            let index = nodes.append(DERParsedNode(
                tagNumber: tagNumber, classAndForm: classAndForm, lengthForm: lengthForm,
                start: UInt32(truncatingIfNeeded: elementStart), contentStart: UInt32(truncatingIfNeeded: contentStart),
                contentEnd: UInt32(truncatingIfNeeded: contentEnd), subtreeSize: 1))
            if constructed {
                let end = length >= 0 ? contentEnd : -1
                _ = stack.append(OpenElement(
                    index: index, end: end, childLimit: length >= 0 ? end : readLimit,
                    checkOrder: universal && tagNumber == 17 && !options.allowUnsortedSets,
                    previousEnd: contentStart))
                position = contentStart
            } else {
                if length < 0 { throw DERError(.indefiniteLength, at: lengthStart) }
                if universal { try checkPrimitiveContent(tagNumber, contentStart..<contentEnd) }
                position = contentEnd
                if stack.count == 0 { return position }
                try stack.update(stack.count - 1) { parent throws(DERError) in try childEnded(at: position, in: &parent) }
            }
            // Close every open element whose children are all read; stop at one with another child to read.
            while true {
                let top = stack.count - 1
                // Fields read one by one: copying the whole frame just written stalls the load.
                let end = stack[top].end
                let elementEnd: Int
                var endOfContents: Int?
                if end >= 0 {
                    if position < end { break }
                    elementEnd = end
                } else {
                    let childLimit = stack[top].childLimit
                    if position + 2 <= childLimit && bytes[position] == 0 && bytes[position + 1] == 0 {
                        endOfContents = position
                        elementEnd = position + 2
                    } else {
                        if position >= childLimit { throw DERError(.truncated, at: position) }
                        break
                    }
                }
                let unsortedAt = stack[top].unsortedAt
                if unsortedAt >= 0 { throw DERError(.unsortedSet, at: unsortedAt) }
                let index = stack[top].index
                let subtreeSize = nodes.count - index
                nodes.update(index) {
                    if let endOfContents { $0.contentEnd = UInt32(truncatingIfNeeded: endOfContents) }
                    $0.subtreeSize = UInt32(truncatingIfNeeded: subtreeSize)
                }
                stack.removeLast()
                position = elementEnd
                if stack.count == 0 { return position }
                try stack.update(stack.count - 1) { parent throws(DERError) in try childEnded(at: position, in: &parent) }
            }
            readLimit = stack[stack.count - 1].childLimit
        }
    }

    /// Records that the child of `parent` being read ends at `end`: in a SET, compares it with its predecessor.
    @inline(__always)
    private func childEnded(at end: Int, in parent: inout OpenElement) throws(DERError) {
        guard parent.checkOrder else { return }
        let childStart = parent.previousEnd
        if parent.unsortedAt < 0 && parent.previousStart >= 0
            && DERReader.precedes(bytes[childStart..<end], bytes[parent.previousStart..<childStart]) {
            parent.unsortedAt = childStart
        }
        parent.previousStart = childStart
        parent.previousEnd = end
    }

    /// X.690 §8.1.2: one octet for tag numbers below 31, otherwise `0x1f` and base-128 digits. Returns the first
    /// octet's class and constructed bits, the tag number and where the length octets start.
    @inline(__always)
    private func readIdentifier(at start: Int, limit: Int) throws(DERError) -> (UInt8, UInt32, Int) {
        guard start < limit else { throw DERError(.truncated, at: start) }
        let first = bytes[start]
        if first & 0x1f != 0x1f {
            return (first & 0xe0, UInt32(first & 0x1f), start + 1)
        }
        var number: UInt32 = 0
        var position = start + 1
        while true {
            guard position < limit else { throw DERError(.truncated, at: position) }
            let digit = bytes[position]
            if position == start + 1 && digit == 0x80 { throw DERError(.nonMinimalTagNumber, at: position) }
            // The shifted number stays at most 2^31 − 1 (`Node.tagNumber` is 32 bits wide).
            if number > (UInt32(Int32.max) >> 7) { throw DERError(.tagNumberTooLarge, at: position) }
            number = (number << 7) | UInt32(digit & 0x7f)
            position += 1
            if digit & 0x80 == 0 { break }
        }
        if number < 31 { throw DERError(.nonMinimalTagNumber, at: start + 1) }
        return (first & 0xe0, number, position)
    }

    /// X.690 §8.1.3 and §10.1. Returns the length (−1 for the indefinite form), the length form as
    /// `DERParsedNode.lengthForm` records it, and where the content starts.
    @inline(__always)
    private func readLength(at start: Int, limit: Int) throws(DERError) -> (Int, UInt8, Int) {
        guard start < limit else { throw DERError(.truncated, at: start) }
        let first = bytes[start]
        if first < 0x80 {
            return try (checked(Int(first), contentStart: start + 1, limit: limit, at: start), 0, start + 1)
        }
        if first == 0x80 {
            guard options.allowIndefiniteLengths else { throw DERError(.indefiniteLength, at: start) }
            return (-1, DERParsedNode.indefinite, start + 1)
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
        return (length, minimal ? 0 : UInt8(count), contentStart)
    }

    @inline(__always)
    private func checked(_ length: Int, contentStart: Int, limit: Int, at offset: Int) throws(DERError) -> Int {
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
    private func checkPrimitiveContent(_ tagNumber: UInt32, _ content: Range<Int>) throws(DERError) {
        let offset = content.lowerBound
        let count = content.count
        switch tagNumber {
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
