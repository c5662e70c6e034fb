internal import CAttestOpenSSL

/// OpenSSL alone doing the public-key operations measured rounds counted, timed right after them: the floor measured
/// in the same moments as the work it prices. `openssl speed` runs minutes away from a row, and on a shared
/// machine whose speed drifts by tens of percent within a minute a millisecond row priced at those rates moves its
/// ratio by as much.
///
/// Each kind of operation is done as `openssl speed` does it: one context initialised for the kind, then the
/// operation in a loop on a fixed key (ECDSA and RSA sign and verify a digest-sized buffer with `EVP_PKEY_sign` and
/// `EVP_PKEY_verify`, RSA with PKCS#1 v1.5 and SHA-256; EdDSA signs and verifies a 32-byte message with
/// `EVP_DigestSign` and `EVP_DigestVerify`). EC and EdDSA key generation is a fresh context by name per key, as
/// OpenSSL's own generation. RSA key generation is not probed: its rows time each key's own prime search
/// (`keygen-us`), which varies several-fold between seeds.
/// A row's floor gathered from its rounds: the operations of the first round are done at once (its own floor, for
/// the `.first` row), later rounds' are gathered and done together once 20 ms of measured work has passed and at the
/// end, so the probe's own use of the caches slows at most one round in twenty milliseconds of them.
@MainActor struct GatheredFloor {
    private(set) var seconds = 0.0
    private(set) var firstRound: Double?
    private var pending: [String: Int] = [:]
    private var pendingWork = Duration.zero
    var unprobed = Set<String>()

    mutating func add(_ ops: [String: Int], after work: Duration) {
        if firstRound == nil {
            let first = FloorProbe.seconds(ops, unprobed: &unprobed)
            firstRound = first
            seconds += first
            return
        }
        pending.merge(ops, uniquingKeysWith: +)
        pendingWork += work
        if pendingWork >= .milliseconds(20) { flush() }
    }

    mutating func flush() {
        seconds += FloorProbe.seconds(pending, unprobed: &unprobed)
        pending = [:]
        pendingWork = .zero
    }
}

@MainActor enum FloorProbe {
    /// The fixed key of each algorithm name `KeyAlgorithm.description` gives, made on first use (outside any timing).
    private static var keys: [String: OpaquePointer] = [:]

