import AttestCrypto
import Testing

/// The memo behind every cache of a pure computation keeps its bounds whatever it is fed: entries, bytes, and
/// entries too large to keep at all.
@Suite struct MemoTests {
    @Test func aHitIsNotComputedAgain() {
        let memo = Memo<Int, Int>(capacity: 4)
        var calls = 0
        for _ in 0..<3 { #expect(memo.value(for: 7) { calls += 1; return 49 } == 49) }
        #expect(calls == 1)
    }

    @Test func storedBytesStayUnderTheLimit() {
        let memo = Memo<[UInt8], Int>(capacity: 1000, byteLimit: 1000, size: { key, _ in key.count })
        for index in 0..<200 {
            let key = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 100) + [UInt8(index / 256)]
            _ = memo.value(for: key) { index }
            #expect(memo.storedBytes <= 1000)
        }
        #expect(memo.storedBytes > 0)
    }

    @Test func anEntryOverAnEighthOfTheLimitIsNeverKept() {
        let memo = Memo<[UInt8], Int>(capacity: 1000, byteLimit: 1000, size: { key, _ in key.count })
        let large = [UInt8](repeating: 1, count: 126)
        var calls = 0
        for _ in 0..<3 { _ = memo.value(for: large) { calls += 1; return 0 } }
        #expect(calls == 3)
        #expect(memo.storedBytes == 0)
    }

    @Test func theEntryCountIsBounded() {
        let memo = Memo<Int, Int>(capacity: 8)
        var calls = 0
        for round in 0..<2 { for key in 0..<9 { _ = memo.value(for: key) { calls += 1; return round } } }
        // Nine keys through eight places: each round empties the table once, so every key is computed again.
        #expect(calls == 18)
    }
}
