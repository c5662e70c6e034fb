import AttestConformance
import Testing

/// The triage page's evidence diff: a changed value is a change of that node (even when its description, such as a
/// byte count or a DER offset, changes with it), not a removal and an addition; repeated labels pair up in order;
/// the unchanged rest is counted, not listed.
@Suite struct EvidenceDiffTests {
    let valid = [EvidenceNode("attestationObject (CBOR, 100 bytes)", children: [
        EvidenceNode("fmt", "packed"),
        EvidenceNode("attStmt (map, 2)", children: [EvidenceNode("alg", "-7"), EvidenceNode("sig (bytes, 70)", "3044")]),
        EvidenceNode("x5c (array, 2)", children: [EvidenceNode("[0]", "leaf"), EvidenceNode("[1]", "intermediate")]),
    ]), EvidenceNode("clientDataJSON (JSON)", children: [EvidenceNode("origin", "https://example.com"), EvidenceNode("type", "webauthn.create")])]

    @Test func aChangedValueIsOneChangedNodeUnderItsParents() throws {
        var mutant = valid
        mutant[1].children[0].value = "https://example.com:443"
        let diff = EvidenceDiff.between(valid, mutant)
        #expect(diff.count == 1)
        let clientData = try #require(diff.first)
        #expect(clientData.label == "clientDataJSON (JSON)" && clientData.change == .changed && clientData.unchanged == 1)
        let origin = try #require(clientData.children.first)
        #expect(origin.label == "origin" && origin.change == .changed)
        #expect(origin.before == "https://example.com" && origin.after == "https://example.com:443")
    }

    @Test func aLongerValueWithANewDescriptionIsStillAChange() throws {
        var mutant = valid
        mutant[0].label = "attestationObject (CBOR, 101 bytes)"
        mutant[0].children[1].children[1] = EvidenceNode("sig (bytes, 71)", "304500")
        let diff = EvidenceDiff.between(valid, mutant)
        let object = try #require(diff.first)
        #expect(diff.count == 1 && object.labelBefore == "attestationObject (CBOR, 100 bytes)")
        #expect(object.unchanged == 2, "fmt and x5c are the same")
        let signature = try #require(object.children.first?.children.first)
        #expect(signature.change == .changed && signature.labelBefore == "sig (bytes, 70)" && signature.after == "304500")
        #expect(EvidenceDiff.key("INTEGER @36") == "INTEGER" && EvidenceDiff.key("SEQUENCE @0 (2)") == "SEQUENCE")
    }

    @Test func addedAndRemovedNodesCarryTheirSubtrees() throws {
        var mutant = valid
        mutant[0].children[2].children.insert(EvidenceNode("[0]", "leaf"), at: 0)  // the leaf twice
        mutant[0].children.remove(at: 0)                                              // no fmt
        mutant.append(EvidenceNode("extra", children: [EvidenceNode("inner", "1")]))
        let diff = EvidenceDiff.between(valid, mutant)
        let object = try #require(diff.first { $0.label.hasPrefix("attestationObject") })
        #expect(object.children.contains { $0.label == "fmt" && $0.change == .removed && $0.before == "packed" })
        let chain = try #require(object.children.first { $0.label.hasPrefix("x5c") })
        // The first [0] pairs with the valid [0] and [1] with [1]; the second [0] pairs with nothing and is added.
        #expect(chain.children.map(\.change) == [.added] && chain.unchanged == 2, "\(chain.children)")
        let extra = try #require(diff.first { $0.label == "extra" })
        #expect(extra.change == .added && extra.children.first?.after == "1")
        #expect(EvidenceDiff.between(valid, valid).isEmpty)
    }
}