    /// Seconds OpenSSL takes for `ops`, keyed as `CryptoOperations` counts them (`sign P-256`, `keygen Ed25519`);
    /// `unprobed` collects what this cannot do (RSA key generation, an unknown algorithm).
    static func seconds(_ ops: [String: Int], unprobed: inout Set<String>) -> Double {
        var total = 0.0
        for (operation, count) in ops.sorted(by: { $0.key < $1.key }) where count > 0 {
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] != "keygen-us" else { continue }
            guard let seconds = time(kind: parts[0], algorithm: parts[1], count: count) else {
                unprobed.insert(operation)
                continue
            }
            total += seconds
        }
        return total
    }

    private static func time(kind: String, algorithm: String, count: Int) -> Double? {
        if kind == "keygen" {
            guard let (name, group) = generation(algorithm) else { return nil }
            return Benchmarks.timed { for _ in 0..<count { if let key = generate(name, group: group) { EVP_PKEY_free(key) } } }
        }
        guard kind == "sign" || kind == "verify", let key = key(algorithm) else { return nil }
        if algorithm.hasPrefix("Ed") { return edDSA(kind, key: key, count: count) }
        return digestSigned(kind, key: key, algorithm: algorithm, count: count)
    }

    /// The OpenSSL key type and group of an algorithm this probes, or nil (RSA generation and anything unknown).
    private static func generation(_ algorithm: String) -> (String, String?)? {
        switch algorithm {
        case "P-256", "P-384", "P-521": return ("EC", algorithm)
        case "Ed25519": return ("ED25519", nil)
        case "Ed448": return ("ED448", nil)
        default: return nil
        }
    }

    private static func generate(_ name: String, group: String?, rsaBits: Int32 = 0) -> OpaquePointer? {
        guard let ctx = EVP_PKEY_CTX_new_from_name(nil, name, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(ctx) }
        guard EVP_PKEY_keygen_init(ctx) == 1 else { return nil }
        if let group, EVP_PKEY_CTX_set_group_name(ctx, group) != 1 { return nil }
        if rsaBits > 0, EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, rsaBits) != 1 { return nil }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(ctx, &key) == 1 else { return nil }
        return key
    }

    private static func key(_ algorithm: String) -> OpaquePointer? {
        if let key = keys[algorithm] { return key }
        let made: OpaquePointer?
        if algorithm.hasPrefix("RSA-"), let bits = Int32(algorithm.dropFirst(4)) {
            made = generate("RSA", group: nil, rsaBits: bits)
        } else if let (name, group) = generation(algorithm) {
            made = generate(name, group: group)
        } else {
            made = nil
        }
        keys[algorithm] = made
        return made
    }

    /// ECDSA or RSA over a digest-sized buffer, one context initialised for signing and one for verifying.
    private static func digestSigned(_ kind: String, key: OpaquePointer, algorithm: String, count: Int) -> Double? {
        let digestLength = algorithm == "P-384" ? 48 : algorithm == "P-521" ? 64 : 32
        let digest = [UInt8](repeating: 0x5a, count: digestLength)
        func context(verifying: Bool) -> OpaquePointer? {
            guard let ctx = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else { return nil }
            var ready = (verifying ? EVP_PKEY_verify_init(ctx) : EVP_PKEY_sign_init(ctx)) == 1
            if ready && algorithm.hasPrefix("RSA-") {
                ready = EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) == 1
                    && EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) == 1
            }
            if !ready { EVP_PKEY_CTX_free(ctx) }
            return ready ? ctx : nil
        }
        guard let signer = context(verifying: false) else { return nil }
        defer { EVP_PKEY_CTX_free(signer) }
        guard let verifier = context(verifying: true) else { return nil }
        defer { EVP_PKEY_CTX_free(verifier) }
        return time(kind, count: count, signatureSize: Int(EVP_PKEY_get_size(key)),
                    sign: { EVP_PKEY_sign(signer, &$0, &$1, digest, digest.count) },
                    verify: { EVP_PKEY_verify(verifier, $0, $1, digest, digest.count) })
    }

    /// EdDSA over a 32-byte message, one digest context initialised for signing and one for verifying.
    private static func edDSA(_ kind: String, key: OpaquePointer, count: Int) -> Double? {
        let message = [UInt8](repeating: 0x5a, count: 32)
        guard let signer = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(signer) }
        guard let verifier = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(verifier) }
        guard EVP_DigestSignInit_ex(signer, nil, nil, nil, nil, key, nil) == 1,
              EVP_DigestVerifyInit_ex(verifier, nil, nil, nil, nil, key, nil) == 1 else { return nil }
        return time(kind, count: count, signatureSize: 114,
                    sign: { EVP_DigestSign(signer, &$0, &$1, message, message.count) },
                    verify: { EVP_DigestVerify(verifier, $0, $1, message, message.count) })
    }

    /// `count` signatures with `sign`, or `count` checks with `verify` of one signature `sign` made first (outside
    /// the time); `sign` writes into the buffer and length it is given.
    private static func time(_ kind: String, count: Int, signatureSize: Int,
                             sign: (inout [UInt8], inout Int) -> Int32, verify: ([UInt8], Int) -> Int32) -> Double? {
        var signature = [UInt8](repeating: 0, count: signatureSize)
        var length = signatureSize
        if kind == "sign" {
            return Benchmarks.timed {
                for _ in 0..<count {
                    length = signatureSize
                    _ = sign(&signature, &length)
                }
            }
        }
        guard sign(&signature, &length) == 1 else { return nil }
        return Benchmarks.timed { for _ in 0..<count { _ = verify(signature, length) } }
    }
}
