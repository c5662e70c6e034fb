import Foundation

/// A bounded, thread-safe table of results of a pure computation, keyed by its exact inputs: the same inputs give
/// the same answer, so a hit is sound. Used where the reference verifier repeats costly work on identical bytes
/// (a fuzzer mutating everything but the certificate chain, a catalogue whose cases share one test PKI), and where a
/// forge or a client encodes the same value again (authorization lists, derived bytes, a run's profile).
///
/// Memory stays bounded whatever the inputs: at most `capacity` entries and `byteLimit` bytes as `size` counts them
/// (the bytes of hostile input a key holds, and what its value keeps of them); it empties when either would be
/// exceeded, and an entry larger than an eighth of `byteLimit` is computed every time, never kept.
package final class Memo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let capacity: Int
    private let byteLimit: Int
    private let size: @Sendable (Key, Value) -> Int
    private let lock = NSLock()
    private var entries: [Key: Value] = [:]
    private var bytes = 0

    package init(capacity: Int, byteLimit: Int = 32 << 20, size: @escaping @Sendable (Key, Value) -> Int = { _, _ in 0 }) {
        self.capacity = capacity
        self.byteLimit = byteLimit
        self.size = size
    }

    /// The bytes the kept entries hold, as `size` counts them.
    package var storedBytes: Int { lock.withLock { bytes } }

    /// The stored value for `key`, else `compute()`'s, stored if it fits. `compute` runs outside the lock (two
    /// threads may both compute a missing key; both get the same answer).
    package func value(for key: Key, _ compute: () throws -> Value) rethrows -> Value {
        if let hit = lock.withLock({ entries[key] }) { return hit }
        let value = try compute()
        let cost = size(key, value)
        guard cost <= byteLimit / 8 else { return value }
        lock.withLock {
            if entries[key] == nil {
                if entries.count >= capacity || bytes + cost > byteLimit {
                    entries.removeAll(keepingCapacity: true)
                    bytes = 0
                }
                entries[key] = value
                bytes += cost
            }
        }
        return value
    }
}
