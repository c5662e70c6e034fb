import AttestDER
import Testing

@Suite struct DERTypeTests {
    @Test func objectIdentifiers() throws {
        let nonce: DERObjectIdentifier = "1.2.840.113635.100.8.2"
        #expect(DERElement.oid(nonce).serialized == [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x08, 0x02])
        #expect(try DERReader.parse(DERElement.oid(nonce).serialized).oidValue() == nonce)
        let keyDescription: DERObjectIdentifier = "1.3.6.1.4.1.11129.2.1.17"
        #expect(try DERReader.parse(DERElement.oid(keyDescription).serialized).oidValue().description
                == "1.3.6.1.4.1.11129.2.1.17")
        #expect(try DERReader.parse(DERElement.oid("2.999.3").serialized).oidValue() == "2.999.3")
        #expect(DERObjectIdentifier(dotted: "3.1") == nil)
        #expect(DERObjectIdentifier(dotted: "1.40") == nil)
        #expect(DERObjectIdentifier(dotted: "1..2") == nil)
        // The strict reader checks OID content (X.690 §8.19.2) where it stands: at its first content octet.
        for bad: [UInt8] in [[0x06, 0x00], [0x06, 0x02, 0x2a, 0x86], [0x06, 0x03, 0x2a, 0x80, 0x01]] {
            #expect(throws: DERError(.invalidObjectIdentifier, at: 2)) { try DERReader.parse(bad) }
        }
        #expect(throws: DERError(.invalidObjectIdentifier, at: 0)) {
            try DERElement.primitive(.objectIdentifier, [0x2a, 0x86]).oidValue()
        }
    }

    /// Arcs of 2^64 and beyond are valid (X.660 bounds none, OpenSSL reads them): kept, compared and printed.
    @Test func objectIdentifiersWithHugeArcs() throws {
        // 1.2.18446744073709551616: 2^64 in base 128 is 0x82 0x80 ... 0x80 0x00 (ten digits).
        let content: [UInt8] = [0x2a, 0x82] + [UInt8](repeating: 0x80, count: 8) + [0x00]
        let oid = try #require(DERObjectIdentifier(contentBytes: content))
        #expect(oid.description == "1.2.18446744073709551616")
        #expect(oid.components == nil)
        #expect(try DERReader.parse([0x06, UInt8(content.count)] + content).oidValue() == oid)
        #expect(oid != DERObjectIdentifier([1, 2, 0]))
        // The first sub-identifier of 2.x carries x + 80, however large.
        let joint = try #require(DERObjectIdentifier(contentBytes: [0x82] + [UInt8](repeating: 0x80, count: 8) + [0x00]))
        #expect(joint.description == "2.18446744073709551536")
        #expect(DERObjectIdentifier(dotted: "2.999.3")?.components == [2, 999, 3])
        #expect(DERObjectIdentifier(dotted: String(repeating: "1.", count: 600) + "1") == nil)
    }

    @Test func integers() throws {
        let cases: [(Int64, [UInt8])] = [
            (0, [0x00]), (127, [0x7f]), (128, [0x00, 0x80]), (256, [0x01, 0x00]),
            (-1, [0xff]), (-128, [0x80]), (-129, [0xff, 0x7f]), (Int64.max, [0x7f] + [UInt8](repeating: 0xff, count: 7)),
            (Int64.min, [0x80] + [UInt8](repeating: 0, count: 7)),
        ]
        for (value, content) in cases {
            let element = DERElement.integer(value)
            #expect(element.primitiveBytes == content)
            #expect(try DERReader.parse(element.serialized).integerValue() == value)
        }
        let serial = DERElement.integer(unsignedBigEndian: [0x00, 0x00, 0x8f, 0x01])
        #expect(serial.primitiveBytes == [0x00, 0x8f, 0x01])
        #expect(try DERReader.parse(serial.serialized).unsignedIntegerBytes() == [0x8f, 0x01])
        let big = [UInt8](repeating: 0x7f, count: 20)
        #expect(try DERReader.parse(DERElement.integer(unsignedBigEndian: big).serialized).unsignedIntegerBytes() == big)
        #expect(throws: DERError(.integerOutOfRange, at: 0)) {
            try DERReader.parse(DERElement.integer(unsignedBigEndian: big).serialized).integerValue()
        }
        #expect(throws: DERError(.integerOutOfRange, at: 0)) {
            try DERReader.parse(DERElement.integer(-5).serialized).unsignedIntegerBytes()
        }
        #expect(try DERReader.parse(DERElement.enumerated(2).serialized).integerValue(.enumerated) == 2)
    }

    @Test func bitAndOctetStrings() throws {
        #expect(DERElement.namedBits([0, 1, 2, 3]).serialized == [0x03, 0x02, 0x04, 0xf0])
        #expect(DERElement.namedBits([5, 6]).serialized == [0x03, 0x02, 0x01, 0x06])
        #expect(DERElement.namedBits([]).serialized == [0x03, 0x01, 0x00])
        let bits = try DERReader.parse(DERElement.bitString([0xde, 0xad]).serialized).bitStringValue()
        #expect(bits.bytes == [0xde, 0xad] && bits.unusedBits == 0)
        #expect(try DERReader.parse(DERElement.octetString([1, 2, 3]).serialized).octetStringValue() == [1, 2, 3])
    }

    @Test func times() throws {
        // 2020-03-18T18:32:53Z, the App Attest root's notBefore.
        let seconds: Int64 = 1_584_556_373
        let utc = ASN1Time.element(seconds)
        #expect(utc.serialized == [0x17, 0x0d] + Array("200318183253Z".utf8))
        #expect(try ASN1Time.value(of: DERReader.parse(utc.serialized)) == seconds)
        // 2050-01-01T00:00:00Z switches to GeneralizedTime (RFC 5280 §4.1.2.5).
        let y2050: Int64 = 2_524_608_000
        #expect(ASN1Time.element(y2050).serialized == [0x18, 0x0f] + Array("20500101000000Z".utf8))
        #expect(ASN1Time.element(y2050 - 1).identifier == .utcTime)
        #expect(try ASN1Time.value(of: DERReader.parse(ASN1Time.element(y2050).serialized)) == y2050)
        // 1970 and a leap day.
        #expect(try ASN1Time.value(of: DERReader.parse(ASN1Time.generalizedTime(0).serialized)) == 0)
        let leap: Int64 = 951_782_400  // 2000-02-29
        #expect(ASN1Time.utcTime(leap).primitiveBytes == Array("000229000000Z".utf8))
        for bad in ["200318183253", "2003181832Z", "200230000000Z", "201318183253Z", "200318186053Z", "2003181832+0Z"] {
            let element = DERElement.primitive(.utcTime, Array(bad.utf8))
            #expect(throws: DERError(.invalidTime, at: 0)) { try ASN1Time.value(of: DERReader.parse(element.serialized)) }
        }
        let fractional = DERElement.primitive(.generalizedTime, Array("20200318183253.5Z".utf8))
        #expect(throws: DERError(.invalidTime, at: 0)) { try ASN1Time.value(of: DERReader.parse(fractional.serialized)) }
    }

    @Test func strings() throws {
        #expect(try DERReader.parse(DERElement.utf8String("Grüße").serialized).stringValue() == "Grüße")
        #expect(try DERReader.parse(DERElement.printableString("Apple Inc.").serialized).stringValue() == "Apple Inc.")
        #expect(try DERReader.parse(DERElement.ia5String("a@b").serialized).stringValue() == "a@b")
        #expect(throws: DERError(.invalidString, at: 0)) {
            try DERReader.parse(DERElement.primitive(.printableString, Array("a@b".utf8)).serialized).stringValue()
        }
        #expect(throws: DERError(.invalidString, at: 0)) {
            try DERReader.parse(DERElement.primitive(.utf8String, [0xc3, 0x28]).serialized).stringValue()
        }
    }

    @Test func setOfIsSortedByEncoding() {
        let set = DERElement.set([.octetString([2]), .integer(300), .octetString([1, 1])])
        // X.690 §11.6 pads the shorter encoding with zeros: 04 01 02 (00) sorts before 04 02 01 01.
        #expect(set.children == [.integer(300), .octetString([2]), .octetString([1, 1])])
    }

    @Test func explicitAndImplicitTagsAndSchemaErrors() throws {
        let tagged = DERElement.sequence([.explicit(1, .octetString([9])), .implicit(2, .integer(7))])
        #expect(tagged.serialized == [0x30, 0x08, 0xa1, 0x03, 0x04, 0x01, 0x09, 0x82, 0x01, 0x07])
        let parsed = try DERReader.parse(tagged.serialized)
        var fields = try parsed.contents(field: "outer")
        #expect(try fields.next().explicitlyTagged(1).octetStringValue() == [9])
        #expect(fields.next(ifIdentifier: .implicit(3)) == nil)
        #expect(fields.next(ifIdentifier: .implicit(2))?.primitiveBytes == [7])
        #expect(throws: DERError(.missingElement, at: 0, field: "extra")) { try fields.next("extra") }
        var short = try parsed.contents(field: "outer")
        _ = try short.next()
        #expect(throws: DERError(.unexpectedElement, at: 7, field: "outer")) { try short.finish() }
    }

    @Test func pemRoundTrip() throws {
        let der = DERElement.sequence([.integer(1)]).serialized
        let text = PEMBlock(label: "TEST", der: der).text
        #expect(text == "-----BEGIN TEST-----\nMAMCAQE=\n-----END TEST-----\n")
        #expect(try PEMBlock.parseAll("junk\r\n" + text + text) == [PEMBlock(label: "TEST", der: der)] + [PEMBlock(label: "TEST", der: der)])
        #expect(throws: DERError.self) { try PEMBlock.parseAll("-----BEGIN X-----\nAAAA\n") }
        #expect(throws: DERError.self) { try PEMBlock.parseAll("-----BEGIN X-----\n!!!!\n-----END X-----\n") }
    }

    @Test func validEncodingsRoundTripByteIdentically() throws {
        let structure = DERElement.sequence([
            .explicit(0, .integer(2)), .integer(unsignedBigEndian: [0x80, 0x01]), .sequence([.oid("1.2.840.10045.4.3.2")]),
            .set([.sequence([.oid("2.5.4.3"), .utf8String("TEST")])]), .null, .boolean(false),
            .bitString([0xa0], unusedBits: 5), .octetString([UInt8](repeating: 7, count: 300)),
            ASN1Time.element(0), .explicit(709, .sequence([.explicit(1, .integer(-3))])),
            .primitive(DERIdentifier(tagClass: .private, tagNumber: 40, isConstructed: false), [1]),
        ])
        let bytes = structure.serialized
        let parsed = try DERReader.parse(bytes)
        #expect(parsed == structure)
        #expect(parsed.serialized == bytes)
    }
}
