import AttestCBOR
import AttestDER

/// A credential public key as a COSE_Key (RFC 9052 §7; key types and parameters RFC 9053 §7, RFC 8230 §4 for
/// RSA): the signature algorithm it is bound to and the key itself.
public struct COSEKey: Hashable, Sendable {
    /// The COSE algorithms WebAuthn relying parties meet (IANA COSE Algorithms registry).
    public enum Algorithm: Int64, Hashable, Sendable, CaseIterable {
        case es256 = -7
        case es384 = -35
        case es512 = -36
        case edDSA = -8
        /// Fully specified EdDSA algorithms (RFC 9864 §2.2): the curve is part of the algorithm.
        case ed25519 = -19
        case ed448 = -53
        case rs256 = -257
        case rs384 = -258
        case rs512 = -259
        /// RSASSA-PSS with SHA-256, SHA-384, SHA-512 (RFC 8230 §2).
        case ps256 = -37
        case ps384 = -38
        case ps512 = -39
        /// RSASSA-PKCS1-v1_5 with SHA-1 (RFC 8812 §2): deprecated, still emitted by old Windows Hello TPMs.
        case rs1 = -65535

        /// The hash the signature is computed with; nil for EdDSA, which signs the message itself.
        public var digest: HashAlgorithm? {
            switch self {
            case .rs1: return .sha1
            case .es256, .rs256, .ps256: return .sha256
            case .es384, .rs384, .ps384: return .sha384
            case .es512, .rs512, .ps512: return .sha512
            case .edDSA, .ed25519, .ed448: return nil
            }
        }

        /// How an RSA signature under this algorithm is padded.
        public var padding: RSAPadding { [.ps256, .ps384, .ps512].contains(self) ? .pss : .pkcs1v15 }

