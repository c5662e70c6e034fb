import AttestCBOR

/// Authenticator data (WebAuthn Level 3 §6.1), shared by WebAuthn and App Attest:
/// `rpIdHash(32) || flags(1) || signCount(4, big-endian) || [attestedCredentialData] || [extensions]`.
public struct AuthenticatorData: Hashable, Sendable {
    /// Flag bits (§6.1): UP 0x01, UV 0x04, BE 0x08, BS 0x10, AT 0x40, ED 0x80.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let backupEligible = Flags(rawValue: 0x08)
        public static let backedUp = Flags(rawValue: 0x10)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// §6.5.1: `aaguid(16) || credentialIdLength(2) || credentialId || credentialPublicKey (COSE_Key)`.
    public struct AttestedCredentialData: Hashable, Sendable {
        public var aaguid: [UInt8]
        public var credentialId: [UInt8]
        /// The COSE_Key exactly as encoded.
        public var credentialPublicKey: [UInt8]

        public init(aaguid: [UInt8], credentialId: [UInt8], credentialPublicKey: [UInt8]) {
            self.aaguid = aaguid
            self.credentialId = credentialId
            self.credentialPublicKey = credentialPublicKey
        }
    }

    public var rpIdHash: [UInt8]
    public var flags: Flags
    public var signCount: UInt32
    public var attestedCredentialData: AttestedCredentialData?
    /// The CBOR extensions map exactly as encoded, when present.
    public var extensions: [UInt8]?

    public init(rpIdHash: [UInt8], flags: Flags, signCount: UInt32,
                attestedCredentialData: AttestedCredentialData? = nil, extensions: [UInt8]? = nil) {
        self.rpIdHash = rpIdHash
        self.flags = flags
        self.signCount = signCount
        self.attestedCredentialData = attestedCredentialData
        self.extensions = extensions
    }

    /// The bytes; attested credential data and extensions are written when present, whatever the flags say,
    /// so that inconsistent flags can be forged.
    public var bytes: [UInt8] {
        var out = rpIdHash + [flags.rawValue] + withUnsafeBytes(of: signCount.bigEndian, Array.init)
        if let data = attestedCredentialData {
            out += data.aaguid + withUnsafeBytes(of: UInt16(data.credentialId.count).bigEndian, Array.init)
            out += data.credentialId + data.credentialPublicKey
        }
        if let extensions { out += extensions }
        return out
    }

    /// Why authenticator data could not be read.
    public enum ParseError: Error, Hashable, Sendable {
        case tooShort(needed: Int, have: Int)
        case credentialPublicKey(CBORDecodingError)
        case extensions(CBORDecodingError)
        case trailingBytes(offset: Int)
    }

    /// Parses authenticator data, honouring AT and ED (§6.1); `ignoreAttestedCredentialFlag` reads the 37-byte
    /// form even when AT is set, as App Attest assertions need (their flags are 0x40 with no credential data);
    /// `allowTrailingBytes` ignores what follows the last structure, as lenient parsers do;
    /// `assumeAttestedCredentialData` reads attested credential data after the first 37 bytes even when AT is clear,
    /// as a registration parser that never looks at AT does.
    public init(parsing bytes: [UInt8], ignoreAttestedCredentialFlag: Bool = false, allowTrailingBytes: Bool = false,
                assumeAttestedCredentialData: Bool = false) throws {
        guard bytes.count >= 37 else { throw ParseError.tooShort(needed: 37, have: bytes.count) }
        rpIdHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if (flags.contains(.attestedCredentialData) || assumeAttestedCredentialData) && !ignoreAttestedCredentialFlag {
            guard bytes.count >= position + 18 else { throw ParseError.tooShort(needed: position + 18, have: bytes.count) }
            let aaguid = Array(bytes[position..<(position + 16)])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard bytes.count >= position + length else {
                throw ParseError.tooShort(needed: position + length, have: bytes.count)
            }
            let credentialId = Array(bytes[position..<(position + length)])
            position += length
            let rest = Array(bytes[position...])
            let used: Int
            do {
                (_, used) = try CBORReader.decodePrefix(rest)
            } catch let error as CBORDecodingError {
                throw ParseError.credentialPublicKey(CBORDecodingError(error.code, at: error.offset + position))
            }
            attestedCredentialData = AttestedCredentialData(aaguid: aaguid, credentialId: credentialId,
                                                            credentialPublicKey: Array(rest.prefix(used)))
            position += used
        } else {
            attestedCredentialData = nil
        }
        if flags.contains(.extensionData) && position < bytes.count {
            let rest = Array(bytes[position...])
            do {
                let (_, used) = try CBORReader.decodePrefix(rest)
                extensions = Array(rest.prefix(used))
                position += used
            } catch let error as CBORDecodingError {
                throw ParseError.extensions(CBORDecodingError(error.code, at: error.offset + position))
            }
        } else {
            extensions = nil
        }
        if position != bytes.count && !allowTrailingBytes {
            throw ParseError.trailingBytes(offset: position)
        }
    }
}
