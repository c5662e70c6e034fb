import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response body's bytes in one anonymous mapping reserved at the size cap: memory is committed only as bytes
/// arrive, never copied to grow, and returned to the system as soon as the body is dropped (a refused flood
/// included), so a request costs at most its cap, not a multiple of it.
final class BodyBuffer {
    let limit: Int
    private(set) var count = 0
    private var base: UnsafeMutableRawPointer?

    init(limit: Int) throws {
        self.limit = limit
        guard limit > 0 else { return }
        let mapped = mmap(nil, limit, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { throw HTTPClientError.malformed("cannot reserve \(limit) bytes") }
        base = mapped
    }

    deinit {
        if let base { munmap(base, limit) }
    }

    func append<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        guard count + bytes.count <= limit, let base else { throw HTTPClientError.tooLarge(limit: limit) }
        let target = UnsafeMutableRawBufferPointer(start: base + count, count: bytes.count)
        _ = target.copyBytes(from: bytes)
        count += bytes.count
    }

    /// The bytes, handing the mapping over to the returned `Data` (unmapped when it is released).
    func take() -> Data {
        guard let base, count > 0 else { return Data() }
        self.base = nil
        let size = limit
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, _ in munmap(pointer, size) })
    }
}
