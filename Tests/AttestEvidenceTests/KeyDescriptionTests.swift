import AttestDER
import AttestEvidence
import Testing

/// KeyDescriptions of every attestation version encode with EXPLICIT tags in ascending order and parse back.
@Suite struct KeyDescriptionTests {
    typealias Field = AuthorizationList.Field

    /// The tags each version introduced (AOSP KeyMint `Tag.aidl` and source.android.com, Key and ID attestation),
    /// cumulatively.
    static func hardwareFields(version: Int64) -> [Field] {
        var fields: [Field] = [
            Field(.purpose, .integerSet([KeyMintValues.purposeSign])), Field(.algorithm, .integer(KeyMintValues.algorithmEC)),
            Field(.keySize, .integer(256)), Field(.digest, .integerSet([4])), Field(.ecCurve, .integer(KeyMintValues.curveP256)),
        ]
        if version >= 3 { fields.append(Field(.rollbackResistance, .flag)) }
        if version >= 4 { fields.append(Field(.earlyBootOnly, .flag)) }
        if version >= 100 { fields.append(Field(.usageCountLimit, .integer(1))) }
        fields += [Field(.userAuthType, .integer(KeyMintValues.authenticatorFingerprint)), Field(.origin, .integer(0))]
        let root = RootOfTrust(verifiedBootKey: [UInt8](repeating: 7, count: 32), deviceLocked: true,
                               verifiedBootState: RootOfTrust.verified,
                               verifiedBootHash: version >= 3 ? [UInt8](repeating: 9, count: 32) : nil)
        fields += [Field(.rootOfTrust, .rootOfTrust(root)), Field(.osVersion, .integer(160000)), Field(.osPatchLevel, .integer(202601))]
        if version >= 2 { fields.append(Field(.attestationIdBrand, .octets(Array("TEST".utf8)))) }
        if version >= 3 { fields += [Field(.vendorPatchLevel, .integer(20260105)), Field(.bootPatchLevel, .integer(20260105))] }
        if version >= 4 { fields.append(Field(.deviceUniqueAttestation, .flag)) }
        if version >= 300 { fields.append(Field(.attestationIdSecondImei, .octets(Array("490154203237518".utf8)))) }
        return fields
    }

    static func softwareFields(version: Int64) -> [Field] {
        let application = AttestationApplicationId(
            packages: [.init(name: Array("dev.attest_harness.example".utf8), version: 7)],
            signatureDigests: [[UInt8](repeating: 0xab, count: 32)])
        var fields = [Field(.creationDateTime, .integer(1_768_478_400_000)),
                      Field(.attestationApplicationId, .attestationApplicationId(application))]
        if version >= 400 { fields.append(Field(.moduleHash, .octets([UInt8](repeating: 0x5a, count: 32)))) }
        return fields
    }

    @Test(arguments: [Int64(1), 2, 3, 4, 100, 200, 300, 400])
    func everyVersionRoundTrips(version: Int64) throws {
        let level = version >= 3 ? KeyDescription.strongBox : KeyDescription.trustedEnvironment
        let keyMintVersion: Int64 = [1: 2, 2: 3, 3: 4, 4: 41][version] ?? version
        let description = KeyDescription(
            attestationVersion: version, attestationSecurityLevel: level, keyMintVersion: keyMintVersion,
            keyMintSecurityLevel: level, attestationChallenge: Array("challenge".utf8),
            softwareEnforced: AuthorizationList(Self.softwareFields(version: version)),
            hardwareEnforced: AuthorizationList(Self.hardwareFields(version: version)))
        let bytes = description.der
        // Strict DER everywhere, since the forged SETs hold one member each.
        _ = try DERReader.parse(bytes)
        let parsed = try KeyDescription(der: bytes)
        #expect(parsed == description)
        #expect(parsed.hardwareEnforced.tagsAscending && parsed.softwareEnforced.tagsAscending)
        #expect(parsed.hardwareEnforced.rootOfTrust?.verifiedBootHash == (version >= 3 ? [UInt8](repeating: 9, count: 32) : nil))
        // [709] is bf 85 45 around an OCTET STRING that holds the AttestationApplicationId.
        let application = try #require(parsed.softwareEnforced.attestationApplicationId)
        let wire = DERElement.explicit(709, .octetString(application.element.serialized)).serialized
        #expect(wire.prefix(3) == [0xbf, 0x85, 0x45])
        #expect(bytes.windows(wire))
    }

