/// What `DERReader` found in one input, as one flat array of nodes in pre-order, shared by every element it
/// returns: the reader checks the whole input once and allocates no array per element; an element's content
/// arrays are made only when asked for (`DERElement.content`, `primitiveBytes`, `children`).
///
/// One allocation: the nodes are stored in one object after its header (`Storage`, a `ManagedBuffer`), copied from
/// the reader's list. Immutable once made, hence `Sendable` (unchecked because `ManagedBuffer` is a class with
/// mutable storage, which nothing writes after `make`). An element keeps the whole input alive, as a slice would.
struct DERParsedTree: @unchecked Sendable {
    struct Header {
        let input: [UInt8]
        let count: Int
    }

    final class Storage: ManagedBuffer<Header, DERParsedNode> {
        // The nodes are plain values (`BitwiseCopyable`): nothing to deinitialise; the header goes with the object.
    }

    private let storage: Storage

    /// A tree of `input` holding a copy of `nodes`.
    static func make(input: [UInt8], nodes: UnsafeBufferPointer<DERParsedNode>) -> DERParsedTree {
        let buffer = Storage.create(minimumCapacity: nodes.count) { _ in Header(input: input, count: nodes.count) }
        let storage = unsafeDowncast(buffer, to: Storage.self)
        if let source = nodes.baseAddress {
            storage.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: nodes.count) }
        }
        return DERParsedTree(storage: storage)
    }

    var input: [UInt8] { storage.header.input }

    /// Node `index`, which must be below the node count (checked).
    func node(_ index: Int) -> DERParsedNode {
        precondition(index >= 0 && index < storage.header.count)
        return storage.withUnsafeMutablePointerToElements { $0[index] }
    }

    func primitiveBytes(of index: Int) -> [UInt8] { Array(input[node(index).content]) }

    func children(of index: Int) -> [DERElement] {
        var children: [DERElement] = []
        let end = index + Int(node(index).subtreeSize)
        var child = index + 1
        while child < end {
            children.append(DERElement(self, child))
            child += Int(node(child).subtreeSize)
        }
        return children
    }

    func content(of index: Int) -> DERElement.Content {
        node(index).isConstructed ? .constructed(children(of: index)) : .primitive(primitiveBytes(of: index))
    }
}

/// One element as read, in 24 bytes: offsets fit in 32 bits because the reader refuses larger inputs, and tag
/// numbers do because it refuses any above 2^31 − 1 (`DERError.Code.tagNumberTooLarge`).
struct DERParsedNode: BitwiseCopyable {
    /// The tag number as read.
    let tagNumber: UInt32
    /// The first identifier octet's class and constructed bits (`0xe0`), as read.
    let classAndForm: UInt8
    /// 0 for the shortest definite form, the count of long-form length octets when more than needed were
    /// used, `DERParsedNode.indefinite` for the indefinite form.
    let lengthForm: UInt8
    /// Offset of the identifier octet.
    let start: UInt32
    /// The content octets start here and end at `contentEnd` (before the end-of-contents octets of an
    /// indefinite length).
    let contentStart: UInt32
    var contentEnd: UInt32
    /// How many nodes this element and everything inside it take, so `index + subtreeSize` is the next sibling.
    var subtreeSize: UInt32

    static let indefinite: UInt8 = 0xff

    var isConstructed: Bool { classAndForm & 0x20 != 0 }

    var identifier: DERIdentifier {
        let tagClass: DERIdentifier.TagClass
        switch classAndForm >> 6 {
        case 0: tagClass = .universal
        case 1: tagClass = .application
        case 2: tagClass = .contextSpecific
        default: tagClass = .private
        }
        return DERIdentifier(tagClass: tagClass, tagNumber: UInt64(tagNumber), isConstructed: isConstructed)
    }

    var lengthEncoding: DERElement.LengthEncoding {
        switch lengthForm {
        case 0: return .definite
        case DERParsedNode.indefinite: return .indefinite
        default: return .longForm(octets: Int(lengthForm))
        }
    }

    var content: Range<Int> { Int(contentStart)..<Int(contentEnd) }
}
