import Foundation

/// At most `perSecond` case starts per second across all workers (`run --rate`), so that a deployed server is not
/// flooded. Starts are spaced evenly: each waits for the slot after the previous one. The clock and the sleep
/// are injected so that tests check the spacing without waiting.
public actor RateLimit {
    public nonisolated let perSecond: Double
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (TimeInterval) async -> Void
    private var nextSlot: Date?

    /// - Parameter perSecond: starts per second, finite and above 0 (the CLI bounds it).
    public init(perSecond: Double, now: @escaping @Sendable () -> Date = Date.init,
                sleep: @escaping @Sendable (TimeInterval) async -> Void = { seconds in
                    try? await Task.sleep(nanoseconds: UInt64(max(0, min(seconds, 86_400)) * 1e9))
                }) {
        self.perSecond = perSecond.isFinite && perSecond > 0 ? perSecond : 1
        self.now = now
        self.sleep = sleep
    }

    /// Returns at this caller's slot. The slot is reserved before waiting, so concurrent callers queue in order.
    public func acquire() async {
        let current = now()
        let slot = max(current, nextSlot ?? current)
        nextSlot = slot + 1 / perSecond
        let wait = slot.timeIntervalSince(current)
        if wait > 0 { await sleep(wait) }
    }
}
