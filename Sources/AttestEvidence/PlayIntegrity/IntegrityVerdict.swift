import Foundation

/// The payload of a Play Integrity token (developer.android.com/google/play/integrity/verdicts): requestDetails,
/// appIntegrity, deviceIntegrity and accountDetails. Numbers travel as JSON strings; every member is optional on
/// reading, so that a missing one fails the check that needs it rather than the parse.
public struct IntegrityVerdict: Hashable, Sendable {
    public var requestPackageName: String?
    /// The classic-request nonce: unpadded base64url of the server's challenge.
    public var nonce: String?
    public var timestampMillis: String?
    public var appRecognitionVerdict: String?
    public var packageName: String?
    /// base64url SHA-256 digests of the app's signing certificates.
    public var certificateSha256Digest: [String]?
    public var versionCode: String?
    public var deviceRecognitionVerdict: [String]?
    public var appLicensingVerdict: String?

    public static let playRecognized = "PLAY_RECOGNIZED"
    public static let meetsDeviceIntegrity = "MEETS_DEVICE_INTEGRITY"

    public init(requestPackageName: String?, nonce: String?, timestampMillis: String?, appRecognitionVerdict: String?,
                packageName: String?, certificateSha256Digest: [String]?, versionCode: String?,
                deviceRecognitionVerdict: [String]?, appLicensingVerdict: String?) {
        self.requestPackageName = requestPackageName
        self.nonce = nonce
        self.timestampMillis = timestampMillis
        self.appRecognitionVerdict = appRecognitionVerdict
        self.packageName = packageName
        self.certificateSha256Digest = certificateSha256Digest
        self.versionCode = versionCode
        self.deviceRecognitionVerdict = deviceRecognitionVerdict
        self.appLicensingVerdict = appLicensingVerdict
    }

    /// The JSON, nested as Google writes it, keys sorted so that the same verdict always gives the same bytes: what
    /// `JSONSerialization` writes with `.sortedKeys` and `.withoutEscapingSlashes` (its key order, case-insensitive
    /// and numeric, is plain byte order for these keys). Written here when every string is printable ASCII without
    /// quotes or backslashes (the forge's), since Foundation's serializer cost more than the token's signature;
    /// anything else still goes through it.
    public var json: [UInt8] {
        let members: [(String, [(String, Any?)])] = [
            ("accountDetails", [("appLicensingVerdict", appLicensingVerdict)]),
            ("appIntegrity", [("appRecognitionVerdict", appRecognitionVerdict), ("certificateSha256Digest", certificateSha256Digest),
                              ("packageName", packageName), ("versionCode", versionCode)]),
            ("deviceIntegrity", [("deviceRecognitionVerdict", deviceRecognitionVerdict)]),
            ("requestDetails", [("nonce", nonce), ("requestPackageName", requestPackageName), ("timestampMillis", timestampMillis)]),
        ]
        // Printable ASCII but the quote and the backslash: what JSON writes as it is.
        func plain(_ text: String) -> Bool { text.utf8.allSatisfy { (0x20..<0x7F).contains($0) && $0 != 0x22 && $0 != 0x5C } }
        let strings = members.flatMap(\.1).compactMap(\.1).flatMap { $0 as? [String] ?? [$0 as? String ?? ""] }
        guard strings.allSatisfy(plain) else { return serialized(members) }
        func quoted(_ text: String) -> String { "\"" + text + "\"" }
        func value(_ member: Any) -> String {
            if let list = member as? [String] { return "[" + list.map(quoted).joined(separator: ",") + "]" }
            return quoted(member as? String ?? "")
        }
        let text = "{" + members.map { name, fields in
            quoted(name) + ":{" + fields.compactMap { key, member in member.map { quoted(key) + ":" + value($0) } }.joined(separator: ",") + "}"
        }.joined(separator: ",") + "}"
        return Array(text.utf8)
    }

    /// `members` through Foundation's serializer, for strings outside printable ASCII.
    private func serialized(_ members: [(String, [(String, Any?)])]) -> [UInt8] {
        var document: [String: Any] = [:]
        for (name, fields) in members {
            var object: [String: Any] = [:]
            for (key, member) in fields { if let member { object[key] = member } }
            document[name] = object
        }
        // Strings, arrays of strings and objects of them: always serializable.
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])).map(Array.init) ?? []
    }

    /// Why a payload is not a verdict object.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(parsing bytes: [UInt8]) throws {
        guard let document = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw ParseError(description: "the token payload is not a JSON object")
        }
        func section(_ name: String) -> [String: Any] { document[name] as? [String: Any] ?? [:] }
        let request = section("requestDetails"), app = section("appIntegrity")
        self.init(requestPackageName: request["requestPackageName"] as? String, nonce: request["nonce"] as? String,
                  timestampMillis: request["timestampMillis"] as? String,
                  appRecognitionVerdict: app["appRecognitionVerdict"] as? String, packageName: app["packageName"] as? String,
                  certificateSha256Digest: app["certificateSha256Digest"] as? [String], versionCode: app["versionCode"] as? String,
                  deviceRecognitionVerdict: section("deviceIntegrity")["deviceRecognitionVerdict"] as? [String],
                  appLicensingVerdict: section("accountDetails")["appLicensingVerdict"] as? String)
    }
}
