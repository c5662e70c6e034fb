import AttestEvidence
import Foundation
import Testing

/// The verdict's JSON is byte for byte what Foundation's serializer writes (sorted keys, slashes unescaped), on the
/// forge's plain strings and on strings that take the serializer's own path.
@Suite struct IntegrityVerdictTests {
    static func serializerBytes(_ verdict: IntegrityVerdict) throws -> [UInt8] {
        func object(_ members: [String: Any?]) -> [String: Any] { members.compactMapValues { $0 } }
        let document: [String: Any] = [
            "requestDetails": object(["requestPackageName": verdict.requestPackageName, "nonce": verdict.nonce,
                                      "timestampMillis": verdict.timestampMillis]),
            "appIntegrity": object(["appRecognitionVerdict": verdict.appRecognitionVerdict, "packageName": verdict.packageName,
                                    "certificateSha256Digest": verdict.certificateSha256Digest, "versionCode": verdict.versionCode]),
            "deviceIntegrity": object(["deviceRecognitionVerdict": verdict.deviceRecognitionVerdict]),
            "accountDetails": object(["appLicensingVerdict": verdict.appLicensingVerdict]),
        ]
        return Array(try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    static let verdicts: [IntegrityVerdict] = [
        IntegrityVerdict(requestPackageName: "dev.attest_harness.example", nonce: "q83vEjRWeJA-_w", timestampMillis: "1768478400000",
                         appRecognitionVerdict: IntegrityVerdict.playRecognized, packageName: "dev.attest_harness.example",
                         certificateSha256Digest: ["Xx9PjLsqHXzwq46OKy98OkudTGoLPy4dnIt6b15NPCs"], versionCode: "42",
                         deviceRecognitionVerdict: [IntegrityVerdict.meetsDeviceIntegrity, "MEETS_BASIC_INTEGRITY"],
                         appLicensingVerdict: "LICENSED"),
        IntegrityVerdict(requestPackageName: nil, nonce: nil, timestampMillis: nil, appRecognitionVerdict: nil, packageName: nil,
                         certificateSha256Digest: nil, versionCode: nil, deviceRecognitionVerdict: nil, appLicensingVerdict: nil),
        IntegrityVerdict(requestPackageName: "a/b c", nonce: "", timestampMillis: "0", appRecognitionVerdict: "UNEVALUATED",
                         packageName: nil, certificateSha256Digest: [], versionCode: nil, deviceRecognitionVerdict: [],
                         appLicensingVerdict: nil),
        // The serializer's own path: a quote, a backslash, a control character, non-ASCII.
        IntegrityVerdict(requestPackageName: "quote\"d", nonce: "back\\slash", timestampMillis: "tab\there",
                         appRecognitionVerdict: "é", packageName: "\u{1}", certificateSha256Digest: ["\u{7F}"], versionCode: nil,
                         deviceRecognitionVerdict: ["日本"], appLicensingVerdict: nil),
    ]

    @Test(arguments: verdicts.indices)
    func itIsWhatTheSerializerWrites(index: Int) throws {
        let verdict = Self.verdicts[index]
        #expect(String(decoding: verdict.json, as: UTF8.self) == String(decoding: try Self.serializerBytes(verdict), as: UTF8.self))
        #expect(try IntegrityVerdict(parsing: verdict.json) == verdict || verdict.packageName == nil)
    }
}
