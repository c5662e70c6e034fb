internal import CAttestOpenSSL
import AttestDER

/// The SubjectPublicKeyInfo of an EC or EdDSA key in the one form OpenSSL's encoder writes for a key generated with
/// a named curve: a fixed prefix (the SEQUENCE, the AlgorithmIdentifier and the BIT STRING header) followed by the
/// raw public key (RFC 5480 §2: id-ecPublicKey, the named curve and the uncompressed point `04 || X || Y`; RFC 8410
/// §4: the algorithm OID alone and the raw key), without OpenSSL 3's encoder and decoder, whose lookups cost more
/// than generating a P-256 key.
///
/// Reading (`parse`, `load`): an SPKI in exactly that form is imported into a copy of its curve's parameters key
/// (EC; the point decoded with EC_POINT_oct2point, which refuses a point off the curve, as `d2i_PUBKEY` does) or with
/// `EVP_PKEY_fromdata` (EdDSA); any other bytes, and anything refused there, go to `d2i_PUBKEY`, so what is accepted
/// and refused stays OpenSSL's decision. Writing (`raw`, `spki`) is only for keys this process generated
/// (`PrivateKey.generatedPublicKey`); `KeyTests` checks the bytes against `openssl pkey -pubout`.
enum RawPublicKey {
    /// The algorithms with a fixed prefix: the AlgorithmIdentifier, the prefix it makes and the raw key's length.
    private static let forms: [(algorithm: KeyAlgorithm, identifier: DERElement, prefix: [UInt8], rawLength: Int)] = {
        let identifiers: [(KeyAlgorithm, DERElement, Int)] = ECCurve.allCases.map { curve in
            (.ec(curve), .sequence([.oid("1.2.840.10045.2.1"), .oid(DERObjectIdentifier(stringLiteral: curve.namedCurve))]),
             1 + 2 * curve.coordinateSize)
        } + [(.ed25519, .sequence([.oid("1.3.101.112")]), 32), (.ed448, .sequence([.oid("1.3.101.113")]), 57)]
        return identifiers.map { algorithm, identifier, rawLength in
            let whole = DERElement.sequence([identifier, .bitString([UInt8](repeating: 0, count: rawLength))]).serialized
            return (algorithm, identifier, Array(whole.dropLast(rawLength)), rawLength)
        }
    }()

    /// The AlgorithmIdentifier of an EC or EdDSA key and its raw public key's length (an EdDSA private key has the
    /// same length, RFC 8032 §5.1.5, §5.2.5), or nil for RSA.
    static func form(of algorithm: KeyAlgorithm) -> (identifier: DERElement, rawLength: Int)? {
        forms.first { $0.algorithm == algorithm }.map { ($0.identifier, $0.rawLength) }
    }

    /// The SPKI of `raw` for `algorithm`, or nil for an algorithm without a fixed prefix (RSA).
    static func spki(_ raw: [UInt8], algorithm: KeyAlgorithm) -> [UInt8]? {
        guard let form = forms.first(where: { $0.algorithm == algorithm }), raw.count == form.rawLength else { return nil }
        return form.prefix + raw
    }

    /// The algorithm and raw key of an SPKI in the fixed form, or nil for any other bytes.
    static func parse(_ spki: [UInt8]) -> (algorithm: KeyAlgorithm, raw: [UInt8])? {
        for form in forms where spki.count == form.prefix.count + form.rawLength && spki.starts(with: form.prefix) {
            let raw = Array(spki[form.prefix.count...])
            if form.algorithm.curve != nil && raw[0] != 0x04 { return nil }
            return (form.algorithm, raw)
        }
        return nil
    }

    /// The raw public key of `pkey` in the fixed form, or nil (RSA, or an EC key that keeps a compressed point).
    static func raw(of pkey: OpaquePointer, algorithm: KeyAlgorithm) -> [UInt8]? {
        guard let form = forms.first(where: { $0.algorithm == algorithm }) else { return nil }
        var raw = [UInt8](repeating: 0, count: form.rawLength)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, &raw, raw.count, &length) == 1,
              length == form.rawLength, algorithm.curve == nil || raw[0] == 0x04 else {
            _ = AttestCryptoError.drainQueue()
            return nil
        }
        return raw
    }

    /// A public EVP_PKEY of `raw`; OpenSSL checks an EC point lies on its curve. The caller owns the key.
    /// - Throws: `AttestCryptoError.malformed(what:reason:)` with OpenSSL's reasons when it refuses the key.
    static func load(_ raw: [UInt8], algorithm: KeyAlgorithm, what: String) throws -> OpaquePointer {
        func refused() -> AttestCryptoError {
            .malformed(what: what, reason: AttestCryptoError.drainQueue().joined(separator: "; "))
        }
        // An EC point goes into a copy of its curve's parameters key (`Fetched.ecParameters`): copying the group
        // costs less than building it from the curve's name, which `EVP_PKEY_fromdata` does for every key. Setting
        // the encoded point decodes it with EC_POINT_oct2point, which refuses a point off the curve.
        if let curve = algorithm.curve, let parameters = try? Fetched.ecParameters.get()[curve] {
            guard let key = EVP_PKEY_dup(parameters) else { throw refused() }
            guard EVP_PKEY_set1_encoded_public_key(key, raw, raw.count) == 1 else {
                EVP_PKEY_free(key)
                throw refused()
            }
            return key
        }
        guard let ctx = EVP_PKEY_CTX_new_from_name(try DeterministicRandomness.shared().libraryContext,
                                                   algorithm.openSSLName, nil) else { throw refused() }
        defer { EVP_PKEY_CTX_free(ctx) }
        var group = Array((algorithm.curve?.rawValue ?? "").utf8CString)
        var rawCopy = raw
        var key: OpaquePointer?
        let result = group.withUnsafeMutableBufferPointer { groupName in
            rawCopy.withUnsafeMutableBytes { rawBytes in
                var params: [OSSL_PARAM] = []
                if algorithm.curve != nil {
                    params.append(OSSL_PARAM_construct_utf8_string(ParameterName.groupName, groupName.baseAddress, 0))
                }
                params.append(OSSL_PARAM_construct_octet_string(ParameterName.publicKey, rawBytes.baseAddress, raw.count))
                params.append(OSSL_PARAM_construct_end())
                guard EVP_PKEY_fromdata_init(ctx) == 1 else { return Int32(0) }
                return EVP_PKEY_fromdata(ctx, &key, copenssl_EVP_PKEY_PUBLIC_KEY, &params)
            }
        }
        guard result == 1, let key else {
            if let key { EVP_PKEY_free(key) }
            throw refused()
        }
        return key
    }
}
