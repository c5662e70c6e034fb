import CAttestOpenSSL
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation
import Testing

/// A forged Play Integrity token opens with OpenSSL calls written here, independently of `JOSE` and `AESCipher`: key
/// unwrap (RFC 3394), AES-256-GCM with the protected header as AAD, then ES256 over `header.payload` with the
/// `r || s` signature turned into DER by OpenSSL's own ECDSA_SIG.
@Suite struct IntegrityTokenTests {
    static func base64URL(_ text: Substring) -> [UInt8] {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Array(Data(base64Encoded: standard)!)
    }

    /// One EVP cipher pass; `tag` set means GCM decryption checked against it.
    static func cipher(_ name: String, key: [UInt8], iv: [UInt8]?, aad: [UInt8] = [], tag: [UInt8]? = nil, _ input: [UInt8]) -> [UInt8]? {
        guard let cipher = EVP_CIPHER_fetch(nil, name, nil), let ctx = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_free(cipher); EVP_CIPHER_CTX_free(ctx) }
        guard EVP_DecryptInit_ex2(ctx, cipher, key, iv, nil) == 1 else { return nil }
        var length: Int32 = 0
        if !aad.isEmpty { guard EVP_DecryptUpdate(ctx, nil, &length, aad, Int32(aad.count)) == 1 else { return nil } }
        var output = [UInt8](repeating: 0, count: input.count + 32)
        guard EVP_DecryptUpdate(ctx, &output, &length, input, Int32(input.count)) == 1 else { return nil }
        if var tag { guard EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &tag) == 1 else { return nil } }
        var final: Int32 = 0
        let ok = output.withUnsafeMutableBufferPointer { EVP_DecryptFinal_ex(ctx, $0.baseAddress! + Int(length), &final) }
        return ok == 1 ? Array(output.prefix(Int(length + final))) : nil
    }

    static func verifyES256(_ jws: String, publicKeyPEM: String) -> Bool {
        let parts = jws.split(separator: ".")
        let raw = base64URL(parts[2])
        guard parts.count == 3, raw.count == 64, let signature = ECDSA_SIG_new() else { return false }
        defer { ECDSA_SIG_free(signature) }
        ECDSA_SIG_set0(signature, BN_bin2bn(Array(raw[0..<32]), 32, nil), BN_bin2bn(Array(raw[32...]), 32, nil))
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &der)
        guard length > 0, let der else { return false }
        defer { copenssl_free(der) }
        let bio = BIO_new_mem_buf(publicKeyPEM, Int32(publicKeyPEM.utf8.count))
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil), let md = EVP_MD_CTX_new() else { return false }
        defer { EVP_PKEY_free(key); EVP_MD_CTX_free(md) }
        let signed = Array((parts[0] + "." + parts[1]).utf8)
        return EVP_DigestVerifyInit(md, nil, EVP_sha256(), nil, key) == 1
            && EVP_DigestVerify(md, der, Int(length), signed, signed.count) == 1
    }

    static func token(_ change: (inout IntegrityTokenBlueprint) -> Void = { _ in }) throws -> (String, PlayIntegrityKeys, IntegrityVerdict) {
        let keys = try PlayIntegrityKeys(seed: .default)
        let verdict = IntegrityVerdict(requestPackageName: "dev.example", nonce: "bm9uY2U", timestampMillis: "1768478400000",
                                       appRecognitionVerdict: "PLAY_RECOGNIZED", packageName: "dev.example",
                                       certificateSha256Digest: ["ZGlnZXN0"], versionCode: "42",
                                       deviceRecognitionVerdict: ["MEETS_DEVICE_INTEGRITY"], appLicensingVerdict: "LICENSED")
        var blueprint = IntegrityTokenBlueprint(verdict: verdict, keys: keys, contentKey: Array(repeating: 3, count: 32),
                                                iv: Array(repeating: 4, count: 12))
        change(&blueprint)
        return (try blueprint.render(), keys, verdict)
    }

    @Test func forgedTokenOpensWithIndependentOpenSSLCalls() throws {
        let (token, keys, verdict) = try Self.token()
        let parts = token.split(separator: ".")
        #expect(parts.count == 5)
        #expect(String(decoding: Self.base64URL(parts[0]), as: UTF8.self) == #"{"alg":"A256KW","enc":"A256GCM"}"#)
        let cek = try #require(Self.cipher("AES-256-WRAP", key: keys.decryptionKey, iv: nil, Self.base64URL(parts[1])))
        let jws = try #require(Self.cipher("AES-256-GCM", key: cek, iv: Self.base64URL(parts[2]), aad: Array(parts[0].utf8),
                                           tag: Self.base64URL(parts[4]), Self.base64URL(parts[3])))
        let compact = String(decoding: jws, as: UTF8.self)
        #expect(Self.verifyES256(compact, publicKeyPEM: keys.verificationKey.publicKey.pem))
        #expect(try IntegrityVerdict(parsing: Self.base64URL(compact.split(separator: ".")[1])) == verdict)
    }

    @Test func alteredTagAndOtherSignerFailTheIndependentChecks() throws {
        let (altered, keys, _) = try Self.token { $0.alterTag = true }
        let parts = altered.split(separator: ".")
        let cek = try #require(Self.cipher("AES-256-WRAP", key: keys.decryptionKey, iv: nil, Self.base64URL(parts[1])))
        #expect(Self.cipher("AES-256-GCM", key: cek, iv: Self.base64URL(parts[2]), aad: Array(parts[0].utf8),
                            tag: Self.base64URL(parts[4]), Self.base64URL(parts[3])) == nil)
        let other = try PrivateKey.derive(.ec(.p256), seed: [1], label: "other signer")
        let (plain, _, _) = try Self.token {
            $0.signingKey = other
            $0.unencrypted = true
        }
        #expect(plain.split(separator: ".").count == 3)
        #expect(!Self.verifyES256(plain, publicKeyPEM: keys.verificationKey.publicKey.pem))
        #expect(Self.verifyES256(plain, publicKeyPEM: other.publicKey.pem))
    }
}
