import AttestCBOR
import AttestTestSupport
import Testing

/// Seeded random bytes and random mutations of valid encodings: the reader never crashes, and what it accepts
/// re-encodes to something that decodes to the same value.
@Suite struct CBORPropertyTests {
    @Test func readerNeverCrashesAndRoundTripsWhatItAccepts() throws {
        var generator = SeededGenerator(seed: 0xCB0A_0002)
        var seeds: [[UInt8]] = (0..<20).map { _ in CBORWriter.encode(CBORCodecTests.randomValue(&generator)) }
        seeds.append([0x9a, 0x18, 0x00, 0x58, 0x20, 0x00, 0x02, 0x24, 0x3a, 0xff, 0x02])
        var lenient = CBORReader.Options()
        lenient.allowIndefiniteLengths = true
        var accepted = 0
        var rejected = 0
        for round in 0..<6000 {
            let input = round % 5 == 0
                ? generator.bytes(Int.random(in: 0...48, using: &generator))
                : generator.mutate(seeds[round % seeds.count])
            let options = round % 2 == 0 ? CBORReader.Options.strict : lenient
            do {
                let value = try CBORReader.decode(input, options: options)
                #expect(try CBORReader.decode(CBORWriter.encode(value, canonical: false)) == value)
                accepted += 1
            } catch is CBORDecodingError {
                rejected += 1
            }
        }
        #expect(accepted > 300 && rejected > 1000)
    }
}
