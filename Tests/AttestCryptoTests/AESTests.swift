import AttestCrypto
import Testing

/// AES key wrap and GCM over OpenSSL: the RFC 3394 known answer, and refusals of altered input.
@Suite struct AESTests {
    /// RFC 3394 §4.6: 256 bits of key data with a 256-bit KEK.
    @Test func keyWrapMatchesRFC3394() throws {
        let kek = hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F")
        let keyData = hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")
        let wrapped = try AESCipher.wrap(keyData, key: kek)
        #expect(wrapped == hex("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"))
        #expect(try AESCipher.unwrap(wrapped, key: kek) == keyData)
        var altered = wrapped
        altered[0] ^= 1
        #expect(throws: AttestCryptoError.self) { try AESCipher.unwrap(altered, key: kek) }
    }

    @Test func gcmRoundTripsAndRefusesAlteredTagOrAAD() throws {
        let key = [UInt8](repeating: 7, count: 32), iv = [UInt8](repeating: 1, count: 12)
        let sealed = try AESCipher.sealGCM(Array("payload".utf8), key: key, iv: iv, aad: Array("header".utf8))
        #expect(try AESCipher.openGCM(sealed.ciphertext, key: key, iv: iv, aad: Array("header".utf8), tag: sealed.tag) == Array("payload".utf8))
        var tag = sealed.tag
        tag[15] ^= 1
        #expect(throws: AttestCryptoError.self) { try AESCipher.openGCM(sealed.ciphertext, key: key, iv: iv, aad: Array("header".utf8), tag: tag) }
        #expect(throws: AttestCryptoError.self) { try AESCipher.openGCM(sealed.ciphertext, key: key, iv: iv, aad: Array("other".utf8), tag: sealed.tag) }
    }
}
