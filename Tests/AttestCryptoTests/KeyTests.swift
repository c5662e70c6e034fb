import AttestCBOR
import AttestCrypto
import AttestDER
import AttestTestSupport
import Foundation
import Testing

@Suite struct KeyTests {
    static let seed = Array("attest-harness test seed".utf8)
    /// The key of `compressedPointPEM` through `openssl ec -no_public`.
    static let noPublicKeyPEM = """
        -----BEGIN EC PRIVATE KEY-----
        MDECAQEEIIw79mllbyVVhUsEAps89Se+JafZQItVTV9ObP6QSMGPoAoGCCqGSM49
        AwEH
        -----END EC PRIVATE KEY-----
        """
    /// The same key through `openssl ec -param_enc explicit`.
    static let explicitParametersPEM = """
        -----BEGIN EC PRIVATE KEY-----
        MIIBaAIBAQQgjDv2aWVvJVWFSwQCmzz1J74lp9lAi1VNX05s/pBIwY+ggfowgfcC
        AQEwLAYHKoZIzj0BAQIhAP////8AAAABAAAAAAAAAAAAAAAA////////////////
        MFsEIP////8AAAABAAAAAAAAAAAAAAAA///////////////8BCBaxjXYqjqT57Pr
        vVV2mIa8ZR0GsMxTsPY7zjw+J9JgSwMVAMSdNgiG5wSTamZ44ROdJreBn36QBEEE
        axfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpZP40Li/hp/m47n60p8D54W
        K84zV2sxXs7LtkBoN79R9QIhAP////8AAAAA//////////+85vqtpxeehPO5ysL8
        YyVRAgEBoUQDQgAEglkogHx89o7V4Ve5zVzLIVXnYFlWSavvLnxhGTtkOtwZLImD
        bAecdM0ac00/LDXbOAXXOdl78zj4EaanbRNn3A==
        -----END EC PRIVATE KEY-----
        """
    /// `openssl ecparam -name prime256v1 -genkey -noout | openssl ec -conv_form compressed`
    static let compressedPointPEM = """
        -----BEGIN EC PRIVATE KEY-----
        MFcCAQEEIIw79mllbyVVhUsEAps89Se+JafZQItVTV9ObP6QSMGPoAoGCCqGSM49
        AwEHoSQDIgACglkogHx89o7V4Ve5zVzLIVXnYFlWSavvLnxhGTtkOtw=
        -----END EC PRIVATE KEY-----
        """

    @Test(arguments: ECCurve.allCases)
    func derivedKeysAreDeterministic(curve: ECCurve) throws {
        let a = try PrivateKey.derive(.ec(curve), seed: Self.seed, label: "leaf")
        let b = try PrivateKey.derive(.ec(curve), seed: Self.seed, label: "leaf")
        let c = try PrivateKey.derive(.ec(curve), seed: Self.seed, label: "root")
        let d = try PrivateKey.derive(.ec(curve), seed: Array("another seed".utf8), label: "leaf")
        #expect(a.publicKey == b.publicKey)
        #expect(a.pem == b.pem)
        #expect(a.publicKey != c.publicKey && a.publicKey != d.publicKey)
        #expect(a.algorithm == .ec(curve))
    }

    @Test(arguments: ECCurve.allCases)
    func ecExportsHaveTheirStandardShapes(curve: ECCurve) throws {
        let key = try PrivateKey.generate(.ec(curve)).publicKey
        let point = try key.x963Point
        #expect(point.count == 1 + 2 * curve.coordinateSize && point[0] == 0x04)
        // SPKI = SEQUENCE { AlgorithmIdentifier { id-ecPublicKey, namedCurve }, BIT STRING point }.
        var spki = try DERReader.parse(key.spki).contents()
        var algorithm = try spki.next().contents()
        #expect(try algorithm.next().oidValue() == "1.2.840.10045.2.1")
        let (curveOID, spkiLength): (DERObjectIdentifier, Int) = switch curve {
        case .p256: ("1.2.840.10045.3.1.7", 91)
        case .p384: ("1.3.132.0.34", 120)
        case .p521: ("1.3.132.0.35", 158)
        }
        #expect(try algorithm.next().oidValue() == curveOID)
        #expect(try spki.next().bitStringValue().bytes == point)
        #expect(key.spki.count == spkiLength)
        #expect(try PublicKey(x963: point, curve: curve) == key)
        #expect(try PEMBlock.parseAll(key.pem) == [PEMBlock(label: "PUBLIC KEY", der: key.spki)])
        let cose = CBORWriter.encode(try key.coseKey)
        let size = UInt8(curve.coordinateSize)
        // alg -7 is one byte (0x26); -35 and -36 take two (0x38 0x22, 0x38 0x23).
        let header: [UInt8] = switch curve {
        case .p256: [0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, size]
        case .p384: [0xa5, 0x01, 0x02, 0x03, 0x38, 0x22, 0x20, 0x02, 0x21, 0x58, size]
        case .p521: [0xa5, 0x01, 0x02, 0x03, 0x38, 0x23, 0x20, 0x03, 0x21, 0x58, size]
        }
        #expect(Array(cose.prefix(header.count)) == header)
        #expect(try CBORReader.decode(cose, options: .ctap2Canonical)[-2] == .bytes(Array(point[1...curve.coordinateSize])))
    }

