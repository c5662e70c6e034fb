/// Bytes as a dictionary or `Memo` key, hashed in one pass over their buffer.
///
/// `[UInt8]`'s own `Hashable` conformance feeds the hasher one element at a time through generic value witnesses,
/// which costs about as much per byte as the verification a memo saves when the key is a certificate chain. Equal
/// bytes hash equally here as there; only the speed differs.
package struct ExactBytes: Hashable, Sendable {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    package static func == (lhs: ExactBytes, rhs: ExactBytes) -> Bool {
        lhs.bytes.count == rhs.bytes.count && lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in left.elementsEqual(right) }
        }
    }

    package var count: Int { bytes.count }
}
