import AttestDER

/// An X.501 Name as RFC 5280 §4.1.2.4 uses it: `SEQUENCE OF SET OF AttributeTypeAndValue`, one attribute per
/// RDN, in the order given (the order real certificates use is part of their byte layout).
public struct X509Name: Hashable, Sendable {
    /// One `AttributeTypeAndValue`: the type OID and its string value (UTF8String, PrintableString...).
    public struct Attribute: Hashable, Sendable {
        public var type: DERObjectIdentifier
        public var value: DERElement

        public init(_ type: DERObjectIdentifier, _ value: DERElement) {
            self.type = type
            self.value = value
        }

        public static func commonName(_ v: String) -> Attribute { Attribute("2.5.4.3", .utf8String(v)) }
        public static func organizationalUnit(_ v: String) -> Attribute { Attribute("2.5.4.11", .utf8String(v)) }
        public static func organization(_ v: String) -> Attribute { Attribute("2.5.4.10", .utf8String(v)) }
        public static func stateOrProvince(_ v: String) -> Attribute { Attribute("2.5.4.8", .utf8String(v)) }
        public static func locality(_ v: String) -> Attribute { Attribute("2.5.4.7", .utf8String(v)) }
        public static func country(_ v: String) -> Attribute { Attribute("2.5.4.6", .printableString(v)) }
        public static func serialNumber(_ v: String) -> Attribute { Attribute("2.5.4.5", .printableString(v)) }
        public static func title(_ v: String) -> Attribute { Attribute("2.5.4.12", .utf8String(v)) }
    }

    public var attributes: [Attribute]

    public init(_ attributes: [Attribute]) { self.attributes = attributes }

    public var element: DERElement {
        .sequence(attributes.map { .set([.sequence([.oid($0.type), $0.value])]) })
    }

    public var der: [UInt8] { element.serialized }

    /// Reads a Name as written (one attribute per RDN, as every certificate the harness meets has).
    public init(der: [UInt8]) throws {
        var rdns = try DERReader.parse(der).contents(field: "Name")
        var attributes: [Attribute] = []
        while !rdns.remaining.isEmpty {
            var set = try rdns.next().contents(.set, field: "RelativeDistinguishedName")
            while !set.remaining.isEmpty {
                var pair = try set.next().contents(field: "AttributeTypeAndValue")
                attributes.append(Attribute(try pair.next("type").oidValue(field: "type"), try pair.next("value")))
                try pair.finish()
            }
        }
        self.attributes = attributes
    }
}
