import AttestCrypto
import AttestTestSupport
import Foundation
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

    /// RFC 5869's SHA-256 cases through every mode the harness uses (whole, extract, expand from the extract),
    /// interleaved and from several threads at once: nothing one derivation gave reaches another (case 3 has no salt
    /// and no info, right after case 2's long ones).
    @Test func hkdfModesAgreeWithRFC5869() throws {
        struct RFC5869Case {
            let ikm: [UInt8], salt: [UInt8], info: [UInt8], prk: String, okm: String
        }
        let cases = [
            RFC5869Case(ikm: hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"), salt: hex("000102030405060708090a0b0c"),
                        info: hex("f0f1f2f3f4f5f6f7f8f9"),
                        prk: "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
                        okm: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"),
            RFC5869Case(ikm: Array(0x00...0x4f), salt: Array(0x60...0xaf), info: Array(0xb0...0xff),
                        prk: "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
                        okm: "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"),
            RFC5869Case(ikm: hex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"), salt: [], info: [],
                        prk: "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
                        okm: "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"),
        ]
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<30 {
                let test = cases[(thread + round) % cases.count]
                let count = test.okm.count / 2
                let whole = try? hkdfSHA256(secret: test.ikm, salt: test.salt, info: test.info, count: count)
                let prk = try? hkdfSHA256Extract(secret: test.ikm, salt: test.salt)
                let expanded = try? hkdfSHA256Expand(pseudorandomKey: prk ?? [], info: test.info, count: count)
                if whole.map(hex) != test.okm || prk.map(hex) != test.prk || expanded.map(hex) != test.okm {
                    failures.add()
                }
            }
        }
        #expect(failures.value == 0)
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
