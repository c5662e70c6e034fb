import AttestCrypto

/// The TPM 2.0 structures of a `tpm` attestation statement (WebAuthn L3 §8.3): big-endian fields and TPM2B
/// (16-bit length, then bytes) buffers, as TPM 2.0 Library Part 2 defines them.
public enum TPMStructures {
    /// Why a TPM structure could not be read, naming the field and its byte offset.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        case truncated(field: String, offset: Int)
        case unsupported(field: String, value: UInt32)
        case trailingBytes(offset: Int)

        public var description: String {
            switch self {
            case .truncated(let field, let offset): return "TPM \(field) at offset \(offset) runs past the end"
            case .unsupported(let field, let value): return "TPM \(field) has unsupported value 0x\(String(value, radix: 16))"
            case .trailingBytes(let offset): return "bytes follow the TPM structure at offset \(offset)"
            }
        }
    }

    /// TPM_ALG_ID values (Part 2 §6.3).
    public static let algorithmRSA: UInt16 = 0x0001
    public static let algorithmSHA1: UInt16 = 0x0004
    public static let algorithmSHA256: UInt16 = 0x000B
    public static let algorithmSHA384: UInt16 = 0x000C
    public static let algorithmSHA512: UInt16 = 0x000D
    public static let algorithmECC: UInt16 = 0x0023
    /// The hashes a Name (Part 1 §16) may be computed with, by TPM_ALG_ID: SHA-1 (what RS1 TPMs use) and SHA-2.
    public static let nameDigests: [UInt16: HashAlgorithm] = [algorithmSHA1: .sha1, algorithmSHA256: .sha256,
                                                              algorithmSHA384: .sha384, algorithmSHA512: .sha512]
    /// TPM_ECC_CURVE values (Part 2 §6.4): NIST P-256, P-384, P-521.
    public static let curves: [UInt16: String] = [0x0003: "P-256", 0x0004: "P-384", 0x0005: "P-521"]

    /// TPMT_PUBLIC (Part 2 §12.2.4) for RSA and ECC keys.
    public struct PublicArea: Hashable, Sendable {
        public let type: UInt16
        public let nameAlg: UInt16
        /// ECC: the TPM_ECC_CURVE; nil for RSA.
        public let curve: UInt16?
        /// ECC: the point's X and Y; RSA: the modulus and the exponent (0 means 65537).
        public let unique: [[UInt8]]
        public let rsaExponent: UInt32?

        public init(parsing bytes: [UInt8]) throws {
            var reader = Reader(bytes)
            type = try reader.uint16("type")
            nameAlg = try reader.uint16("nameAlg")
            _ = try reader.uint32("objectAttributes")
            _ = try reader.sized("authPolicy")
            _ = try reader.uint16("parameters.symmetric")
            _ = try reader.uint16("parameters.scheme")
            switch type {
            case TPMStructures.algorithmECC:
                curve = try reader.uint16("parameters.curveID")
                _ = try reader.uint16("parameters.kdf")
                rsaExponent = nil
                unique = [try reader.sized("unique.x"), try reader.sized("unique.y")]
            case TPMStructures.algorithmRSA:
                _ = try reader.uint16("parameters.keyBits")
                rsaExponent = try reader.uint32("parameters.exponent")
                curve = nil
                unique = [try reader.sized("unique.n")]
            default:
                throw ParseError.unsupported(field: "type", value: UInt32(type))
            }
            try reader.finish()
        }
    }

    /// TPMS_ATTEST (Part 2 §10.12.8) of type TPM_ST_ATTEST_CERTIFY.
    public struct Attestation: Hashable, Sendable {
        public static let generatedValue: UInt32 = 0xFF54_4347
        public static let certifyType: UInt16 = 0x8017

        public let magic: UInt32
        public let type: UInt16
        public let extraData: [UInt8]
        /// TPMS_CERTIFY_INFO.name: nameAlg (2 bytes) then the digest of the certified object's TPMT_PUBLIC.
        public let attestedName: [UInt8]

        public init(parsing bytes: [UInt8]) throws {
            var reader = Reader(bytes)
            magic = try reader.uint32("magic")
            type = try reader.uint16("type")
            _ = try reader.sized("qualifiedSigner")
            extraData = try reader.sized("extraData")
            _ = try reader.take(17, "clockInfo")
            _ = try reader.take(8, "firmwareVersion")
            attestedName = try reader.sized("attested.name")
            _ = try reader.sized("attested.qualifiedName")
            try reader.finish()
        }
    }

    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func take(_ count: Int, _ field: String) throws -> [UInt8] {
            guard count <= bytes.count - offset else { throw ParseError.truncated(field: field, offset: offset) }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        mutating func uint16(_ field: String) throws -> UInt16 {
            try take(2, field).reduce(0) { $0 << 8 | UInt16($1) }
        }

        mutating func uint32(_ field: String) throws -> UInt32 {
            try take(4, field).reduce(0) { $0 << 8 | UInt32($1) }
        }

        /// A TPM2B: a 16-bit size, then that many bytes.
        mutating func sized(_ field: String) throws -> [UInt8] {
            let start = offset
            let size = Int(try uint16(field))
            do { return try take(size, field) } catch { throw ParseError.truncated(field: field, offset: start) }
        }

        func finish() throws {
            if offset != bytes.count { throw ParseError.trailingBytes(offset: offset) }
        }
    }
}
