import AttestDER
import Testing

/// Every non-DER variant the writer can emit is rejected by the strict reader with its own error and offset.
@Suite struct DERMalformationTests {
    private func rejection(_ bytes: [UInt8], options: DERReader.Options = .strict) -> DERError? {
        do {
            _ = try DERReader.parse(bytes, options: options)
            return nil
        } catch {
            return error  // typed: the reader throws DERError and nothing else
        }
    }

    private let sample = DERElement.sequence([.integer(5), .boolean(true)])

    @Test func longFormLengthBelow128() {
        let bytes = sample.deviating(.longFormLength(octets: 1)).serialized
        #expect(bytes.prefix(3) == [0x30, 0x81, 0x06])
        #expect(rejection(bytes) == DERError(.nonMinimalLength, at: 1))
    }

    @Test func longFormLengthWithLeadingZeroOctet() {
        let long = DERElement.octetString([UInt8](repeating: 0xaa, count: 200))
        let bytes = DERElement.sequence([long.deviating(.longFormLength(octets: 2))]).serialized
        // 30 81 cc | 04 82 00 c8 ...: the inner length octets start at offset 4.
        #expect(bytes[4...6] == [0x82, 0x00, 0xc8])
        #expect(rejection(bytes) == DERError(.nonMinimalLength, at: 4))
    }

    @Test func indefiniteLength() {
        let bytes = sample.deviating(.indefiniteLength).serialized
        #expect(bytes.prefix(2) == [0x30, 0x80] && bytes.suffix(2) == [0x00, 0x00])
        #expect(rejection(bytes) == DERError(.indefiniteLength, at: 1))
    }

    @Test func nonMinimalInteger() {
        let bytes = DERElement.sequence([DERElement.integer(5).deviating(.nonMinimalInteger)]).serialized
        #expect(bytes == [0x30, 0x04, 0x02, 0x02, 0x00, 0x05])
        #expect(rejection(bytes) == DERError(.nonMinimalInteger, at: 4))
        let negative = DERElement.integer(-1).deviating(.nonMinimalInteger).serialized
        #expect(negative == [0x02, 0x02, 0xff, 0xff])
        #expect(rejection(negative) == DERError(.nonMinimalInteger, at: 2))
    }

    @Test func emptyInteger() {
        #expect(rejection([0x02, 0x00]) == DERError(.emptyInteger, at: 2))
    }

    @Test func booleanOne() {
        let bytes = DERElement.sequence([.integer(5), DERElement.boolean(true).deviating(.booleanOctet(0x01))]).serialized
        #expect(bytes == [0x30, 0x06, 0x02, 0x01, 0x05, 0x01, 0x01, 0x01])
        #expect(rejection(bytes) == DERError(.invalidBoolean, at: 7))
        #expect(rejection([0x01, 0x02, 0xff, 0xff]) == DERError(.invalidBoolean, at: 2))
    }

