/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fully specified generator, so a seed names the same test
/// inputs on every machine and toolchain.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }

    /// `input` with one to four random edits: a byte flipped, set, inserted or removed, or the input cut short.
    public mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &self)
            switch Int.random(in: 0..<5, using: &self) {
            case 0 where !bytes.isEmpty: bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &self)
            case 1 where !bytes.isEmpty: bytes[position] = [0x00, 0x7f, 0x80, 0xff, 0x1f, 0x9f, 0xbf][Int.random(in: 0..<7, using: &self)]
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &self), at: position)
            case 3 where !bytes.isEmpty: bytes.remove(at: position)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }
}
