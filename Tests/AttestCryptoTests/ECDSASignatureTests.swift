import AttestCrypto
import AttestDER
import Testing

@Suite struct ECDSASignatureTests {
    @Test(arguments: ECCurve.allCases)
    func signaturesAreDeterministicAndVerify(curve: ECCurve) throws {
        let key = try PrivateKey.derive(.ec(curve), seed: KeyTests.seed, label: "signer")
        let message = Array("nonce".utf8)
        let first = try key.sign(message, digest: curve.digest)
        #expect(try key.sign(message, digest: curve.digest) == first)
        #expect(try key.sign(message + [1], digest: curve.digest) != first)
        #expect(key.publicKey.verify(first, for: message, digest: curve.digest))
        #expect(!key.publicKey.verify(first, for: message + [1], digest: curve.digest))
        // The signature is strict DER.
        _ = try DERReader.parse(first)
    }

    /// The lenient reading recovers the same (r, s) from each non-DER form a verifier might tolerate, and from
    /// nothing else: OpenSSL itself refuses every one of those forms.
    @Test func theLenientReadingRecoversEachToleratedFormAndNothingElse() throws {
        let key = try PrivateKey.derive(.ec(.p256), seed: KeyTests.seed, label: "signer")
        let message = Array("nonce".utf8)
        let der = try key.sign(message, digest: .sha256)
        let value = try ECDSASignatureValue(der: der)
        let forms: [String: [UInt8]] = [
            "BER length": [der[0], 0x81] + der[1...],
            "padded r": DERElement.sequence([.primitive(.integer, [0, 0] + value.r), .integer(unsignedBigEndian: value.s)]).serialized,
            "trailing bytes": der + [0, 0],
            "raw r || s": value.raw(curve: .p256),
        ]
        for (name, bytes) in forms {
            #expect(!key.publicKey.verify(bytes, for: message, digest: .sha256), "OpenSSL accepted \(name)")
            #expect(ECDSASignatureValue(lenient: bytes, curve: .p256) == value, "\(name)")
        }
        #expect(ECDSASignatureValue(lenient: der, curve: .p256) == value)
        #expect(ECDSASignatureValue(lenient: [], curve: .p256) == nil)
        #expect(ECDSASignatureValue(lenient: Array(repeating: 0x41, count: 63), curve: .p256) == nil)
    }

    @Test(arguments: ECCurve.allCases)
    func rawAndDERFormsConvert(curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec(curve))
        for index in 0..<20 {
            let message = [UInt8(index)]
            let der = try key.sign(message, digest: curve.digest)
            let signature = try ECDSASignatureValue(der: der)
            #expect(signature.der == der)
            let raw = signature.raw(curve: curve)
            #expect(raw.count == 2 * curve.coordinateSize)
            #expect(try ECDSASignatureValue(raw: raw, curve: curve) == signature)
        }
        #expect(throws: AttestCryptoError.self) { try ECDSASignatureValue(raw: [1, 2, 3], curve: curve) }
    }

    @Test(arguments: ECCurve.allCases)
    func lowAndHighSBothVerify(curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec(curve))
        var sawHigh = false
        var sawLow = false
        for index in 0..<24 {
            let message = Array("message \(index)".utf8)
            let signature = try ECDSASignatureValue(der: key.sign(message, digest: curve.digest))
            if signature.isLowS(curve: curve) { sawLow = true } else { sawHigh = true }
            let low = signature.lowS(curve: curve)
            let high = signature.highS(curve: curve)
            #expect(low.isLowS(curve: curve) && !high.isLowS(curve: curve))
            #expect(low != high && low.r == high.r)
            #expect(key.publicKey.verify(low.der, for: message, digest: curve.digest))
            #expect(key.publicKey.verify(high.der, for: message, digest: curve.digest))
            #expect(high.lowS(curve: curve) == low)
        }
        // OpenSSL emits either form; 24 signatures show both with overwhelming probability.
        #expect(sawHigh && sawLow)
    }

    @Test func malformedDERSignaturesAreRejected() {
        #expect(throws: DERError.self) { try ECDSASignatureValue(der: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        #expect(throws: DERError.self) { try ECDSASignatureValue(der: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0xff]) }
        #expect(throws: DERError.self) {
            try ECDSASignatureValue(der: [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01])
        }
    }
}