    @Test func wrongClassFailsTheSchema() throws {
        let bytes = sample.deviating(.tagClass(.application)).serialized
        #expect(bytes[0] == 0x70)
        let parsed = try DERReader.parse(bytes)
        #expect(throws: DERError(.unexpectedTag(expected: .sequence, found: parsed.identifier), at: 0)) {
            try parsed.contents(.sequence)
        }
    }

    @Test func constructedBitOnPrimitiveAndPrimitiveSequence() {
        let constructedInteger = DERElement.sequence([DERElement.integer(5).deviating(.flipConstructedBit)]).serialized
        #expect(rejection(constructedInteger) == DERError(.wrongConstruction, at: 2))
        #expect(rejection(sample.deviating(.flipConstructedBit).serialized) == DERError(.wrongConstruction, at: 0))
    }

    @Test func trailingBytes() {
        let bytes = sample.serialized(trailingBytes: [0x00, 0x01])
        #expect(rejection(bytes) == DERError(.trailingBytes(count: 2), at: 8))
    }

    @Test func unsortedSet() {
        let set = DERElement.set([.integer(1), .integer(2)])
        #expect(set.serialized == [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02])
        #expect(rejection(set.deviating(.reverseSetOrder).serialized) == DERError(.unsortedSet, at: 5))
    }

    @Test func lengthBeyondInputIsNotTrusted() {
        #expect(rejection([0x30, 0x05, 0x02, 0x01]) == DERError(.lengthExceedsInput(declared: 5, available: 2), at: 1))
        #expect(rejection([0x04, 0x84, 0x7f, 0xff, 0xff, 0xff]) ==
                DERError(.lengthExceedsInput(declared: 0x7fff_ffff, available: 0), at: 1))
        #expect(rejection([0x04, 0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9]) == DERError(.unsupportedLength, at: 1))
        #expect(rejection([0x04, 0xff]) == DERError(.unsupportedLength, at: 1))
    }

    @Test func truncatedHeaders() {
        #expect(rejection([]) == DERError(.truncated, at: 0))
        #expect(rejection([0x30]) == DERError(.truncated, at: 1))
        #expect(rejection([0xbf, 0x85]) == DERError(.truncated, at: 2))
        #expect(rejection([0x04, 0x82, 0x01]) == DERError(.truncated, at: 3))
    }

    /// The framing is checked first, as d2i does: an element that ends before the input does is refused for its
    /// trailing bytes even when its content has an error of its own; `parseSequence` still reports that error.
    @Test func trailingBytesBeforeTheContent() {
        let badBoolean: [UInt8] = [0x30, 0x03, 0x01, 0x01, 0x05]
        #expect(rejection(badBoolean) == DERError(.invalidBoolean, at: 4))
        #expect(rejection(badBoolean + [0x00]) == DERError(.trailingBytes(count: 1), at: 5))
        #expect(throws: DERError(.invalidBoolean, at: 4)) { try DERReader.parseSequence(badBoolean + [0x05, 0x00]) }
        // What is refused before any content is read keeps its own error, not a framing one: a header that
        // cannot be read, end-of-contents, a universal type in the wrong form, a depth limit below one.
        #expect(rejection([0x30, 0x81, 0x01, 0x05, 0x00]) == DERError(.nonMinimalLength, at: 1))
        #expect(rejection([0x00, 0x00, 0x00]) == DERError(.unexpectedEndOfContents, at: 0))
        #expect(rejection([0x10, 0x00, 0x00]) == DERError(.wrongConstruction, at: 0))
        #expect(rejection([0x24, 0x00, 0x00]) == DERError(.wrongConstruction, at: 0))
        var none = DERReader.Options()
        none.maximumDepth = 0
        #expect(rejection([0x30, 0x00, 0x00], options: none) == DERError(.depthLimitExceeded(limit: 0), at: 0))
        #expect(rejection([0xa0, 0x00, 0x00]) == DERError(.trailingBytes(count: 1), at: 2))
    }

    /// Nesting deeper and elements more numerous than the reader's scratch space on the stack (12 open elements,
    /// 40 nodes) read the same as small ones: the lists move to the heap and the tree is the one that was written.
    @Test func treesBeyondTheScratchSpace() throws {
        var deep = DERElement.integer(7)
        for depth in 0..<48 { deep = depth % 3 == 0 ? .explicit(UInt64(depth), deep) : .sequence([deep, .null]) }
        let wide = DERElement.sequence((0..<300).map { DERElement.integer(Int64($0)) } + [deep])
        for element in [deep, wide, DERElement.set((0..<100).map { .octetString([UInt8($0)]) })] {
            let parsed = try DERReader.parse(element.serialized)
            #expect(parsed == element)
            #expect(DERWriter.serialize(parsed) == element.serialized)
        }
        var lenient = DERReader.Options.ber
        lenient.maximumDepth = 50
        let indefinite = deep.deviating(.indefiniteLength)
        #expect(try DERReader.parse(indefinite.serialized, options: lenient) == indefinite)
        // A SET out of order past its 40th element is found there.
        var children = (0..<60).map { DERElement.integer(Int64($0)) }
        children.swapAt(44, 45)
        let unsorted = DERElement(.set, .constructed(children)).serialized
        // 31 81 b4, then 45 three-octet INTEGERs before the one (02 01 2c) that sorts below its predecessor.
        #expect(unsorted[3 + 45 * 3 ..< 3 + 46 * 3] == [0x02, 0x01, 0x2c])
        #expect(rejection(unsorted) == DERError(.unsortedSet, at: 3 + 45 * 3))
    }

    @Test func depthLimit() {
        var element = DERElement.null
        for _ in 0..<50 { element = .sequence([element]) }
        // 51 levels: the NULL is at depth 51, preceded by 50 headers of 2 bytes each.
        #expect(rejection(element.serialized) == DERError(.depthLimitExceeded(limit: 50), at: 100))
        var shallow = DERReader.Options()
        shallow.maximumDepth = 60
        #expect(rejection(element.serialized, options: shallow) == nil)
    }

    @Test func highTagNumbers() throws {
        let tagged = DERElement.explicit(709, .integer(1))
        #expect(tagged.serialized.prefix(3) == [0xbf, 0x85, 0x45])
        #expect(try DERReader.parse(tagged.serialized).identifier == .explicit(709))
        #expect(rejection([0xbf, 0x80, 0x85, 0x45, 0x00]) == DERError(.nonMinimalTagNumber, at: 1))
        #expect(rejection([0xbf, 0x05, 0x00]) == DERError(.nonMinimalTagNumber, at: 1))
        // 2^31 − 1 (87 ff ff ff 7f) is the largest tag number; 2^31 (88 80 80 80 00) is refused at its last digit.
        #expect(try DERReader.parse([0x9f, 0x87, 0xff, 0xff, 0xff, 0x7f, 0x00]).identifier.tagNumber == UInt64(Int32.max))
        #expect(rejection([0x9f, 0x88, 0x80, 0x80, 0x80, 0x00, 0x00]) == DERError(.tagNumberTooLarge, at: 5))
    }

    @Test func nullAndBitStringContent() {
        #expect(rejection([0x05, 0x01, 0x00]) == DERError(.invalidNull, at: 2))
        #expect(rejection([0x03, 0x00]) == DERError(.invalidBitString, at: 2))
        #expect(rejection([0x03, 0x02, 0x08, 0x00]) == DERError(.invalidBitString, at: 2))
        #expect(rejection([0x03, 0x02, 0x01, 0x01]) == DERError(.invalidBitString, at: 3))
    }

    @Test func stringWidths() {
        // Found by fuzz-der: OpenSSL refuses these, so the strict reader must too.
        #expect(rejection([0x1e, 0x01, 0xff]) == DERError(.invalidString, at: 2))
        #expect(rejection([0x1c, 0x02, 0x00, 0x41]) == DERError(.invalidString, at: 2))
        #expect(rejection([0x1e, 0x02, 0x00, 0x41]) == nil)
    }

    @Test func endOfContentsWhereAnElementBelongs() {
        #expect(rejection([0x30, 0x02, 0x00, 0x00]) == DERError(.unexpectedEndOfContents, at: 2))
    }

    @Test func leniencySwitchesReadAndReproduceBER() throws {
        let lenient = DERReader.Options.ber
        let variants: [[UInt8]] = [
            sample.deviating(.longFormLength(octets: 3)).serialized,
            sample.deviating(.indefiniteLength).serialized,
            DERElement.sequence([DERElement.integer(5).deviating(.nonMinimalInteger)]).serialized,
            DERElement.boolean(true).deviating(.booleanOctet(0x01)).serialized,
            DERElement.set([.integer(1), .integer(2)]).deviating(.reverseSetOrder).serialized,
        ]
        for bytes in variants {
            #expect(rejection(bytes) != nil)
            #expect(try DERReader.parse(bytes, options: lenient).serialized == bytes)
        }
    }
}
