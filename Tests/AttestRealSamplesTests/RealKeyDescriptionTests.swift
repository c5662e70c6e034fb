import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation
import Testing

/// Every real Android leaf's KeyDescription parses, matches the upstream expected JSON field by field, and
/// re-encodes to the bytes read; the two invalid samples fail with precise errors.
@Suite struct RealKeyDescriptionTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        let pem: String
        let json: String?
        var testDescription: String { pem }
    }

    static func samples() throws -> [Sample] {
        let data = try Data(contentsOf: RealSamples.directory.appendingPathComponent("android/chains.json"))
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return list.compactMap { item in
            guard let path = item["path"] as? String, !path.contains("/invalid/"), item["category"] as? String != "synthetic"
            else { return nil }
            return Sample(pem: path, json: item["expectedJson"] as? String)
        }
    }

    static func extensionValue(_ path: String) throws -> [UInt8] {
        let leaf = try #require(try X509Certificate.parseChain(pem: RealSamples.text(path)).first)
        return try #require(leaf.extension(KeyDescription.extensionOID)?.value, "\(path) has no KeyDescription")
    }

    @Test(arguments: try samples())
    func parsesAndMatchesUpstream(sample: Sample) throws {
        let bytes = try Self.extensionValue(sample.pem)
        let description = try KeyDescription(der: bytes)
        #expect(description.der == bytes, "re-encoding differs")
        guard let json = sample.json else { return }
        let expected = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: RealSamples.directory.appendingPathComponent(json))) as? NSDictionary)
        let ours = UpstreamJSON.keyDescription(description) as NSDictionary
        func same(_ a: Any?, _ b: Any?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return NSDictionary(dictionary: ["value": a]).isEqual(to: ["value": b])
        }
        for key in Set(expected.allKeys as! [String]).union(ours.allKeys as! [String]).sorted() {
            if let list = expected[key] as? NSDictionary, let mine = ours[key] as? NSDictionary {
                // Older expected files predate upstream's areTagsOrdered field.
                for field in Set(list.allKeys as! [String]).union(mine.allKeys as! [String]).sorted()
                where field != "areTagsOrdered" || list[field] != nil {
                    #expect(same(list[field], mine[field]), "\(key).\(field): upstream \(list[field] ?? "-"), ours \(mine[field] ?? "-")")
                }
            } else {
                #expect(same(expected[key], ours[key]), "\(key): upstream \(expected[key] ?? "-"), ours \(ours[key] ?? "-")")
            }
        }
    }

    @Test func versionsCovered() throws {
        var versions = Set<Int64>()
        for sample in try Self.samples() { versions.insert(try KeyDescription(der: Self.extensionValue(sample.pem)).attestationVersion) }
        #expect(versions.isSuperset(of: [2, 3, 300, 400, 500]))
    }

    /// The synthetic PKIX chain carries the OID with a placeholder OCTET STRING, not a KeyDescription.
    @Test func placeholderExtensionIsRejected() throws {
        let bytes = try Self.extensionValue("android/p256_sha384_intermediate.pem")
        #expect(throws: DERError(.unexpectedTag(expected: .sequence, found: .octetString), at: 0, field: "KeyDescription")) {
            try KeyDescription(der: bytes)
        }
    }

    @Test func malformedRootOfTrustIsRejectedPrecisely() throws {
        let bytes = try Self.extensionValue("android/invalid/malformed_rot_device_locked.pem")
        let error = try #require(#expect(throws: DERError.self) { try KeyDescription(der: bytes) })
        #expect(error.code == .invalidBoolean)
        #expect(error.field == "hardwareEnforced.rootOfTrust.deviceLocked")
        #expect(bytes[error.offset] == 0x01 && bytes[error.offset - 2] == 0x01, "offset points at the BOOLEAN's 01 content")
    }

    @Test func tagsOutOfOrderAreRejectedPrecisely() throws {
        let bytes = try Self.extensionValue("android/invalid/tags_not_in_ascending_order.pem")
        let error = try #require(#expect(throws: DERError.self) { try KeyDescription(der: bytes) })
        #expect(error.code == .outOfOrder)
        #expect(error.field == "hardwareEnforced: tag 1 after 2")
        var lenient = KeyDescription.Options()
        lenient.allowUnorderedTags = true
        let parsed = try KeyDescription(der: bytes, options: lenient)
        #expect(!parsed.hardwareEnforced.tagsAscending && parsed.softwareEnforced.tagsAscending)
        #expect(parsed.der == bytes)
    }
}

