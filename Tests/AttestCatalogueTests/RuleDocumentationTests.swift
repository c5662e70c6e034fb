import AttestCatalogue
import AttestConformance
import Testing

/// Every rule whose clause is in a public document links to it (SARIF `helpUri`), over https; a rule citing this
/// repository's own protocol documents or no document gets no link rather than a made-up one.
@Suite struct RuleDocumentationTests {
    @Test func publicClausesLinkToTheirDocument() {
        let rules = BuiltinCatalogue.families.flatMap { $0.rules }
        var linked = 0, own = 0
        for rule in rules {
            let url = RuleDocumentation.url(forSource: rule.source)
            if rule.source.hasPrefix("docs/") || rule.source.hasPrefix("none") {
                own += 1
                #expect(url == nil, "\(rule.id): \(rule.source)")
            } else {
                #expect(url?.hasPrefix("https://") == true, "\(rule.id) has no document link: \(rule.source)")
                if url != nil { linked += 1 }
            }
        }
        #expect(linked > 100 && own > 20, "\(linked) linked, \(own) own")
        #expect(RuleDocumentation.url(forSource: "WebAuthn L3 §7.2 step 21") == "https://www.w3.org/TR/webauthn-3/#sctn-verifying-assertion")
    }
}
