import AttestCrypto
import AttestDER

/// The Android key attestation extension 1.3.6.1.4.1.11129.2.1.17 (source.android.com, Key and ID attestation), for
/// attestation versions 1, 2, 3, 4, 100, 200, 300, 400 and later: one encoding, renamed fields.
///
///     KeyDescription ::= SEQUENCE {
///         attestationVersion INTEGER, attestationSecurityLevel SecurityLevel,
///         keyMintVersion INTEGER, keyMintSecurityLevel SecurityLevel,
///         attestationChallenge OCTET STRING, uniqueId OCTET STRING,
///         softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList }
///     SecurityLevel ::= ENUMERATED { Software(0), TrustedEnvironment(1), StrongBox(2) }
public struct KeyDescription: Hashable, Sendable {
    public static let extensionOID: DERObjectIdentifier = "1.3.6.1.4.1.11129.2.1.17"

    public static let software: Int64 = 0
    public static let trustedEnvironment: Int64 = 1
    public static let strongBox: Int64 = 2

    public var attestationVersion: Int64
    public var attestationSecurityLevel: Int64
    public var keyMintVersion: Int64
    public var keyMintSecurityLevel: Int64
    public var attestationChallenge: [UInt8]
    public var uniqueId: [UInt8]
    public var softwareEnforced: AuthorizationList
    public var hardwareEnforced: AuthorizationList

    public init(attestationVersion: Int64, attestationSecurityLevel: Int64, keyMintVersion: Int64,
                keyMintSecurityLevel: Int64, attestationChallenge: [UInt8], uniqueId: [UInt8] = [],
                softwareEnforced: AuthorizationList, hardwareEnforced: AuthorizationList) {
        self.attestationVersion = attestationVersion
        self.attestationSecurityLevel = attestationSecurityLevel
        self.keyMintVersion = keyMintVersion
        self.keyMintSecurityLevel = keyMintSecurityLevel
        self.attestationChallenge = attestationChallenge
        self.uniqueId = uniqueId
        self.softwareEnforced = softwareEnforced
        self.hardwareEnforced = hardwareEnforced
    }

    /// What the parser tolerates: strict DER and ascending tags, with one real-world exception.
    public struct Options: Hashable, Sendable {
        /// Accept AuthorizationList tags out of ascending order (recorded in `tagsAscending`).
        public var allowUnorderedTags = false
        /// Accept an AuthorizationList tag more than once (recorded in `repeatedTags`; lookups read the first).
        public var allowRepeatedTags = false
        /// Ignore elements after the eighth (a schema-lenient parser).
        public var allowExtraElements = false
        /// Read an INTEGER where ENUMERATED belongs (a parser that does not check the universal tag).
        public var allowIntegerForEnumerated = false
        /// Read IMPLICIT-tagged primitive AuthorizationList fields as if they were EXPLICIT.
        public var allowImplicitTags = false
        /// Read a 7-element KeyDescription without uniqueId as one with an empty uniqueId (a parser that takes the
        /// OCTET STRINGs it finds).
        public var allowMissingUniqueId = false
        /// Leniencies of the underlying DER reader. KeyMint writes SET OF INTEGER in insertion order (a real
        /// leaf, allow_while_on_body.pem, has purpose SET {3, 2}), so unsorted SETs are accepted by default and
        /// kept in their order; set `der.allowUnsortedSets = false` to demand DER.
        public var der: DERReader.Options = {
            var options = DERReader.Options.strict
            options.allowUnsortedSets = true
            return options
        }()

        public init() {}
        public static let `default` = Options()

        /// Every leniency on: what a parser that checks nothing beyond the data it needs would read.
        public static let lenient: Options = {
            var options = Options()
            options.allowUnorderedTags = true
            options.allowRepeatedTags = true
            options.allowExtraElements = true
            options.allowIntegerForEnumerated = true
            options.allowImplicitTags = true
            options.allowMissingUniqueId = true
            options.der.allowNonCanonicalBooleans = true
            options.der.allowNonMinimalIntegers = true
            options.der.allowNonMinimalLengths = true
            return options
        }()

