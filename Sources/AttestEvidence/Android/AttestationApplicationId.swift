import AttestDER

/// The value of tag 709, inside its OCTET STRING (source.android.com, Key and ID attestation):
/// `SEQUENCE { packageInfos SET OF SEQUENCE { packageName OCTET STRING, version INTEGER },
/// signatureDigests SET OF OCTET STRING }`.
public struct AttestationApplicationId: Hashable, Sendable {
    public struct Package: Hashable, Sendable {
        public var name: [UInt8]
        public var version: Int64

        public init(name: [UInt8], version: Int64) {
            self.name = name
            self.version = version
        }
    }

    /// In wire order (callers that forge DER pass them sorted).
    public var packages: [Package]
    /// SHA-256 of each APK signing certificate.
    public var signatureDigests: [[UInt8]]

    public init(packages: [Package], signatureDigests: [[UInt8]]) {
        self.packages = packages
        self.signatureDigests = signatureDigests
    }

    public var element: DERElement {
        .sequence([
            .constructed(.set, packages.map { .sequence([.octetString($0.name), .integer($0.version)]) }),
            .constructed(.set, signatureDigests.map { .octetString($0) }),
        ])
    }

    init(der: [UInt8], field: String) throws {
        var fields = try DERReader.parse(der).contents(field: field)
        var packageSet = try fields.next("\(field).packageInfos").contents(.set, field: "\(field).packageInfos")
        var packages: [Package] = []
        while !packageSet.remaining.isEmpty {
            var info = try packageSet.next().contents(field: "\(field).packageInfo")
            let name = try info.next("\(field).packageName").octetStringValue(field: "\(field).packageName")
            let version = try info.next("\(field).version").integerValue(field: "\(field).version")
            try info.finish()
            packages.append(Package(name: name, version: version))
        }
        var digestSet = try fields.next("\(field).signatureDigests").contents(.set, field: "\(field).signatureDigests")
        var digests: [[UInt8]] = []
        while !digestSet.remaining.isEmpty {
            digests.append(try digestSet.next().octetStringValue(field: "\(field).signatureDigest"))
        }
        try fields.finish()
        self.packages = packages
        signatureDigests = digests
    }
}
