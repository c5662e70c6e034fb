import AttestConformance
import Foundation
import Testing

/// `--rate`: starts are spaced 1/rate apart on an injected clock, never waiting on a real one.
@Suite struct RateLimitTests {
    final class FakeClock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 0)
        var slept: [TimeInterval] = []
        let lock = NSLock()
    }

    @Test func startsAreSpacedByTheRate() async {
        let clock = FakeClock()
        let limit = RateLimit(perSecond: 4, now: { clock.lock.withLock { clock.now } },
                              sleep: { seconds in clock.lock.withLock { clock.slept.append(seconds); clock.now += seconds } })
        for _ in 0..<5 { await limit.acquire() }
        #expect(clock.slept == [0.25, 0.25, 0.25, 0.25])
        // After a pause longer than the interval, the next start does not wait.
        clock.now += 10
        await limit.acquire()
        #expect(clock.slept.count == 4)
    }
}
