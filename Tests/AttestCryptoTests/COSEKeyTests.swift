import AttestCBOR
import AttestCrypto
import Testing

/// COSE_Key reading and writing (RFC 9052 §7, RFC 9053 §7, RFC 8230 §4): round trips for every key type, and
/// each refusal names the parameter.
@Suite struct COSEKeyTests {
    @Test(arguments: [KeyAlgorithm.ec(.p256), .ec(.p384), .ec(.p521), .rsa(bits: 2048), .ed25519, .ed448])
    func roundTripsAndVerifies(algorithm: KeyAlgorithm) throws {
        let key = try PrivateKey.generate(algorithm)
        let cose = try COSEKey(algorithm: try COSEKey.algorithm(for: key.publicKey), publicKey: key.publicKey)
        let encoded = CBORWriter.encode(try cose.cbor)
        let decoded = try COSEKey(cbor: encoded)
        #expect(decoded == cose)
        #expect(try CBORReader.decode(encoded, options: .ctap2Canonical) == (try cose.cbor))
        let message = Array("attest-harness".utf8)
        let signature = try key.sign(message, digest: cose.algorithm.digest)
        #expect(decoded.verify(signature, for: message))
        #expect(!decoded.verify(signature, for: message + [0]))
    }

    /// An EC2 key whose y is a sign bit (RFC 9053 §7.1.1's compressed form): refused as such when the algorithm's fit
    /// is checked, decompressed to the same key otherwise, and an x with no point on the curve is no key at all.
    @Test(arguments: [ECCurve.p256, .p384, .p521])
    func aCompressedPointIsRefusedOrDecompressed(curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec(curve))
        let point = try key.publicKey.x963Point
        let size = curve.coordinateSize
        func compressed(x: [UInt8], odd: Bool) -> [UInt8] {
            CBORWriter.encode(.map([CBORMapEntry(.int(1), .int(2)), CBORMapEntry(.int(3), .int(curve.coseAlgorithm)),
                                    CBORMapEntry(.int(-1), .int(curve.coseCurve)), CBORMapEntry(.int(-2), .bytes(x)),
                                    CBORMapEntry(.int(-3), .bool(odd))]))
        }
        let x = Array(point[1...size]), odd = (point.last ?? 0) & 1 == 1
        #expect(throws: COSEKey.ParseError.compressedPoint) { try COSEKey(cbor: compressed(x: x, odd: odd)) }
        let decompressed = try COSEKey(cbor: compressed(x: x, odd: odd), requireAlgorithmFit: false)
        #expect(decompressed.publicKey.spki == key.publicKey.spki)
        // The other sign bit is the other point with that x: a valid key, not this one.
        #expect(try COSEKey(cbor: compressed(x: x, odd: !odd), requireAlgorithmFit: false).publicKey.spki != key.publicKey.spki)
        // About half of all x have no point; all-0xFF is past the field's prime for these curves.
        #expect(throws: COSEKey.ParseError.self) {
            try COSEKey(cbor: compressed(x: [UInt8](repeating: 0xFF, count: size), odd: false), requireAlgorithmFit: false)
        }
    }

    /// Every RSA algorithm of the COSE registry WebAuthn meets: PS256/384/512 sign with PSS (a PKCS#1 v1.5 signature
    /// does not verify under them, nor a PSS one under RS256), RS1 with SHA-1; each survives a COSE_Key round trip.
    @Test(arguments: COSEKey.Algorithm.rsaFamily)
    func rsaAlgorithmsSignWithTheirPaddingAndHash(algorithm: COSEKey.Algorithm) throws {
        let key = try PrivateKey.generate(.rsa(bits: 2048))
        let decoded = try COSEKey(cbor: CBORWriter.encode(try COSEKey(algorithm: algorithm, publicKey: key.publicKey).cbor))
        #expect(decoded.algorithm == algorithm)
        let message = Array("attest-harness".utf8)
        let signature = try key.sign(message, digest: algorithm.digest, padding: algorithm.padding)
        #expect(decoded.verify(signature, for: message))
        #expect(!decoded.verify(signature, for: message + [0]))
        let otherPadding: RSAPadding = algorithm.padding == .pss ? .pkcs1v15 : .pss
        #expect(!decoded.verify(try key.sign(message, digest: algorithm.digest, padding: otherPadding), for: message))
        #expect((algorithm == .rs1) == (algorithm.digest == .sha1))
        // The hash is bound too: the same padding over another digest does not verify.
        let otherDigest: HashAlgorithm = algorithm.digest == .sha256 ? .sha384 : .sha256
        #expect(!decoded.verify(try key.sign(message, digest: otherDigest, padding: algorithm.padding), for: message))
    }

    @Test func algorithmMustFitTheCurve() throws {
        let key = try PrivateKey.generate(.ec(.p384)).publicKey
        let mislabeled = CBORWriter.encode(try COSEKey(algorithm: .es256, publicKey: key).cbor)
        #expect(throws: COSEKey.ParseError.algorithmMismatch(algorithm: -7, keyType: 2, curve: 2)) { try COSEKey(cbor: mislabeled) }
        #expect(try COSEKey(cbor: mislabeled, requireAlgorithmFit: false).publicKey == key)
    }

    @Test func refusalsNameTheParameter() throws {
        let key = try PrivateKey.generate(.ec(.p256)).publicKey
        guard case .map(let entries) = try COSEKey(algorithm: .es256, publicKey: key).cbor else { Issue.record(); return }
        #expect(throws: COSEKey.ParseError.missing(label: -3)) {
            try COSEKey(cbor: CBORWriter.encode(.map(entries.filter { $0.key != .int(-3) })))
        }
        #expect(throws: COSEKey.ParseError.unsupported(label: 3, value: -999)) {
            try COSEKey(cbor: CBORWriter.encode(.map(entries.map { $0.key == .int(3) ? CBORMapEntry(.int(3), .int(-999)) : $0 })))
        }
        #expect(throws: COSEKey.ParseError.notAMap) { try COSEKey(cbor: [0x01]) }
    }
}
