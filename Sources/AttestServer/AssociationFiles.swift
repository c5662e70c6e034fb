import Foundation

/// What `serve --association` publishes under `/.well-known/`: the apple-app-site-association and assetlinks.json of a
/// passkey relying party (Apple, Supporting associated domains; Google, Digital Asset Links), correct or broken in one
/// way each, so that `attest-harness preflight` can be shown to catch every form.
public struct AssociationFiles: Sendable {
    public enum Variant: String, Sendable, CaseIterable {
        case valid
        /// The AASA path answers a redirect (Apple's CDN does not follow it).
        case aasaRedirect = "aasa-redirect"
        /// The AASA file comes as application/octet-stream.
        case aasaContentType = "aasa-content-type"
        /// The AASA file exists only with a .json extension.
        case aasaExtensionOnly = "aasa-extension-only"
        /// webcredentials.apps lacks the app.
        case aasaMissingApp = "aasa-missing-app"
        /// assetlinks.json is not JSON.
        case assetlinksNotJSON = "assetlinks-not-json"
        /// The statement grants handle_all_urls, not get_login_creds.
        case assetlinksRelation = "assetlinks-wrong-relation"
        /// The statement names another package.
        case assetlinksPackage = "assetlinks-other-package"
        /// Only the first signing fingerprint is listed (the Play App Signing trap).
        case assetlinksFingerprint = "assetlinks-missing-fingerprint"
    }

    public let appId: String
    public let packageName: String
    public let fingerprints: [String]
    public let variant: Variant

    public init(appId: String, packageName: String, fingerprints: [String], variant: Variant) {
        self.appId = appId
        self.packageName = packageName
        self.fingerprints = fingerprints
        self.variant = variant
    }

    public static let aasaPath = "/.well-known/apple-app-site-association"
    public static let assetlinksPath = "/.well-known/assetlinks.json"

    /// The answer to GET `path`: status, body, content type and redirect target; nil for other paths.
    func response(_ path: String) -> (status: UInt32, body: Data, contentType: StaticString, location: StaticString?)? {
        func json(_ object: Any) -> Data { (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data() }
        let aasa = json(["webcredentials": ["apps": variant == .aasaMissingApp ? ["ZZZZZ99999.com.example.other"] : [appId]]])
        switch path {
        case Self.aasaPath:
            switch variant {
            case .aasaRedirect: return (301, Data(), "text/plain", "/.well-known/apple-app-site-association.json")
            case .aasaExtensionOnly: return (404, Data(), "text/plain", nil)
            case .aasaContentType: return (200, aasa, "application/octet-stream", nil)
            default: return (200, aasa, "application/json", nil)
            }
        case Self.aasaPath + ".json" where variant == .aasaExtensionOnly || variant == .aasaRedirect:
            return (200, aasa, "application/json", nil)
        case Self.assetlinksPath:
            if variant == .assetlinksNotJSON { return (200, Data("<html>not found</html>".utf8), "application/json", nil) }
            let statement: [String: Any] = [
                "relation": [variant == .assetlinksRelation ? "delegate_permission/common.handle_all_urls"
                                                            : "delegate_permission/common.get_login_creds"],
                "target": ["namespace": "android_app",
                           "package_name": variant == .assetlinksPackage ? "com.example.other" : packageName,
                           "sha256_cert_fingerprints": variant == .assetlinksFingerprint ? Array(fingerprints.prefix(1)) : fingerprints],
            ]
            return (200, json([statement]), "application/json", nil)
        default:
            return nil
        }
    }
}
