import AttestDER
import AttestTestSupport
import Testing

/// Seeded random bytes and random mutations of valid encodings: the reader never crashes, and whatever it accepts
/// in strict mode re-serializes to exactly the bytes it read (DER has one encoding per value).
@Suite struct DERPropertyTests {
    static let seeds: [[UInt8]] = [
        DERElement.sequence([.integer(1), .boolean(true), .oid("1.2.840.113635.100.8.2"),
                             .explicit(709, .octetString([1, 2, 3])), .set([.null, .integer(-5)])]).serialized,
        DERElement.sequence([.bitString([0xf0], unusedBits: 4), ASN1Time.element(1_600_000_000),
                             .utf8String("attest"), .octetString([UInt8](repeating: 9, count: 140))]).serialized,
        DERElement.explicit(3, .sequence([.sequence([.oid("2.5.29.19"), .boolean(true),
                                                     .octetString([0x30, 0x03, 0x01, 0x01, 0xff])])])).serialized,
    ]

    @Test func strictReaderNeverCrashesAndRoundTripsWhatItAccepts() {
        var generator = SeededGenerator(seed: 0xD1E5_0001)
        var accepted = 0
        var rejected = 0
        for round in 0..<6000 {
            let input = round % 4 == 0
                ? generator.bytes(Int.random(in: 0...64, using: &generator))
                : generator.mutate(Self.seeds[round % Self.seeds.count])
            do {
                let element = try DERReader.parse(input)
                #expect(element.serialized == input, "round trip of \(input)")
                accepted += 1
            } catch {
                // The reader's errors are typed (DERError), so no other kind can arrive here.
                rejected += 1
            }
        }
        // Both paths must actually be exercised for the property to mean anything.
        #expect(accepted > 50 && rejected > 1000)
    }

    @Test func lenientReaderReproducesWhatItAccepts() {
        let lenient = DERReader.Options.ber
        var generator = SeededGenerator(seed: 0xD1E5_0002)
        var accepted = 0
        for round in 0..<3000 {
            let input = generator.mutate(Self.seeds[round % Self.seeds.count])
            if let element = try? DERReader.parse(input, options: lenient) {
                #expect(element.serialized == input, "round trip of \(input)")
                accepted += 1
            }
        }
        #expect(accepted > 50)
    }
}