/// Our model in the shape of android/keyattestation's expected JSON (Gson `KeyDescription`).
enum UpstreamJSON {
    static let securityLevels = ["SOFTWARE", "TRUSTED_ENVIRONMENT", "STRONG_BOX"]
    static let origins = ["GENERATED", "DERIVED", "IMPORTED", "UNKNOWN", "SECURELY_IMPORTED"]
    static let bootStates = ["VERIFIED", "SELF_SIGNED", "UNVERIFIED", "FAILED"]

    static func keyDescription(_ description: KeyDescription) -> [String: Any] {
        [
            "attestationVersion": "\(description.attestationVersion)",
            "attestationSecurityLevel": securityLevels[Int(description.attestationSecurityLevel)],
            "keyMintVersion": "\(description.keyMintVersion)",
            "keyMintSecurityLevel": securityLevels[Int(description.keyMintSecurityLevel)],
            "attestationChallenge": Data(description.attestationChallenge).base64EncodedString(),
            "uniqueId": Data(description.uniqueId).base64EncodedString(),
            "softwareEnforced": list(description.softwareEnforced),
            "hardwareEnforced": list(description.hardwareEnforced),
        ]
    }

    static func list(_ list: AuthorizationList) -> [String: Any] {
        var out: [String: Any] = [:]
        for field in list.fields {
            guard let tag = AuthorizationTag(rawValue: field.tag) else { continue }
            let name: String
            switch tag {
            case .purpose: name = "purposes"
            case .algorithm: name = "algorithms"
            case .blockMode: name = "blockModes"
            case .digest: name = "digests"
            case .padding: name = "paddings"
            case .mgfDigest: name = "rsaOaepMgfDigests"
            case .rollbackResistance, .rollbackResistant: name = "rollbackResistant"
            default: name = "\(tag)"
            }
            switch field.value {
            case .integer(let value) where tag == .origin: out[name] = origins[Int(value)]
            case .integer(let value): out[name] = "\(value)"
            case .integerSet(let values): out[name] = values.map { "\($0)" }
            case .flag: out[name] = true
            case .octets(let bytes) where tag == .moduleHash: out[name] = Data(bytes).base64EncodedString()
            case .octets(let bytes): out[name] = String(decoding: bytes, as: UTF8.self)
            case .rootOfTrust(let root):
                var rootJSON: [String: Any] = [
                    "verifiedBootKey": Data(root.verifiedBootKey).base64EncodedString(),
                    "deviceLocked": root.deviceLocked,
                    "verifiedBootState": bootStates[Int(root.verifiedBootState)],
                ]
                if let hash = root.verifiedBootHash { rootJSON["verifiedBootHash"] = Data(hash).base64EncodedString() }
                out[name] = rootJSON
            case .attestationApplicationId(let id):
                out[name] = [
                    "packages": id.packages.map { ["name": String(decoding: $0.name, as: UTF8.self), "version": "\($0.version)"] },
                    "signatures": id.signatureDigests.map { Data($0).base64EncodedString() },
                ] as [String: Any]
            case .unknown: continue
            }
        }
        if !list.fields.isEmpty { out["areTagsOrdered"] = list.tagsAscending }
        return out
    }
}

/// Google's sample status list reads, and flags the real suspended certificate.
@Suite struct RealStatusListTests {
    @Test func sampleListFlagsTheSuspendedCertificate() throws {
        let list = try AttestationStatusList(json: Data(contentsOf: RealSamples.directory.appendingPathComponent("android/status-sample.json")))
        #expect(list.entries.count == 5)
        #expect(list.entries.values.filter { $0.status == .revoked }.count == 4)
        let suspended = try #require(try X509Certificate.parseChain(pem: RealSamples.text("android/revocation/suspended-cert-cc66e9a9.pem")).first)
        #expect(list.entry(serialNumber: suspended.serialNumber) == .init(status: .suspended, reason: .keyCompromise,
                                                                          comment: "Entry for testing only"))
    }
}
