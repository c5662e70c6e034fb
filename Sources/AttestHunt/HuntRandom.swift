/// The hunt's deterministic source of choices: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014). Mutant `i` of a hunt with seed `s` draws from `HuntRandom(seed: s, stream: i)`
/// alone, so the same seed gives the same mutants in any order, after a resume, or on another shard.
/// Not for secrets: it chooses which byte to flip.
package struct HuntRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// Bytes to take the first values from, 8 per value, before the generator (a fuzzer's input steers the choices).
    private var script: [UInt8] = []
    private var scriptPosition = 0

    package init(seed: UInt64, stream: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ stream &+ 0xD1B5_4A32_D192_ED03
        _ = next()
    }

    /// Choices drawn from `script` first (8 bytes, little-endian, per value), then from a generator seeded by its
    /// length: what fuzz-differential hands libFuzzer, so that coverage guides which mutant is made.
    package init(script: [UInt8]) {
        self.init(seed: UInt64(script.count), stream: 0x5C21_97)
        self.script = script
    }

    package mutating func next() -> UInt64 {
        if scriptPosition < script.count {
            var value: UInt64 = 0
            for offset in 0..<8 where scriptPosition + offset < script.count {
                value |= UInt64(script[scriptPosition + offset]) << (8 * UInt64(offset))
            }
            scriptPosition += 8
            return value
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform index below `count` (which must be positive). A value taken from the script is the index as written
    /// (modulo `count`), so that a seed names the choices it makes.
    package mutating func index(_ count: Int) -> Int {
        let bound = UInt64(max(count, 1))
        if scriptPosition < script.count { return Int(next() % bound) }
        return Int(next(upperBound: bound))
    }

    package mutating func pick<T>(_ values: [T]) -> T { values[index(values.count)] }
}

extension HuntRandom {
    /// Flips one drawn bit of `bytes`: the size of the change (1), or nil when there is no byte to change.
    package mutating func flipBit(in bytes: inout [UInt8]) -> Int? {
        guard !bytes.isEmpty else { return nil }
        bytes[index(bytes.count)] ^= UInt8(1) << UInt8(index(8))
        return 1
    }
}
