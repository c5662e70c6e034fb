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

    /// Memo keys of bytes hash their buffer at once (`ExactBytes`): equal exactly when the bytes are, so keys that
    /// differ in one byte, in length only, or in a trailing zero are different entries.
    @Test func byteKeysAreExact() {
        let keys: [[UInt8]] = [[], [0], [0, 0], [1, 2, 3], [1, 2, 3, 0], [1, 2, 4], Array(repeating: 7, count: 300),
                               Array(repeating: 7, count: 299) + [8]]
        let memo = Memo<ExactBytes, Int>(capacity: 100)
        for (index, key) in keys.enumerated() { #expect(memo.value(for: ExactBytes(key)) { index } == index) }
        for (index, key) in keys.enumerated() {
            // A copy in storage of its own: equal by the bytes, not by where they are.
            let copy = key.map { $0 }
            #expect(memo.value(for: ExactBytes(copy)) { -1 } == index)
            for (otherIndex, other) in keys.enumerated() {
                #expect((ExactBytes(key) == ExactBytes(other)) == (index == otherIndex))
            }
            #expect(ExactBytes(key).hashValue == ExactBytes(copy).hashValue)
        }
    }
}
