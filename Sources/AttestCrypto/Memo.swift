import Foundation

/// A bounded, thread-safe table of results of a pure computation, keyed by its exact inputs: the same inputs give
/// the same answer, so a hit is sound. Used where the reference verifier repeats costly work on identical bytes
/// (a fuzzer mutating everything but the certificate chain, a catalogue whose cases share one test PKI), and where a
/// forge or a client encodes the same value again (authorization lists, derived bytes, a run's profile). When full
/// it empties, so memory stays bounded by `capacity` entries whatever the inputs.
package final class Memo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: Value] = [:]

    package init(capacity: Int) { self.capacity = capacity }

    /// The stored value for `key`, else `compute()`'s, stored. `compute` runs outside the lock (two threads may both
    /// compute a missing key; both get the same answer).
    package func value(for key: Key, _ compute: () throws -> Value) rethrows -> Value {
        if let hit = lock.withLock({ entries[key] }) { return hit }
        let value = try compute()
        lock.withLock {
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }
}
