import AttestCBOR
import AttestCBORReference

/// fuzz-cbor: whatever the strict reader accepts re-encodes canonically to a fixed point and decodes back to the
/// same value; whatever the permissive reader accepts (every declared size then fits the input, so libcbor cannot
/// be made to allocate beyond it) libcbor decodes to the same tree, apart from libcbor 0.8's known gaps.
enum CBOROracle {
    static func check(_ input: [UInt8]) -> String? {
        if let value = try? CBORReader.decode(input) {
            guard let again = try? CBORReader.decode(CBORWriter.encode(value, canonical: false)), again == value else {
                return "order-preserving re-encoding does not decode to the same value"
            }
            let canonical = CBORWriter.encode(value)
            guard let reread = try? CBORReader.decode(canonical, options: .ctap2CanonicalWithTags),
                  CBORWriter.encode(reread) == canonical else {
                return "canonical re-encoding is not a canonical fixed point"
            }
        }
        var permissive = CBORReader.Options()
        permissive.allowDuplicateMapKeys = true
        permissive.allowIndefiniteLengths = true
        guard let value = try? CBORReader.decode(input, options: permissive) else { return nil }
        guard let theirs = try? LibCBORDecoder.decode(input) else {
            // libcbor 0.8 refuses unassigned simple values and one-byte tags 6..20; newer versions decode them.
            return libcbor08Gap(value) ? nil : "libcbor rejects what we accept"
        }
        return sameTree(value, theirs) ? nil : "libcbor decodes another value"
    }

    /// Well-formed CBOR that libcbor 0.8 reports as malformed: unassigned simple values and one-byte tags 6..20.
    static func libcbor08Gap(_ value: CBORValue) -> Bool {
        switch value {
        case .simple: return true
        case .array(let elements): return elements.contains(where: libcbor08Gap)
        case .map(let entries): return entries.contains { libcbor08Gap($0.key) || libcbor08Gap($0.value) }
        case .tagged(let tag, let inner): return (6...20).contains(tag) || libcbor08Gap(inner)
        default: return false
        }
    }

    /// Equality, except that libcbor widens half floats, so half NaNs keep no payload.
    static func sameTree(_ a: CBORValue, _ b: CBORValue) -> Bool {
        switch (a, b) {
        case (.float16(let x), .float16(let y)): return x == y || (isHalfNaN(x) && isHalfNaN(y))
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameTree)
        case (.map(let x), .map(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameTree($0.key, $1.key) && sameTree($0.value, $1.value) }
        case (.tagged(let t, let x), .tagged(let u, let y)): return t == u && sameTree(x, y)
        default: return a == b
        }
    }

    static func isHalfNaN(_ bits: UInt16) -> Bool { bits & 0x7c00 == 0x7c00 && bits & 0x03ff != 0 }
}
