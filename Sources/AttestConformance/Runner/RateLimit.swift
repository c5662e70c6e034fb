import Foundation

/// At most `perSecond` case starts per second across all workers (`run --rate`), so that a deployed server is not
/// flooded. Starts are spaced evenly: each waits for the slot after the previous one. The clock and the sleep
/// are injected so that tests check the spacing without waiting.
public final class RateLimit: @unchecked Sendable {
    public let perSecond: Double
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (TimeInterval) -> Void
    private let lock = NSLock()
    private var nextSlot: Date?

    public init(perSecond: Double, now: @escaping @Sendable () -> Date = Date.init,
                sleep: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        precondition(perSecond > 0, "a rate is positive")
        self.perSecond = perSecond
        self.now = now
        self.sleep = sleep
    }

    /// Blocks until this caller's slot.
    public func acquire() {
        lock.lock()
        let current = now()
        let slot = max(current, nextSlot ?? current)
        nextSlot = slot + 1 / perSecond
        lock.unlock()
        let wait = slot.timeIntervalSince(current)
        if wait > 0 { sleep(wait) }
    }
}