    /// `PrivateKey.publicKey` writes the SPKI itself for EC and EdDSA keys: the bytes are OpenSSL's, the key
    /// verifies what the private key signs, and a key loaded with a compressed point keeps that form (it goes
    /// through OpenSSL's encoder).
    @Test(arguments: [KeyAlgorithm.ec(.p256), .ec(.p384), .ec(.p521), .ed25519, .ed448, .rsa(bits: 2048)])
    func publicHalfIsWhatOpenSSLWrites(algorithm: KeyAlgorithm) throws {
        for label in ["a", "b", "c"] {
            let key = try PrivateKey.derive(algorithm, seed: Self.seed, label: label)
            #expect(key.publicKey.spki == (try OpenSSLCommandLine.publicKeyDER(ofPrivateKeyPEM: key.pem)))
            #expect(try PublicKey(spki: key.publicKey.spki) == key.publicKey)
            let message = Array("public half \(label)".utf8)
            let digest: HashAlgorithm? = algorithm.curve?.digest ?? (algorithm == .rsa(bits: 2048) ? .sha256 : nil)
            let signature = try key.sign(message, digest: digest)
            #expect(key.publicKey.verify(signature, for: message, digest: digest))
            // The same key imported from its SPKI (a copy of the curve's parameters key with the point set, for EC).
            let imported = try PublicKey(spki: key.publicKey.spki)
            #expect(imported.verify(signature, for: message, digest: digest))
            #expect(!imported.verify(signature, for: message + [0], digest: digest))
            if algorithm.curve != nil { #expect(try imported.x963Point == key.publicKey.x963Point) }
        }
    }

    /// The encoding the signing randomness is derived from is OpenSSL's own (`openssl pkey -traditional` writes
    /// with i2d_PrivateKey: the ECPrivateKey, or the PKCS#8 of an EdDSA key), including a P-256 scalar whose first
    /// octet is zero.
    @Test(arguments: [KeyAlgorithm.ec(.p256), .ec(.p384), .ec(.p521), .ed25519, .ed448])
    func typeSpecificDERIsOpenSSLs(algorithm: KeyAlgorithm) throws {
        var keys = try ["a", "b"].map { try PrivateKey.derive(algorithm, seed: Self.seed, label: $0) }
        if algorithm == .ec(.p256) {
            // The first derived key whose scalar (after 30 77 02 01 01 04 20) starts with 00.
            let padded = try (0..<4096).lazy.map { try PrivateKey.derive(algorithm, seed: Self.seed, label: "pad \($0)") }
                .first { (try? $0.typeSpecificDER)?[7] == 0 }
            keys.append(try #require(padded))
        }
        for key in keys {
            let arguments = ["pkey", "-traditional", "-outform", "DER"]  // i2d_PrivateKey's bytes
            #expect(try key.typeSpecificDER == (try OpenSSLCommandLine.convert(privateKeyPEM: key.pem, arguments: arguments)))
        }
    }

    /// Keys loaded from PEM are encoded by OpenSSL, which writes back what it read: an ECPrivateKey without its
    /// public key (`openssl ec -no_public`) and one with explicit curve parameters (`openssl ec -param_enc
    /// explicit`) keep those forms in the encoding the signing randomness comes from and in the SPKI.
    @Test(arguments: [Self.noPublicKeyPEM, Self.explicitParametersPEM])
    func loadedKeysAreEncodedAsTheyWereRead(pem: String) throws {
        let key = try PrivateKey(pem: pem)
        // `openssl pkey -traditional -outform DER` writes with i2d_PrivateKey (`openssl ec` puts [1] back).
        let written = try OpenSSLCommandLine.convert(privateKeyPEM: pem, arguments: ["pkey", "-traditional", "-outform", "DER"])
        #expect(try key.typeSpecificDER == written)
        #expect(key.publicKey.spki == (try OpenSSLCommandLine.publicKeyDER(ofPrivateKeyPEM: pem)))
        // The two forms differ from a freshly written key's: 51 octets without [1], the parameters in full.
        #expect(try key.typeSpecificDER.count != 121)
    }

    @Test func compressedPointKeyKeepsItsForm() throws {
        let pem = Self.compressedPointPEM
        let key = try PrivateKey(pem: pem)
        #expect(key.publicKey.spki.count == 59)  // 26 octets of header and algorithm, BIT STRING 00 || 33-octet point
        #expect(key.publicKey.spki == (try OpenSSLCommandLine.publicKeyDER(ofPrivateKeyPEM: pem)))
    }

    @Test func invalidPointsAndKeysAreRejected() throws {
        let point = try PrivateKey.generate(.ec(.p256)).publicKey.x963Point
        var offCurve = point
        offCurve[64] ^= 0x01
        let error = #expect(throws: AttestCryptoError.self) { try PublicKey(x963: offCurve, curve: .p256) }
        #expect(error?.description.contains("point is not on curve") == true)
        #expect(throws: AttestCryptoError.self) { try PublicKey(x963: Array(point.prefix(33)), curve: .p256) }
        #expect(throws: AttestCryptoError.self) { try PublicKey(spki: [0x30, 0x00]) }
        #expect(throws: AttestCryptoError.self) { try PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
    }

    /// An SPKI in the fixed form OpenSSL writes is imported without its decoder, with OpenSSL's answer: a point
    /// off the curve is refused as d2i_PUBKEY refuses it, and other forms still go to d2i_PUBKEY.
    @Test func fixedFormSPKIsReadAsOpenSSLReadsThem() throws {
        let key = try PrivateKey.derive(.ec(.p256), seed: Self.seed, label: "spki").publicKey
        var offCurve = key.spki
        offCurve[offCurve.count - 1] ^= 0x01
        let error = #expect(throws: AttestCryptoError.self) { try PublicKey(spki: offCurve) }
        #expect(error?.description.contains("d2i_PUBKEY") == true)
        // 03 42 01 04...: a non-zero unused-bits octet is not the fixed form, and OpenSSL refuses it.
        var unusedBits = key.spki
        unusedBits[key.spki.count - 66] = 0x01
        #expect(throws: AttestCryptoError.self) { try PublicKey(spki: unusedBits) }
        // Trailing bytes are not the fixed form either.
        #expect(throws: AttestCryptoError.self) { try PublicKey(spki: key.spki + [0x00]) }
        // A compressed point is not the fixed form; OpenSSL reads it and keeps the bytes.
        let compressed = try PrivateKey(pem: Self.compressedPointPEM).publicKey
        #expect(try PublicKey(spki: compressed.spki).spki == compressed.spki)
        #expect(compressed.spki.count == 59)
    }

    @Test func privateKeyPEMRoundTrip() throws {
        let key = try PrivateKey.derive(.ec(.p384), seed: Self.seed, label: "pem")
        let loaded = try PrivateKey(pem: key.pem)
        #expect(loaded.publicKey == key.publicKey && loaded.algorithm == .ec(.p384))
        #expect(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func rsaSignAndVerify() throws {
        let key = try PrivateKey.derive(.rsa(bits: 2048), seed: Self.seed, label: "rsa")
        #expect(key.algorithm == .rsa(bits: 2048))
        #expect(try PrivateKey.derive(.rsa(bits: 2048), seed: Self.seed, label: "rsa").publicKey == key.publicKey)
        let message = Array("PKCS#1 v1.5".utf8)
        let signature = try key.sign(message, digest: .sha256)
        #expect(signature.count == 256)
        #expect(key.publicKey.verify(signature, for: message, digest: .sha256))
        #expect(!key.publicKey.verify(signature, for: message + [0], digest: .sha256))
        #expect(!key.publicKey.verify(signature, for: message, digest: .sha384))
        #expect(throws: AttestCryptoError.self) { try key.publicKey.x963Point }
    }

    /// Signing and verifying copy a context initialised once per key, digest and padding: each (digest, padding) gets
    /// its own, in any order and from several threads at once, and a signature verifies only under its own.
    @Test func contextsAreKeptPerDigestAndPadding() throws {
        let ec = try PrivateKey.derive(.ec(.p384), seed: Self.seed, label: "templates")
        let rsa = try PrivateKey.derive(.rsa(bits: 2048), seed: Self.seed, label: "rsa")
        let p521 = try PrivateKey.derive(.ec(.p521), seed: Self.seed, label: "templates")
        let message = Array("one key, several setups".utf8)
        let setups: [(PrivateKey, HashAlgorithm, RSAPadding)] = [
            (ec, .sha256, .pkcs1v15), (ec, .sha384, .pkcs1v15), (ec, .sha512, .pkcs1v15), (p521, .sha512, .pkcs1v15),
            (rsa, .sha256, .pkcs1v15), (rsa, .sha256, .pss), (rsa, .sha384, .pss),
        ]
        let signatures = try setups.map { key, digest, padding in try key.sign(message, digest: digest, padding: padding) }
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for (index, (key, digest, padding)) in setups.enumerated().shuffledDeterministically(by: thread) {
                // Every setup of a key differs from its others in digest or padding, so only its own signature verifies.
                for (other, (otherKey, _, _)) in setups.enumerated() where otherKey === key {
                    let verifies = key.publicKey.verify(signatures[other], for: message, digest: digest, padding: padding)
                    if verifies != (other == index) { mismatches.add() }
                }
                // The same setup signs the same bytes again (deterministic signing, from its kept context).
                if (try? key.sign(message, digest: digest, padding: padding)) != signatures[index] { mismatches.add() }
            }
        }
        #expect(mismatches.value == 0)
        #expect(!ec.publicKey.verify(signatures[0], for: message, digest: .sha256, padding: .pss))
    }

    /// A key signs and verifies only in its own scheme: EdDSA over the message itself, every other key over a digest,
    /// PSS with RSA only. Any other combination is refused, never OpenSSL's default digest or an ignored padding.
    @Test func signaturesAreInTheKeysOwnScheme() throws {
        let message = Array("scheme".utf8)
        let ed25519 = try PrivateKey.derive(.ed25519, seed: Self.seed, label: "scheme")
        let ed448 = try PrivateKey.derive(.ed448, seed: Self.seed, label: "scheme")
        let p256 = try PrivateKey.derive(.ec(.p256), seed: Self.seed, label: "scheme")
        let rsa = try PrivateKey.derive(.rsa(bits: 2048), seed: Self.seed, label: "rsa")
        for key in [ed25519, ed448] {
            let signature = try key.sign(message, digest: nil)
            #expect(key.publicKey.verify(signature, for: message, digest: nil))
            #expect(!key.publicKey.verify(signature, for: message + [0], digest: nil))
            #expect(!key.publicKey.verify(signature, for: message, digest: .sha256))
            #expect(throws: AttestCryptoError.self) { try key.sign(message, digest: .sha256) }
        }
        for key in [p256, rsa] {
            // Without a digest OpenSSL would sign SHA-256: the same signature must not pass as "no digest".
            let signature = try key.sign(message, digest: .sha256)
            #expect(key.publicKey.verify(signature, for: message, digest: .sha256))
            #expect(!key.publicKey.verify(signature, for: message, digest: nil))
            #expect(throws: AttestCryptoError.self) { try key.sign(message, digest: nil) }
        }
        #expect(throws: AttestCryptoError.self) { try p256.sign(message, digest: .sha256, padding: .pss) }
        #expect(!p256.publicKey.verify(try p256.sign(message, digest: .sha256), for: message, digest: .sha256, padding: .pss))
        let pss = try rsa.sign(message, digest: .sha256, padding: .pss)
        #expect(rsa.publicKey.verify(pss, for: message, digest: .sha256, padding: .pss))
        #expect(!rsa.publicKey.verify(pss, for: message, digest: .sha256))
    }
}


private extension Sequence {
    /// The elements in an order that depends on `seed` only.
    func shuffledDeterministically(by seed: Int) -> [Element] {
        let elements = Array(self)
        guard !elements.isEmpty else { return elements }
        return (0..<elements.count).map { elements[($0 * 5 + seed) % elements.count] }
    }
}
