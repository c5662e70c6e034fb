import AttestCrypto
import Testing

/// base64url without padding (RFC 4648 §5), strict on decoding.
@Suite struct Base64URLTests {
    @Test func base64URLIsStrict() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8=") == nil)
        #expect(Base64URL.decode("-_9") == nil)  // non-zero trailing bits
        #expect(Base64URL.decode("a") == nil)
    }
}