    @Test func unknownTagsArePreservedInPlace() throws {
        let unknown = DERElement.explicit(9999, .octetString([1, 2, 3]))
        var fields = Self.hardwareFields(version: 400)
        fields.insert(Field(9999, .unknown(unknown)), at: fields.count - 1)
        let description = KeyDescription(attestationVersion: 400, attestationSecurityLevel: 1, keyMintVersion: 400,
                                         keyMintSecurityLevel: 1, attestationChallenge: [], softwareEnforced: AuthorizationList(),
                                         hardwareEnforced: AuthorizationList(fields))
        var lenient = KeyDescription.Options()
        lenient.allowUnorderedTags = true
        let parsed = try KeyDescription(der: description.der, options: lenient)
        #expect(parsed.der == description.der)
        #expect(parsed.hardwareEnforced.fields.contains { $0.tag == 9999 })
    }

    /// `der` is assembled from its fields' encodings, each authorization list's remembered by value: it is
    /// `element.serialized`, with unknown tags and a BER long-form length inside an unknown field too, and the same
    /// list written into two KeyDescriptions keeps its own bytes in each.
    @Test func derIsTheElementSerialized() throws {
        let longForm = try DERReader.parse([0xbf, 0x87, 0x68, 0x81, 0x03, 0x04, 0x01, 0x07], options: .ber)  // [1000], length 81 03
        #expect(longForm.lengthEncoding == .longForm(octets: 1))
        var fields = Self.hardwareFields(version: 400)
        fields.append(Field(1000, .unknown(longForm)))
        let hardware = AuthorizationList(fields)
        for challenge in [[UInt8](), [1, 2, 3], [UInt8](repeating: 0xab, count: 200)] {
            let description = KeyDescription(attestationVersion: 400, attestationSecurityLevel: 1, keyMintVersion: 400,
                                             keyMintSecurityLevel: 1, attestationChallenge: challenge,
                                             softwareEnforced: AuthorizationList(Self.softwareFields(version: 400)),
                                             hardwareEnforced: hardware)
            #expect(description.der == description.element.serialized)
            #expect(description.der.windows([0xbf, 0x87, 0x68, 0x81, 0x03, 0x04, 0x01, 0x07]))
        }
    }

    @Test func malformedKeyDescriptionsFailPrecisely() throws {
        let good = KeyDescription(attestationVersion: 400, attestationSecurityLevel: 1, keyMintVersion: 400, keyMintSecurityLevel: 1,
                                  attestationChallenge: [1], softwareEnforced: AuthorizationList(),
                                  hardwareEnforced: AuthorizationList(Self.hardwareFields(version: 400)))
        var children = try #require(good.element.children)
        // Seven elements.
        #expect(throws: DERError(.missingElement, at: 0, field: "hardwareEnforced")) {
            try KeyDescription(der: DERElement.sequence(Array(children.dropLast())).serialized)
        }
        // Nine elements.
        #expect(throws: DERError.self) { try KeyDescription(der: DERElement.sequence(children + [.null]).serialized) }
        // INTEGER where ENUMERATED belongs.
        children[1] = .integer(1)
        let swapped = try #require(#expect(throws: DERError.self) { try KeyDescription(der: DERElement.sequence(children).serialized) })
        #expect(swapped.field == "attestationSecurityLevel")
        // An IMPLICIT [702] instead of EXPLICIT.
        let implicitOrigin = AuthorizationList([Field(702, .unknown(.implicit(702, .integer(0))))])
        let implicit = KeyDescription(attestationVersion: 400, attestationSecurityLevel: 1, keyMintVersion: 400,
                                      keyMintSecurityLevel: 1, attestationChallenge: [], softwareEnforced: AuthorizationList(),
                                      hardwareEnforced: implicitOrigin)
        let error = try #require(#expect(throws: DERError.self) { try KeyDescription(der: implicit.der) })
        #expect(error.field == "hardwareEnforced.origin")
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` occurs in this array.
    func windows(_ needle: [UInt8]) -> Bool {
        guard needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
