/// A strict CBOR decoder (RFC 8949) for attacker-supplied input.
///
/// Every item must be well formed (§5.3, Appendix F). Before anything is allocated, each declared string
/// length is checked against the bytes left, and each array or map count against the smallest possible size of
/// its elements (one byte per item), so an 11-byte input can never ask for gigabytes as it can in libcbor 0.8.
/// Nesting is limited, duplicate map keys are rejected, and indefinite lengths are refused unless allowed.
/// With `requireCanonical`, the CTAP2 canonical form (CTAP 2.1 §8, "CTAP2 canonical CBOR encoding form") is
/// enforced as well.
public struct CBORReader {
    public struct Options: Hashable, Sendable {
        /// Accept indefinite-length strings, arrays and maps.
        public var allowIndefiniteLengths = false
        /// Accept a key that already occurred in the same map.
        public var allowDuplicateMapKeys = false
        /// Require CTAP2 canonical form: shortest heads, definite lengths, sorted keys, no tags.
        public var requireCanonical = false
        /// With `requireCanonical`, accept tags all the same.
        public var allowTags = false
        /// Deepest nesting accepted; the top-level item is depth 1.
        public var maximumDepth = 32

        public init() {}

        public static let strict = Options()
        public static let ctap2Canonical: Options = {
            var options = Options()
            options.requireCanonical = true
            return options
        }()

        /// CTAP2 canonical form apart from the ban on tags: shortest heads, definite lengths, sorted keys.
        public static let ctap2CanonicalWithTags: Options = {
            var options = ctap2Canonical
            options.allowTags = true
            return options
        }()
    }

    private let bytes: [UInt8]
    private let options: Options

