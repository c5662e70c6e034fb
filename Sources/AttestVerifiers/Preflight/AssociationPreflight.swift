import AttestConformance
import AttestHTTP
import Foundation

/// The association pre-flight of a passkey relying party (Apple, Supporting associated domains; Google, Digital Asset
/// Links): the apple-app-site-association and assetlinks.json the rpId domain must publish before any passkey sheet
/// appears. Each check is one finding when it fails; none follows a redirect (Apple's CDN does not).
public struct AssociationPreflight: Sendable {
    /// One check and what it found.
    public struct Check: Hashable, Sendable, Codable {
        public let id: String
        public let passed: Bool
        public let detail: String
    }

    /// `https://<rpId>`, or any origin (a loopback test server).
    public let origin: URL
    /// `TEAMID.bundle`; nil skips the Apple checks.
    public let appId: String?
    /// nil skips the Android checks.
    public let packageName: String?
    /// SHA-256 signing-certificate fingerprints, in any hex spelling.
    public let fingerprints: [String]
    public let timeout: TimeInterval

    public init(origin: URL, appId: String?, packageName: String?, fingerprints: [String], timeout: TimeInterval = 10) {
        self.origin = origin
        self.appId = appId
        self.packageName = packageName
        self.fingerprints = fingerprints
        self.timeout = timeout
    }

    static let getLoginCreds = "delegate_permission/common.get_login_creds"

    public func run() async -> [Check] {
        var checks: [Check] = []
        func check(_ id: String, _ passed: Bool, _ detail: String) { checks.append(Check(id: id, passed: passed, detail: detail)) }
        if let appId {
            let path = "/.well-known/apple-app-site-association"
            let (status, headers, body, failure) = await fetch(path)
            var detail = failure ?? "HTTP \(status)" + (headers["location"].map { ", redirect to \($0)" } ?? "")
            if status != 200, await fetch(path + ".json").0 == 200 { detail += "; the file is served only with a .json extension" }
            check("aasa.status", status == 200, status == 200 ? "200 at \(path), no redirect" : detail)
            if status == 200 {
                let type = headers["content-type"] ?? "none"
                check("aasa.contentType", type.lowercased().hasPrefix("application/json"), "Content-Type \(type)")
                let apps = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])
                    .flatMap { $0["webcredentials"] as? [String: Any] }?["apps"] as? [String]
                check("aasa.webcredentials", apps?.contains(appId) == true,
                      apps.map { "webcredentials.apps is \($0)" + ($0.contains(appId) ? "" : ", without \(appId)") }
                          ?? "no webcredentials.apps array")
            }
        }
        if let packageName {
            let path = "/.well-known/assetlinks.json"
            let (status, headers, body, failure) = await fetch(path)
            check("assetlinks.status", status == 200, failure ?? "HTTP \(status)" + (headers["location"].map { ", redirect to \($0)" } ?? ""))
            guard status == 200 else { return checks }
            let type = headers["content-type"] ?? "none"
            check("assetlinks.contentType", type.lowercased().hasPrefix("application/json"), "Content-Type \(type)")
            guard let statements = (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] else {
                check("assetlinks.json", false, "the file is not a JSON array of statements")
                return checks
            }
            check("assetlinks.json", true, "\(statements.count) statement(s)")
            let targets = statements.compactMap { statement -> [String: Any]? in
                guard (statement["relation"] as? [String])?.contains(Self.getLoginCreds) == true,
                      let target = statement["target"] as? [String: Any], target["namespace"] as? String == "android_app" else { return nil }
                return target
            }
            let ours = targets.filter { $0["package_name"] as? String == packageName }
            check("assetlinks.relation", !ours.isEmpty,
                  ours.isEmpty ? "no statement grants \(Self.getLoginCreds) to android_app \(packageName)"
                               : "\(Self.getLoginCreds) granted to \(packageName)")
            let listed = Set(ours.flatMap { $0["sha256_cert_fingerprints"] as? [String] ?? [] }.map(Self.normalized))
            let missing = fingerprints.map(Self.normalized).filter { !listed.contains($0) }
            if !ours.isEmpty {
                check("assetlinks.fingerprints", missing.isEmpty,
                      missing.isEmpty ? "every signing fingerprint is listed" : "not listed: \(missing.joined(separator: ", "))")
            }
        }
        return checks
    }

    /// Uppercase hex pairs joined by colons, the form assetlinks.json uses.
    public static func normalized(_ fingerprint: String) -> String {
        let digits = fingerprint.uppercased().filter { $0.isHexDigit }
        return stride(from: 0, to: digits.count, by: 2).map { offset -> String in
            let start = digits.index(digits.startIndex, offsetBy: offset)
            return String(digits[start..<digits.index(start, offsetBy: min(2, digits.count - offset))])
        }.joined(separator: ":")
    }

    private func fetch(_ path: String) async -> (Int, [String: String], Data, String?) {
        guard let url = URL(string: path, relativeTo: origin) else { return (0, [:], Data(), "bad URL \(origin)\(path)") }
        do {
            let response = try await HTTPClient(timeout: timeout, responseLimit: 1 << 20).send(HTTPRequest(method: "GET", url: url))
            let headers = Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            return (response.status, headers, Data(response.body), nil)
        } catch {
            return (0, [:], Data(), "\(url.absoluteString): \(error)")
        }
    }
}
