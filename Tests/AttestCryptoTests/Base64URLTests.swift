import AttestCrypto
import Foundation
import Testing

/// base64url without padding (RFC 4648 §5), strict on decoding.
@Suite struct Base64URLTests {
    @Test func base64URLIsStrict() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8=") == nil)
        #expect(Base64URL.decode("-_8=") == nil)
        #expect(Base64URL.decode("-_9") == nil)  // non-zero trailing bits
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab c") == nil)
        #expect(Base64URL.decode("abé") == nil)
        #expect(Base64URL.encode([]) == "" && Base64URL.decode("") == [])
    }

    /// Against RFC 4648's own relation between the alphabets, on every length up to 3 blocks and every byte value:
    /// base64url is base64 with `-_` for `+/` and no padding, and decoding gives the bytes back.
    @Test func itIsBase64WithTheURLAlphabet() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // a fixed xorshift sequence: the same bytes on every run
        func next() -> UInt8 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        for length in 0...12 {
            for round in 0..<64 {
                let bytes = (0..<length).map { index in round < 8 ? UInt8(truncatingIfNeeded: 0xF8 + round + index) : next() }
                let standard = Data(bytes).base64EncodedString()
                let expected = String(standard.filter { $0 != "=" }.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
                #expect(Base64URL.encode(bytes) == expected)
                #expect(Base64URL.decode(expected) == bytes)
                #expect(Base64URL.decode(standard) == (standard.contains { "+/=".contains($0) } ? nil : bytes))
            }
        }
    }

    /// Inputs longer than EVP_EncodeBlock's 32-bit count are coded in pieces of whole 3-byte groups: the same text as
    /// in one piece, whatever the piece size and wherever the input ends.
    @Test func piecesMakeTheSameText() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0xF9) }
            let standard = Data(bytes).base64EncodedString()
            let expected = String(standard.filter { $0 != "=" }.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
            #expect(Base64URL.encode(bytes) == expected)
            for piece in [3, 6, 9, 30] { #expect(Base64URL.encode(bytes, piece: piece) == expected) }
        }
    }
}
