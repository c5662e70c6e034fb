import AttestCrypto
import Testing

@Suite struct DigestTests {
    @Test func knownAnswers() {
        // FIPS 180-4 example "abc".
        #expect(hex(sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(HashAlgorithm.sha384.hash(Array("abc".utf8))) ==
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        // RFC 4231 test case 2.
        #expect(hex(HashAlgorithm.sha256.hmac(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))) ==
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hkdfKnownAnswer() throws {
        // RFC 5869 test case 1.
        let okm = try hkdfSHA256(secret: hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"), salt: hex("000102030405060708090a0b0c"),
                                 info: hex("f0f1f2f3f4f5f6f7f8f9"), count: 42)
        #expect(hex(okm) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test func secureRandomBytesDiffer() {
        let a = secureRandomBytes(32)
        let b = secureRandomBytes(32)
        #expect(a.count == 32 && a != b)
    }

    @Test func hexRoundTrip() {
        #expect(hex([0x00, 0xab, 0xff]) == "00abff")
        #expect(bytes(fromHex: "00ABff") == [0x00, 0xab, 0xff])
        #expect(bytes(fromHex: "abc") == nil && bytes(fromHex: "zz") == nil)
    }
}
