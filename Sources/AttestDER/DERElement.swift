/// One TLV element: what `DERReader` returns and what `DERWriter` serializes.
///
/// Equality compares identifier, content and length encoding; `offset` is where the reader found the element
/// and takes no part in equality.
public struct DERElement: Sendable, CustomStringConvertible {
    public enum Content: Hashable, Sendable {
        case primitive([UInt8])
        case constructed([DERElement])
    }

    /// How the length octets are written (X.690 §8.1.3). Only `.definite` is DER; the others exist so that the
    /// writer can emit non-DER variants and the lenient reader can reproduce what it read byte for byte.
    public enum LengthEncoding: Hashable, Sendable {
        /// Short form below 128, otherwise the fewest long-form octets.
        case definite
        /// Long form with exactly this many length octets (non-minimal when more than needed).
        case longForm(octets: Int)
        /// `0x80` followed by content and `00 00` (constructed elements only).
        case indefinite
    }

    public var identifier: DERIdentifier
    public var lengthEncoding: LengthEncoding
    /// Offset of the identifier octet in the parsed input, or `nil` for elements built in code.
    public var offset: Int?
    private var storage: Storage

    /// The content: children or content octets. An element the reader returned holds only where its content lies
    /// in the input it checked, and makes the arrays when this is read; setting it replaces that with the value.
    public var content: Content {
        get {
            switch storage {
            case .built(let content): return content
            case .parsed(let tree, let index): return tree.content(of: index)
            }
        }
        set { storage = .built(newValue) }
    }

    /// Content built in code, or a node of a tree `DERReader` parsed (one allocation per parse, not per element).
    private enum Storage: Sendable {
        case built(Content)
        case parsed(DERParsedTree, Int)
    }

    public init(
        _ identifier: DERIdentifier,
        _ content: Content,
        lengthEncoding: LengthEncoding = .definite,
        offset: Int? = nil
    ) {
        self.identifier = identifier
        self.storage = .built(content)
        self.lengthEncoding = lengthEncoding
        self.offset = offset
    }

    /// Node `index` of `tree`, as the reader returns it.
    init(_ tree: DERParsedTree, _ index: Int) {
        let node = tree.node(index)
        self.identifier = node.identifier
        self.lengthEncoding = node.lengthEncoding
        self.offset = Int(node.start)
        self.storage = .parsed(tree, index)
    }

    /// A primitive element holding `bytes` as its content octets, with no validation (used for raw variants).
    public static func primitive(_ identifier: DERIdentifier, _ bytes: [UInt8]) -> DERElement {
        DERElement(identifier, .primitive(bytes))
    }

    /// A constructed element holding `children`.
    public static func constructed(_ identifier: DERIdentifier, _ children: [DERElement]) -> DERElement {
        DERElement(identifier, .constructed(children))
    }

    /// The content octets of a primitive element.
    public var primitiveBytes: [UInt8]? {
        if case .parsed(let tree, let index) = storage {
            return tree.node(index).isConstructed ? nil : tree.primitiveBytes(of: index)
        }
        if case .primitive(let bytes) = content { return bytes }
        return nil
    }

    /// The children of a constructed element.
    public var children: [DERElement]? {
        if case .parsed(let tree, let index) = storage {
            return tree.node(index).isConstructed ? tree.children(of: index) : nil
        }
        if case .constructed(let children) = content { return children }
        return nil
    }

    public var description: String {
        switch content {
        case .primitive(let bytes): return "\(identifier) (\(bytes.count) bytes)"
        case .constructed(let children): return "\(identifier) {\(children.map(\.description).joined(separator: ", "))}"
        }
    }
}

extension DERElement: Hashable {
    public static func == (lhs: DERElement, rhs: DERElement) -> Bool {
        lhs.identifier == rhs.identifier && lhs.content == rhs.content && lhs.lengthEncoding == rhs.lengthEncoding
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(content)
        hasher.combine(lengthEncoding)
    }
}