    private init(_ bytes: [UInt8], _ options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// Decodes exactly one item spanning all of `bytes`.
    public static func decode(_ bytes: [UInt8], options: Options = .strict) throws -> CBORValue {
        let (value, end) = try decodePrefix(bytes, options: options)
        if end != bytes.count { throw CBORDecodingError(.trailingBytes(count: bytes.count - end), at: end) }
        return value
    }

    /// Decodes one item from the start of `bytes`; returns it and the number of bytes it used.
    public static func decodePrefix(_ bytes: [UInt8], options: Options = .strict) throws -> (CBORValue, Int) {
        var position = 0
        let value = try CBORReader(bytes, options).item(at: &position, depth: 1)
        return (value, position)
    }

    private struct Head {
        var major: UInt8
        var additional: UInt8
        var argument: UInt64
        var offset: Int
        var isIndefinite: Bool { additional == 31 }
    }

    private func head(at position: inout Int) throws -> Head {
        let start = position
        guard position < bytes.count else { throw CBORDecodingError(.truncated, at: position) }
        let initial = bytes[position]
        position += 1
        let major = initial >> 5
        let additional = initial & 0x1f
        var argument = UInt64(additional)
        switch additional {
        case 24, 25, 26, 27:
            let width = 1 << Int(additional - 24)
            guard bytes.count - position >= width else { throw CBORDecodingError(.truncated, at: bytes.count) }
            argument = 0
            for i in 0..<width { argument = (argument << 8) | UInt64(bytes[position + i]) }
            position += width
            if options.requireCanonical && major != 7 {
                let minimal: UInt64 = [24, 0x100, 0x1_0000, 0x1_0000_0000][Int(additional - 24)]
                if argument < minimal { throw CBORDecodingError(.nonCanonicalHead, at: start) }
            }
        case 28, 29, 30:
            throw CBORDecodingError(.reservedAdditionalInfo(additional), at: start)
        case 31:
            if major == 7 { throw CBORDecodingError(.unexpectedBreak, at: start) }
            if major == 0 || major == 1 || major == 6 || !options.allowIndefiniteLengths || options.requireCanonical {
                throw CBORDecodingError(.indefiniteLength, at: start)
            }
        default:
            break
        }
        return Head(major: major, additional: additional, argument: argument, offset: start)
    }

    private func item(at position: inout Int, depth: Int) throws -> CBORValue {
        if depth > options.maximumDepth {
            throw CBORDecodingError(.depthLimitExceeded(limit: options.maximumDepth), at: position)
        }
        let head = try head(at: &position)
        switch head.major {
        case 0:
            return .unsigned(head.argument)
        case 1:
            return .negative(head.argument)
        case 2:
            return .bytes(try string(head, at: &position))
        case 3:
            return .text(try text(try string(head, at: &position), at: head.offset))
        case 4:
            var elements: [CBORValue] = []
            if head.isIndefinite {
                while try !atBreak(&position) { elements.append(try item(at: &position, depth: depth + 1)) }
            } else {
                try checkCount(head, itemsPerEntry: 1, at: position)
                elements.reserveCapacity(Int(head.argument))
                for _ in 0..<head.argument { elements.append(try item(at: &position, depth: depth + 1)) }
            }
            return .array(elements)
        case 5:
            return .map(try map(head, at: &position, depth: depth))
        case 6:
            if options.requireCanonical && !options.allowTags { throw CBORDecodingError(.tagNotAllowed, at: head.offset) }
            return .tagged(head.argument, try item(at: &position, depth: depth + 1))
        default:
            return try simpleOrFloat(head)
        }
    }

    /// True, consuming it, when the next byte is a break; throws when the input has ended.
    private func atBreak(_ position: inout Int) throws -> Bool {
        guard position < bytes.count else { throw CBORDecodingError(.truncated, at: position) }
        if bytes[position] == 0xff {
            position += 1
            return true
        }
        return false
    }

    private func checkCount(_ head: Head, itemsPerEntry: UInt64, at position: Int) throws {
        let available = bytes.count - position
        if head.argument > UInt64(available) / itemsPerEntry {
            throw CBORDecodingError(.lengthExceedsInput(declared: head.argument, available: available), at: head.offset)
        }
    }

    /// Content of a byte or text string, definite or (when allowed) chunked.
    private func string(_ head: Head, at position: inout Int) throws -> [UInt8] {
        if !head.isIndefinite {
            try checkCount(head, itemsPerEntry: 1, at: position)
            let end = position + Int(head.argument)
            defer { position = end }
            return Array(bytes[position..<end])
        }
        var content: [UInt8] = []
        while try !atBreak(&position) {
            let chunkStart = position
            let chunk = try self.head(at: &position)
            guard chunk.major == head.major, !chunk.isIndefinite else { throw CBORDecodingError(.invalidChunk, at: chunkStart) }
            let piece = try string(chunk, at: &position)
            if head.major == 3 { _ = try text(piece, at: chunkStart) }
            content += piece
        }
        return content
    }

    private func text(_ bytes: [UInt8], at offset: Int) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CBORDecodingError(.invalidUTF8, at: offset) }
        return text
    }

    private func map(_ head: Head, at position: inout Int, depth: Int) throws -> [CBORMapEntry] {
        var entries: [CBORMapEntry] = []
        var seenKeys = Set<[UInt8]>()
        var previousKey: [UInt8]?
        func entry(_ position: inout Int) throws {
            let keyOffset = position
            let key = try item(at: &position, depth: depth + 1)
            let encodedKey = CBORWriter.encode(key, canonical: false)
            if !options.allowDuplicateMapKeys && !seenKeys.insert(encodedKey).inserted {
                throw CBORDecodingError(.duplicateMapKey, at: keyOffset)
            }
            if options.requireCanonical, let previousKey, !CBORWriter.ctap2Precedes(previousKey, encodedKey) {
                throw CBORDecodingError(.nonCanonicalKeyOrder, at: keyOffset)
            }
            previousKey = encodedKey
            entries.append(CBORMapEntry(key, try item(at: &position, depth: depth + 1)))
        }
        if head.isIndefinite {
            while try !atBreak(&position) { try entry(&position) }
        } else {
            try checkCount(head, itemsPerEntry: 2, at: position)
            entries.reserveCapacity(Int(head.argument))
            for _ in 0..<head.argument { try entry(&position) }
        }
        return entries
    }

    private func simpleOrFloat(_ head: Head) throws -> CBORValue {
        switch head.additional {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            if head.argument < 32 { throw CBORDecodingError(.invalidSimpleValue, at: head.offset) }
            return .simple(UInt8(head.argument))
        case 25: return .float16(UInt16(head.argument))
        case 26: return .float32(UInt32(head.argument))
        case 27: return .float64(head.argument)
        default: return .simple(head.additional)
        }
    }
}
