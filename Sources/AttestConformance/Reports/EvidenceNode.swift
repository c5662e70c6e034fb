/// One node of decoded evidence as a report shows it: a CBOR map entry, a DER element, a certificate field. The
/// label says what it is (`x5c[0]`, `SEQUENCE @4`), the value what it holds, the children what it contains.
public struct EvidenceNode: Hashable, Sendable {
    public var label: String
    public var value: String?
    public var children: [EvidenceNode]

    public init(_ label: String, _ value: String? = nil, children: [EvidenceNode] = []) {
        self.label = label
        self.value = value
        self.children = children
    }
}
