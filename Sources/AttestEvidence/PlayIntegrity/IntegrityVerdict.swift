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

    /// The JSON, nested as Google writes it, keys sorted so that the same verdict always gives the same bytes.
    public var json: [UInt8] {
        func object(_ members: [String: Any?]) -> [String: Any] { members.compactMapValues { $0 } }
        let document: [String: Any] = [
            "requestDetails": object(["requestPackageName": requestPackageName, "nonce": nonce, "timestampMillis": timestampMillis]),
            "appIntegrity": object(["appRecognitionVerdict": appRecognitionVerdict, "packageName": packageName,
                                    "certificateSha256Digest": certificateSha256Digest, "versionCode": versionCode]),
            "deviceIntegrity": object(["deviceRecognitionVerdict": deviceRecognitionVerdict]),
            "accountDetails": object(["appLicensingVerdict": appLicensingVerdict]),
        ]
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
