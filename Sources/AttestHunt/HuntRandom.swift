/// The hunt's deterministic source of choices: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014). Mutant `i` of a hunt with seed `s` draws from `HuntRandom(seed: s, stream: i)`
/// alone, so the same seed gives the same mutants in any order, after a resume, or on another shard.
/// Not for secrets: it chooses which byte to flip.
package struct HuntRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64, stream: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ stream &+ 0xD1B5_4A32_D192_ED03
        _ = next()
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform index below `count` (which must be positive).
    package mutating func index(_ count: Int) -> Int { Int(next(upperBound: UInt64(max(count, 1)))) }

    package mutating func pick<T>(_ values: [T]) -> T { values[index(values.count)] }
}
