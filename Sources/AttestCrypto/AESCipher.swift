internal import CAttestOpenSSL

/// AES through OpenSSL's EVP ciphers: key wrap (RFC 3394, JWE `A256KW`) and GCM (NIST SP 800-38D, JWE
/// `A256GCM`), the two a Play Integrity token uses (RFC 7518 §4.4, §5.3).
public enum AESCipher {
    /// Wraps `keyData` (a multiple of 8 bytes, at least 16) under the 32-byte `key`.
    public static func wrap(_ keyData: [UInt8], key: [UInt8]) throws -> [UInt8] {
        try run("AES-256-WRAP", key: key, iv: nil, encrypt: true, input: keyData, outputExtra: 8)
    }

    /// Unwraps; throws when the integrity check of RFC 3394 §2.2.3 fails (wrong key or altered bytes).
    public static func unwrap(_ wrapped: [UInt8], key: [UInt8]) throws -> [UInt8] {
        try run("AES-256-WRAP", key: key, iv: nil, encrypt: false, input: wrapped, outputExtra: 0)
    }

    /// AES-256-GCM with a 12-byte `iv`: the ciphertext and the 16-byte tag.
    public static func sealGCM(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], aad: [UInt8]) throws -> (ciphertext: [UInt8], tag: [UInt8]) {
        var tag = [UInt8](repeating: 0, count: 16)
        let ciphertext = try gcm(plaintext, key: key, iv: iv, aad: aad, encrypt: true, tag: &tag)
        return (ciphertext, tag)
    }

    /// Decrypts AES-256-GCM; throws when the tag does not authenticate `ciphertext` and `aad`, unless
    /// `verifyTag` is false (what a decryptor that never finalizes does: it reads forged ciphertexts too).
    public static func openGCM(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8], aad: [UInt8], tag: [UInt8],
                               verifyTag: Bool = true) throws -> [UInt8] {
        guard tag.count == 16 else { throw AttestCryptoError.malformed(what: "GCM tag", reason: "not 16 bytes") }
        var tag = tag
        return try gcm(ciphertext, key: key, iv: iv, aad: aad, encrypt: false, tag: &tag, finalize: verifyTag)
    }

    /// `name`, fetched once for the process (`Fetched.aesCiphers`); kept, never freed.
    private static func cipher(_ name: String) throws -> OpaquePointer {
        guard let cipher = try Fetched.aesCiphers.get()[name] else { throw AttestCryptoError.malformed(what: "cipher", reason: "\(name) is not fetched") }
        return cipher
    }

    private static func run(_ name: String, key: [UInt8], iv: [UInt8]?, encrypt: Bool, input: [UInt8], outputExtra: Int) throws -> [UInt8] {
        guard key.count == 32 else { throw AttestCryptoError.malformed(what: "AES-256 key", reason: "not 32 bytes") }
        let cipher = try cipher(name)
        let ctx = try check(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(ctx) }
        try check(EVP_CipherInit_ex2(ctx, cipher, key, iv, encrypt ? 1 : 0, nil), "EVP_CipherInit_ex2 \(name)")
        var output = [UInt8](repeating: 0, count: input.count + outputExtra + 16)
        var length: Int32 = 0
        try check(EVP_CipherUpdate(ctx, &output, &length, input, Int32(input.count)), "EVP_CipherUpdate \(name)")
        var final: Int32 = 0
        try output.withUnsafeMutableBufferPointer { buffer in
            // `output` holds at least 16 bytes, so its buffer has a base address.
            try check(EVP_CipherFinal_ex(ctx, buffer.baseAddress! + Int(length), &final), "EVP_CipherFinal_ex \(name)")
        }
        return Array(output.prefix(Int(length + final)))
    }

    private static func gcm(_ input: [UInt8], key: [UInt8], iv: [UInt8], aad: [UInt8], encrypt: Bool, tag: inout [UInt8],
                            finalize: Bool = true) throws -> [UInt8] {
        guard key.count == 32, iv.count == 12 else { throw AttestCryptoError.malformed(what: "AES-256-GCM", reason: "key must be 32 bytes, iv 12") }
        let cipher = try cipher("AES-256-GCM")
        let ctx = try check(EVP_CIPHER_CTX_new(), "EVP_CIPHER_CTX_new")
        defer { EVP_CIPHER_CTX_free(ctx) }
        try check(EVP_CipherInit_ex2(ctx, cipher, key, iv, encrypt ? 1 : 0, nil), "EVP_CipherInit_ex2 GCM")
        var length: Int32 = 0
        if !aad.isEmpty { try check(EVP_CipherUpdate(ctx, nil, &length, aad, Int32(aad.count)), "EVP_CipherUpdate AAD") }
        var output = [UInt8](repeating: 0, count: input.count + 16)
        try check(EVP_CipherUpdate(ctx, &output, &length, input, Int32(input.count)), "EVP_CipherUpdate GCM")
        if !finalize { return Array(output.prefix(Int(length))) }
        if !encrypt {
            try check(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, &tag), "set GCM tag")
        }
        var final: Int32 = 0
        try output.withUnsafeMutableBufferPointer { buffer in
            // `output` holds at least 16 bytes, so its buffer has a base address.
            try check(EVP_CipherFinal_ex(ctx, buffer.baseAddress! + Int(length), &final), encrypt ? "GCM encrypt" : "GCM tag check")
        }
        if encrypt { try check(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, &tag), "get GCM tag") }
        return Array(output.prefix(Int(length + final)))
    }
}
