import AttestCBOR
import Testing

/// Each malformation the raw writer can emit is rejected by the strict reader with its own error and offset.
@Suite struct CBORMalformationTests {
    private func rejection(_ bytes: [UInt8], options: CBORReader.Options = .strict) -> CBORDecodingError? {
        do {
            _ = try CBORReader.decode(bytes, options: options)
            return nil
        } catch let error as CBORDecodingError {
            return error
        } catch {
            return nil
        }
    }

    @Test func duplicateMapKeys() throws {
        var writer = CBORRawWriter()
        writer.value(.map([CBORMapEntry("fmt", "none"), CBORMapEntry("fmt", "packed")]))
        // a2 63 'fmt' 64 'none' | 63 'fmt' ...: the second key starts at 1 + 4 + 5.
        #expect(rejection(writer.bytes) == CBORDecodingError(.duplicateMapKey, at: 10))
        var lenient = CBORReader.Options()
        lenient.allowDuplicateMapKeys = true
        #expect(try CBORReader.decode(writer.bytes, options: lenient).mapEntries?.count == 2)
    }

    @Test func duplicateKeysAreComparedAsValuesNotBytes() {
        var writer = CBORRawWriter()
        writer.head(major: 5, argument: 2, width: .immediate)
        writer.value(.unsigned(1))
        writer.value(.null)
        writer.head(major: 0, argument: 1, width: .oneByte)  // 1 again, non-minimally
        writer.value(.null)
        #expect(rejection(writer.bytes) == CBORDecodingError(.duplicateMapKey, at: 3))
    }

    @Test func indefiniteLengths() throws {
        var writer = CBORRawWriter()
        writer.beginIndefinite(major: 4)
        writer.value(.unsigned(1))
        writer.beginIndefinite(major: 2)
        writer.value(.bytes([1, 2]))
        writer.value(.bytes([3]))
        writer.breakCode()
        writer.breakCode()
        #expect(writer.bytes == [0x9f, 0x01, 0x5f, 0x42, 0x01, 0x02, 0x41, 0x03, 0xff, 0xff])
        #expect(rejection(writer.bytes) == CBORDecodingError(.indefiniteLength, at: 0))
        var lenient = CBORReader.Options()
        lenient.allowIndefiniteLengths = true
        #expect(try CBORReader.decode(writer.bytes, options: lenient) == .array([.unsigned(1), .bytes([1, 2, 3])]))
        // Chunks must be definite strings of the same major type.
        #expect(rejection([0x5f, 0x61, 0x61, 0xff], options: lenient) == CBORDecodingError(.invalidChunk, at: 1))
        // Integers and tags have no indefinite form.
        #expect(rejection([0x1f], options: lenient) == CBORDecodingError(.indefiniteLength, at: 0))
        #expect(rejection([0x9f, 0x01], options: lenient) == CBORDecodingError(.truncated, at: 2))
    }

    @Test func nonMinimalHeadsFailOnlyTheCanonicalCheck() throws {
        for width in [CBORRawWriter.ArgumentWidth.oneByte, .twoBytes, .fourBytes, .eightBytes] {
            var writer = CBORRawWriter()
            writer.head(major: 0, argument: 10, width: width)
            #expect(try CBORReader.decode(writer.bytes) == .unsigned(10))
            #expect(rejection(writer.bytes, options: .ctap2Canonical) == CBORDecodingError(.nonCanonicalHead, at: 0))
        }
        var length = CBORRawWriter()
        length.head(major: 2, argument: 1, width: .twoBytes)
        length.raw([0xaa])
        #expect(rejection(length.bytes, options: .ctap2Canonical) == CBORDecodingError(.nonCanonicalHead, at: 0))
    }

    @Test func unsortedKeysFailTheCanonicalCheck() throws {
        let unsorted = CBORValue.map([CBORMapEntry("authData", .bytes([])), CBORMapEntry("fmt", "none")])
        var writer = CBORRawWriter()
        writer.value(unsorted)
        #expect(try CBORReader.decode(writer.bytes) == unsorted)
        #expect(rejection(writer.bytes, options: .ctap2Canonical) == CBORDecodingError(.nonCanonicalKeyOrder, at: 11))
        #expect(try CBORReader.decode(CBORWriter.encode(unsorted), options: .ctap2Canonical)
                == .map([CBORMapEntry("fmt", "none"), CBORMapEntry("authData", .bytes([]))]))
    }

    @Test func wrongMajorTypes() {
        // A byte-string key where a text key belongs decodes as a different key, so schema readers miss it;
        // a tag is well formed but not canonical.
        var writer = CBORRawWriter()
        writer.head(major: 5, argument: 1, width: .immediate)
        writer.head(major: 2, argument: 3, width: .immediate)
        writer.raw(Array("fmt".utf8))
        writer.value("none")
        #expect((try? CBORReader.decode(writer.bytes))?["fmt"] == nil)
        #expect((try? CBORReader.decode(writer.bytes))?[.bytes(Array("fmt".utf8))] == "none")
        #expect(rejection([0xc0, 0x00], options: .ctap2Canonical) == CBORDecodingError(.tagNotAllowed, at: 0))
    }

    @Test func trailingBytes() {
        var writer = CBORRawWriter()
        writer.value(.map([CBORMapEntry("fmt", "none")]))
        writer.raw([0x00])
        #expect(rejection(writer.bytes) == CBORDecodingError(.trailingBytes(count: 1), at: 10))
    }

    @Test func declaredSizesAreCheckedBeforeAllocating() {
        // libcbor 0.8 calls malloc(3221405952) for this 11-byte input.
        let libcborOOM: [UInt8] = [0x9a, 0x18, 0x00, 0x58, 0x20, 0x00, 0x02, 0x24, 0x3a, 0xff, 0x02]
        #expect(rejection(libcborOOM) == CBORDecodingError(.lengthExceedsInput(declared: 0x1800_5820, available: 6), at: 0))
        #expect(rejection([0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) ==
                CBORDecodingError(.lengthExceedsInput(declared: UInt64.max, available: 0), at: 0))
        #expect(rejection([0xa2, 0x01, 0x02, 0x03]) == CBORDecodingError(.lengthExceedsInput(declared: 2, available: 3), at: 0))
        #expect(rejection([0x82, 0x01]) == CBORDecodingError(.lengthExceedsInput(declared: 2, available: 1), at: 0))
    }

    @Test func wellFormednessErrors() {
        for reserved: UInt8 in [0x1c, 0x3d, 0x5e] {
            #expect(rejection([reserved]) == CBORDecodingError(.reservedAdditionalInfo(reserved & 0x1f), at: 0))
        }
        #expect(rejection([0xff]) == CBORDecodingError(.unexpectedBreak, at: 0))
        #expect(rejection([0x81, 0xff]) == CBORDecodingError(.unexpectedBreak, at: 1))
        #expect(rejection([0xf8, 0x10]) == CBORDecodingError(.invalidSimpleValue, at: 0))
        #expect(rejection([0x62, 0xc3, 0x28]) == CBORDecodingError(.invalidUTF8, at: 0))
        #expect(rejection([0x19, 0x01]) == CBORDecodingError(.truncated, at: 2))
        #expect(rejection([]) == CBORDecodingError(.truncated, at: 0))
    }

    @Test func depthLimit() {
        let nested = [UInt8](repeating: 0x81, count: 32) + [0x00]
        #expect(rejection(nested) == CBORDecodingError(.depthLimitExceeded(limit: 32), at: 32))
        #expect(rejection(Array(nested.dropFirst())) == nil)
    }
}
