import AttestEvidence
import Foundation
import Testing

/// The import proof (docs/protocols/passkey-import.md §4): written with the documented members in order, read back
/// member for member, refused when it is not an object of strings.
@Suite struct ImportProofTests {
    @Test func writesTheDocumentedMembersInOrderAndReadsThemBack() throws {
        var proof = ImportProof(challenge: "aqX3", challengeId: "40c2e13f", userId: "u-1", credentialId: "xZoU",
                                publicKeySha256: "h\"/")
        #expect(String(decoding: proof.bytes, as: UTF8.self) == #"{"type":"striga.passkey.import","challenge":"aqX3","challengeId":"40c2e13f","userId":"u-1","credentialId":"xZoU","publicKeySha256":"h\"\/"}"#)
        let read = try ImportProof(parsing: proof.bytes)
        #expect(Set(read.members.map(\.name)) == PasskeyImportFormat.proofMembers)
        #expect(read["publicKeySha256"] == "h\"/" && read["type"] == ImportProof.type)
        proof["userId"] = nil
        proof["businessId"] = "b-1"
        #expect(Set(try ImportProof(parsing: proof.bytes).members.map(\.name)) == PasskeyImportFormat.businessProofMembers)
    }

    @Test(arguments: ["[]", "{\"type\":1}", "not json", "{\"a\":null}"])
    func refusesWhatIsNotAnObjectOfStrings(text: String) {
        #expect(throws: ImportProof.ParseError.self) { try ImportProof(parsing: Array(text.utf8)) }
    }
}
