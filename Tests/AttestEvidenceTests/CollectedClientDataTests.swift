import AttestEvidence
import Testing

/// clientDataJSON as browsers write it (§5.8.1.1) and as relying parties read it (§7.1 steps 5-6).
@Suite struct CollectedClientDataTests {
    @Test func serializesInTheFixedOrderAndReadsBack() throws {
        let data = CollectedClientData(type: "webauthn.get", challenge: "abc", origin: "https://example.org", crossOrigin: true,
                                       topOrigin: "https://example.com", remainder: #""extra":1"#)
        #expect(String(decoding: data.bytes, as: UTF8.self)
            == #"{"type":"webauthn.get","challenge":"abc","origin":"https://example.org","crossOrigin":true,"topOrigin":"https://example.com","extra":1}"#)
        let read = try CollectedClientData(parsing: [0xEF, 0xBB, 0xBF] + data.bytes)
        #expect(read.type == "webauthn.get" && read.crossOrigin == true && read.topOrigin == "https://example.com")
    }

    @Test(arguments: [#"{"type":"webauthn.get","challenge":"a"}"#, #"{"type":1,"challenge":"a","origin":"o"}"#,
                      #"{"type":"t","challenge":"a","origin":"o","crossOrigin":"yes"}"#, "[]"])
    func refusesMissingOrMistypedMembers(text: String) {
        #expect(throws: CollectedClientData.ParseError.self) { try CollectedClientData(parsing: Array(text.utf8)) }
    }
}
