/// The AuthorizationList tags (AOSP KeyMint `Tag.aidl`; source.android.com, Key and ID attestation): the ASN.1 tag
/// number is the KeyMint tag id without its type bits, every field is EXPLICIT and OPTIONAL, and the SEQUENCE lists
/// them in ascending order.
public enum AuthorizationTag: UInt64, CaseIterable, Sendable {
    case purpose = 1, algorithm = 2, keySize = 3, blockMode = 4, digest = 5, padding = 6, callerNonce = 7
    case minMacLength = 8, ecCurve = 10, mlDsaVariant = 11, rsaPublicExponent = 200, mgfDigest = 203
    case rollbackResistance = 303, earlyBootOnly = 305
    case activeDateTime = 400, originationExpireDateTime = 401, usageExpireDateTime = 402, usageCountLimit = 405
    case userSecureId = 502, noAuthRequired = 503, userAuthType = 504, authTimeout = 505, allowWhileOnBody = 506
    case trustedUserPresenceRequired = 507, trustedConfirmationRequired = 508, unlockedDeviceRequired = 509
    case allApplications = 600, applicationId = 601
    case creationDateTime = 701, origin = 702, rollbackResistant = 703, rootOfTrust = 704, osVersion = 705
    case osPatchLevel = 706, attestationChallenge = 708, attestationApplicationId = 709
    case attestationIdBrand = 710, attestationIdDevice = 711, attestationIdProduct = 712, attestationIdSerial = 713
    case attestationIdImei = 714, attestationIdMeid = 715, attestationIdManufacturer = 716, attestationIdModel = 717
    case vendorPatchLevel = 718, bootPatchLevel = 719, deviceUniqueAttestation = 720, attestationIdSecondImei = 723
    case moduleHash = 724

    /// The ASN.1 type of a tag's value (KeyMint: ENUM/UINT/ULONG/DATE → INTEGER, *_REP → SET OF INTEGER,
    /// BOOL → NULL, BYTES → OCTET STRING).
    public enum Kind: Sendable {
        case integer, integerSet, flag, octets, rootOfTrust, attestationApplicationId
    }

    public var kind: Kind {
        switch self {
        case .purpose, .blockMode, .digest, .padding, .mgfDigest: return .integerSet
        case .callerNonce, .rollbackResistance, .earlyBootOnly, .noAuthRequired, .allowWhileOnBody,
             .trustedUserPresenceRequired, .trustedConfirmationRequired, .unlockedDeviceRequired, .allApplications,
             .rollbackResistant, .deviceUniqueAttestation:
            return .flag
        case .applicationId, .attestationIdBrand, .attestationIdDevice, .attestationIdProduct, .attestationIdSerial,
             .attestationIdImei, .attestationIdMeid, .attestationIdManufacturer, .attestationIdModel,
             .attestationIdSecondImei, .moduleHash:
            return .octets
        case .rootOfTrust: return .rootOfTrust
        case .attestationApplicationId: return .attestationApplicationId
        default: return .integer
        }
    }
}

/// Enumerated values the policies look at (AOSP KeyMint AIDL: `Algorithm`, `EcCurve`, `KeyPurpose`, `KeyOrigin`,
/// `HardwareAuthenticatorType`).
public enum KeyMintValues {
    public static let algorithmRSA: Int64 = 1
    public static let algorithmEC: Int64 = 3
    public static let curveP256: Int64 = 1
    public static let curveP384: Int64 = 2
    public static let purposeSign: Int64 = 2
    public static let purposeVerify: Int64 = 3
    /// ATTEST_KEY (KeyMint 2): 'Usable as an attestation signing key. Keys with this purpose must not have any
    /// other purpose.' (AOSP KeyPurpose.aidl)
    public static let purposeAttestKey: Int64 = 7
    public static let originGenerated: Int64 = 0
    public static let originImported: Int64 = 2
    public static let authenticatorPassword: Int64 = 1
    public static let authenticatorFingerprint: Int64 = 2
    public static let authenticatorAny: Int64 = 0xFFFF_FFFF
}

extension AuthorizationTag {
    /// The tags android/keyattestation's parser models (its KeyMintTag enum in Extension.kt, at 47f970d): it refuses
    /// a KeyDescription with any other tag (UNKNOWN_TAG_NUMBER), the schema tags 7, 8, 303, 305, 502 and 720 it
    /// leaves out on purpose and the legacy 600 and 601 included.
    public static let modelledByAndroidKeyattestation: Set<UInt64> = [
        1, 2, 3, 4, 5, 6, 10, 11, 200, 203, 400, 401, 402, 405, 503, 504, 505, 506, 507, 508, 509,
        701, 702, 703, 704, 705, 706, 709, 710, 711, 712, 713, 714, 715, 716, 717, 718, 719, 723, 724,
    ]
}
