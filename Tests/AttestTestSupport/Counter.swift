import Foundation

/// A count several threads add to (`DispatchQueue.concurrentPerform` bodies), read once they are done. A lock, not
/// `Synchronization.Mutex`, which macOS has only from 15 on.
package final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    package init() {}

    package func add() { lock.withLock { count += 1 } }

    package var value: Int { lock.withLock { count } }
}