        /// The RSA algorithms (key type 3).
        public static let rsaFamily: [Algorithm] = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512, .rs1]
    }

    /// Why a COSE_Key was refused, naming the parameter (its integer label).
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        case notAMap
        case missing(label: Int64)
        case wrongType(label: Int64)
        case unsupported(label: Int64, value: Int64)
        /// The algorithm does not fit the key type or curve (ES256 on a P-384 key, EdDSA on an EC2 key).
        case algorithmMismatch(algorithm: Int64, keyType: Int64, curve: Int64?)
        /// An EC2 key whose y is the sign bit (a boolean) instead of the coordinate: WebAuthn keys "MUST NOT use the
        /// compressed point form" (WebAuthn L3 §5.8.5).
        case compressedPoint
        /// An EC2 key with coordinates of its curve's size that are no point on the curve (OpenSSL will not load it);
        /// `algorithm` is its COSE alg, for a reader that stores the key unread.
        case pointNotOnCurve(algorithm: Int64)
        case invalidKey(String)

        public var description: String {
            switch self {
            case .notAMap: return "COSE_Key is not a CBOR map"
            case .missing(let label): return "COSE_Key lacks parameter \(label)"
            case .wrongType(let label): return "COSE_Key parameter \(label) has the wrong type"
            case .unsupported(let label, let value): return "COSE_Key parameter \(label) has unsupported value \(value)"
            case .algorithmMismatch(let algorithm, let keyType, let curve):
                return "COSE_Key alg \(algorithm) does not fit kty \(keyType)\(curve.map { " crv \($0)" } ?? "")"
            case .compressedPoint: return "COSE_Key gives its EC2 point compressed (y is a boolean)"
            case .pointNotOnCurve: return "COSE_Key's EC2 point is not on its curve"
            case .invalidKey(let reason): return "COSE_Key is not a valid key: \(reason)"
            }
        }
    }

    /// Key types (RFC 9053 §7): OKP 1, EC2 2, RSA 3.
    static let okp: Int64 = 1, ec2: Int64 = 2, rsa: Int64 = 3
    /// OKP curves (RFC 9053 §7.1): Ed25519 6, Ed448 7.
    static let ed25519: Int64 = 6, ed448: Int64 = 7

    public let algorithm: Algorithm
    public let publicKey: PublicKey

    public init(algorithm: Algorithm, publicKey: PublicKey) {
        self.algorithm = algorithm
        self.publicKey = publicKey
    }

    /// Reads a COSE_Key, checking that its algorithm fits its key type and curve, and that an EC2 point is not
    /// compressed, unless `requireAlgorithmFit` is false (as parsers that trust `alg` blindly and decompress what they
    /// are given behave).
    public init(cbor encoded: [UInt8], requireAlgorithmFit: Bool = true) throws {
        let value: CBORValue
        do { value = try CBORReader.decode(encoded) } catch { throw ParseError.notAMap }
        guard value.mapEntries != nil else { throw ParseError.notAMap }
        func integer(_ label: Int64) throws -> Int64 {
            guard let entry = value[label] else { throw ParseError.missing(label: label) }
            guard let number = entry.intValue else { throw ParseError.wrongType(label: label) }
            return number
        }
        func bytes(_ label: Int64) throws -> [UInt8] {
            guard let entry = value[label] else { throw ParseError.missing(label: label) }
            guard let data = entry.bytesValue else { throw ParseError.wrongType(label: label) }
            return data
        }
        let keyType = try integer(1)
        let algorithmValue = try integer(3)
        guard let algorithm = Algorithm(rawValue: algorithmValue) else {
            throw ParseError.unsupported(label: 3, value: algorithmValue)
        }
        let key: PublicKey
        do {
            switch keyType {
            case Self.ec2:
                let curveValue = try integer(-1)
                guard let curve = ECCurve.allCases.first(where: { $0.coseCurve == curveValue }) else {
                    throw ParseError.unsupported(label: -1, value: curveValue)
                }
                guard curve.coseAlgorithm == algorithmValue || !requireAlgorithmFit && algorithm.digest != nil else {
                    throw ParseError.algorithmMismatch(algorithm: algorithmValue, keyType: keyType, curve: curveValue)
                }
                let x = try bytes(-2)
                if case .bool(let odd)? = value[-3] {
                    guard !requireAlgorithmFit else { throw ParseError.compressedPoint }
                    guard x.count == curve.coordinateSize else {
                        throw ParseError.invalidKey("x is not \(curve.coordinateSize) bytes")
                    }
                    key = try PublicKey(compressedPoint: [odd ? 0x03 : 0x02] + x, curve: curve)
                } else {
                    let y = try bytes(-3)
                    guard x.count == curve.coordinateSize, y.count == curve.coordinateSize else {
                        throw ParseError.invalidKey("coordinates are not \(curve.coordinateSize) bytes")
                    }
                    do { key = try PublicKey(x963: [0x04] + x + y, curve: curve) } catch {
                        throw ParseError.pointNotOnCurve(algorithm: algorithmValue)
                    }
                }
            case Self.rsa:
                guard Algorithm.rsaFamily.contains(algorithm) else {
                    throw ParseError.algorithmMismatch(algorithm: algorithmValue, keyType: keyType, curve: nil)
                }
                key = try PublicKey(rsaModulus: try bytes(-1), exponent: try bytes(-2))
            case Self.okp:
                let curveValue = try integer(-1)
                let fits = algorithm == .edDSA || algorithm == .ed25519 && curveValue == Self.ed25519
                    || algorithm == .ed448 && curveValue == Self.ed448
                guard fits || !requireAlgorithmFit && [.edDSA, .ed25519, .ed448].contains(algorithm) else {
                    throw ParseError.algorithmMismatch(algorithm: algorithmValue, keyType: keyType, curve: curveValue)
                }
                let oid: DERObjectIdentifier
                switch curveValue {
                case Self.ed25519: oid = "1.3.101.112"
                case Self.ed448: oid = "1.3.101.113"
                default: throw ParseError.unsupported(label: -1, value: curveValue)
                }
                key = try PublicKey(spki: DERElement.sequence([.sequence([.oid(oid)]), .bitString(try bytes(-2))]).serialized)
            default:
                throw ParseError.unsupported(label: 1, value: keyType)
            }
        } catch let error as AttestCryptoError {
            throw ParseError.invalidKey("\(error)")
        }
        self.algorithm = algorithm
        self.publicKey = key
    }

    /// The COSE_Key map in CTAP2 canonical order: EC2 `{1, 3, -1, -2, -3}`, RSA `{1, 3, -1 n, -2 e}`, OKP
    /// `{1, 3, -1, -2}`.
    public var cbor: CBORValue {
        get throws {
            let header = [CBORMapEntry(.int(1), .int(0)), CBORMapEntry(.int(3), .int(algorithm.rawValue))]
            switch publicKey.algorithm {
            case .ec:
                return try publicKey.coseKey.mapEntries.map { entries in
                    .map(entries.map { $0.key == .int(3) ? CBORMapEntry(.int(3), .int(algorithm.rawValue)) : $0 })
                } ?? publicKey.coseKey
            case .rsa:
                var fields = try DERReader.parse(try Self.subjectPublicKey(publicKey)).contents(field: "RSAPublicKey")
                let modulus = try fields.next("modulus").unsignedIntegerBytes(field: "modulus")
                let exponent = try fields.next("publicExponent").unsignedIntegerBytes(field: "publicExponent")
                return .map([CBORMapEntry(.int(1), .int(Self.rsa)), header[1],
                             CBORMapEntry(.int(-1), .bytes(modulus)), CBORMapEntry(.int(-2), .bytes(exponent))])
            case .ed25519, .ed448:
                let curve = publicKey.algorithm == .ed25519 ? Self.ed25519 : Self.ed448
                return .map([CBORMapEntry(.int(1), .int(Self.okp)), header[1], CBORMapEntry(.int(-1), .int(curve)),
                             CBORMapEntry(.int(-2), .bytes(try Self.subjectPublicKey(publicKey)))])
            }
        }
    }

    /// The BIT STRING content of the key's SubjectPublicKeyInfo.
    static func subjectPublicKey(_ key: PublicKey) throws -> [UInt8] {
        var fields = try DERReader.parse(key.spki).contents(field: "SubjectPublicKeyInfo")
        _ = try fields.next("algorithm")
        return try fields.next("subjectPublicKey").bitStringValue(field: "subjectPublicKey").bytes
    }

    /// The algorithm a key of this type is normally used with: ECDSA with its curve's hash, RS256, EdDSA.
    public static func algorithm(for key: PublicKey) throws -> Algorithm {
        switch key.algorithm {
        // Every curve's coseAlgorithm is one of Algorithm's cases (ES256, ES384, ES512).
        case .ec(let curve): return Algorithm(rawValue: curve.coseAlgorithm)!
        case .rsa: return .rs256
        case .ed25519, .ed448: return .edDSA
        }
    }

    /// Verifies `signature` over `message` with this key and algorithm.
    public func verify(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        publicKey.verify(signature, for: message, digest: algorithm.digest, padding: algorithm.padding)
    }
}
