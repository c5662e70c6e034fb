import AttestDER

/// `RootOfTrust ::= SEQUENCE { verifiedBootKey OCTET STRING, deviceLocked BOOLEAN,
/// verifiedBootState VerifiedBootState, verifiedBootHash OCTET STRING }`; the hash arrived with version 3, so
/// three or four fields (source.android.com, Key and ID attestation).
public struct RootOfTrust: Hashable, Sendable {
    /// VerifiedBootState ::= ENUMERATED { Verified(0), SelfSigned(1), Unverified(2), Failed(3) }
    public static let verified: Int64 = 0
    public static let selfSigned: Int64 = 1
    public static let unverified: Int64 = 2
    public static let failed: Int64 = 3

    public var verifiedBootKey: [UInt8]
    public var deviceLocked: Bool
    public var verifiedBootState: Int64
    public var verifiedBootHash: [UInt8]?

    public init(verifiedBootKey: [UInt8], deviceLocked: Bool, verifiedBootState: Int64, verifiedBootHash: [UInt8]?) {
        self.verifiedBootKey = verifiedBootKey
        self.deviceLocked = deviceLocked
        self.verifiedBootState = verifiedBootState
        self.verifiedBootHash = verifiedBootHash
    }

    public var element: DERElement {
        .sequence([.octetString(verifiedBootKey), .boolean(deviceLocked), .enumerated(verifiedBootState)]
                  + (verifiedBootHash.map { [.octetString($0)] } ?? []))
    }

    init(_ element: DERElement, field: String, options: KeyDescription.Options) throws {
        var fields = try element.contents(field: field)
        verifiedBootKey = try fields.next("\(field).verifiedBootKey").octetStringValue(field: "\(field).verifiedBootKey")
        deviceLocked = try options.boolean(fields.next("\(field).deviceLocked"), field: "\(field).deviceLocked")
        verifiedBootState = try options.enumerated(fields.next("\(field).verifiedBootState"), field: "\(field).verifiedBootState")
        verifiedBootHash = try fields.next(ifIdentifier: .octetString)?.octetStringValue(field: "\(field).verifiedBootHash")
        try fields.finish()
    }
}