        func enumerated(_ element: DERElement, field: String) throws -> Int64 {
            if allowIntegerForEnumerated && element.identifier == .integer { return try element.integerValue(field: field) }
            return try element.integerValue(.enumerated, field: field)
        }

        func boolean(_ element: DERElement, field: String) throws -> Bool {
            if der.allowNonCanonicalBooleans, element.identifier == .boolean, let byte = element.primitiveBytes?.first {
                return byte != 0
            }
            return try element.booleanValue(field: field)
        }
    }

    /// Parses the extension value. Errors carry the byte offset and, where the schema knows it, the field.
    public init(der bytes: [UInt8], options: Options = .default) throws {
        let element: DERElement
        do throws(DERError) {
            element = try DERReader.parse(bytes, options: options.der)
        } catch let structural {
            // Name the field where a typed reading of a leniently parsed tree fails the same way.
            var lenient = DERReader.Options()
            lenient.allowNonCanonicalBooleans = true
            lenient.allowNonMinimalIntegers = true
            lenient.allowUnsortedSets = true
            if let tree = try? DERReader.parse(bytes, options: lenient) {
                do {
                    _ = try KeyDescription(tree, options: options)
                } catch let typed as DERError where typed.code == structural.code && typed.field != nil {
                    throw DERError(structural.code, at: structural.offset, field: typed.field)
                } catch {}
            }
            throw structural
        }
        self = try KeyDescription(element, options: options)
    }

    private init(_ element: DERElement, options: Options) throws {
        var fields = try element.contents(field: "KeyDescription")
        attestationVersion = try fields.next("attestationVersion").integerValue(field: "attestationVersion")
        attestationSecurityLevel = try options.enumerated(fields.next("attestationSecurityLevel"), field: "attestationSecurityLevel")
        keyMintVersion = try fields.next("keyMintVersion").integerValue(field: "keyMintVersion")
        keyMintSecurityLevel = try options.enumerated(fields.next("keyMintSecurityLevel"), field: "keyMintSecurityLevel")
        attestationChallenge = try fields.next("attestationChallenge").octetStringValue(field: "attestationChallenge")
        if options.allowMissingUniqueId {
            uniqueId = try fields.next(ifIdentifier: .octetString)?.octetStringValue(field: "uniqueId") ?? []
        } else {
            uniqueId = try fields.next("uniqueId").octetStringValue(field: "uniqueId")
        }
        softwareEnforced = try AuthorizationList(fields.next("softwareEnforced"), field: "softwareEnforced", options: options)
        hardwareEnforced = try AuthorizationList(fields.next("hardwareEnforced"), field: "hardwareEnforced", options: options)
        if !options.allowExtraElements { try fields.finish() }
    }

    public var element: DERElement {
        .sequence([
            .integer(attestationVersion), .enumerated(attestationSecurityLevel), .integer(keyMintVersion),
            .enumerated(keyMintSecurityLevel), .octetString(attestationChallenge), .octetString(uniqueId),
            softwareEnforced.element, hardwareEnforced.element,
        ])
    }

    /// The DER of `element`, assembled from its fields' encodings (a SEQUENCE's DER is its header and its fields'
    /// DER), with each authorization list's encoding remembered by value: a forge writes the same lists into many
    /// KeyDescriptions that differ in the challenge alone.
    public var der: [UInt8] {
        var body: [UInt8] = []
        for field: DERElement in [.integer(attestationVersion), .enumerated(attestationSecurityLevel), .integer(keyMintVersion),
                                  .enumerated(keyMintSecurityLevel), .octetString(attestationChallenge), .octetString(uniqueId)] {
            body += field.serialized
        }
        for list in [softwareEnforced, hardwareEnforced] {
            body += authorizationListEncodings.value(for: list) { list.element.serialized }
        }
        return DERElement.header(.sequence, contentLength: body.count) + body
    }
}

/// Encoded authorization lists by value, at most 256 (then emptied), shared by every thread.
private let authorizationListEncodings = Memo<AuthorizationList, [UInt8]>(capacity: 256, size: { _, der in 2 * der.count })
