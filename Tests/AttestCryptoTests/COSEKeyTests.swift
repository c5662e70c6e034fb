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
