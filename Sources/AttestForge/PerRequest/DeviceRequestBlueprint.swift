import AttestCrypto
import AttestEvidence
import Foundation

/// A protected API request (docs/protocols/per-request-device-attestation.md §3, §4.3): the request itself, the account
/// token, and the device proof in headers: on iOS an App Attest assertion over the four-line client data
/// `challenge \n METHOD \n path?query \n hex SHA-256(body)`, on Android the session token from /device/attest.
public struct DeviceRequestBlueprint: Sendable {
    public enum Proof: Sendable {
        /// A per-request assertion by the attested key, over client data built for `signedFor` (the request the
        /// app signed; a captured assertion replayed elsewhere was signed for another one).
        case appAttest(AssertionBlueprint, challenge: [UInt8], signedFor: SignedRequest)
        case sessionToken(String)
    }

    /// What the app put in the client data.
    public struct SignedRequest: Sendable {
        public var method: String
        public var target: String
        public var body: [UInt8]
        /// The fourth line; nil means lowercase hex SHA-256 of `body`.
        public var bodyHashLine: String?
    }

    public var method: String
    /// Path plus query, as sent.
    public var target: String
    public var body: [UInt8]
    public var accountToken: String
    public var proof: Proof
    public var time: Date
    /// Header value changes: nil removes the header.
    public var headerOverrides: [String: String?] = [:]

    public init(method: String, target: String, body: [UInt8], accountToken: String, proof: Proof, time: Date) {
        self.method = method
        self.target = target
        self.body = body
        self.accountToken = accountToken
        self.proof = proof
        self.time = time
    }

    /// The client data of docs/protocols/per-request-device-attestation.md §3.2 for a request.
    public static func clientData(challenge: [UInt8], _ signed: SignedRequest) -> [UInt8] {
        let bodyHash = signed.bodyHashLine ?? hex(sha256(signed.body))
        return Array([Base64URL.encode(challenge), signed.method.uppercased(), signed.target, bodyHash].joined(separator: "\n").utf8)
    }

    /// The headers, by name, as the app sends them. iOS also sends the client data it signed as
    /// `X-Apple-App-Attest-Client-Data` (base64), which the Civiq app does not: a conformant server rebuilds the
    /// client data and ignores it; the reference verifier uses it only to name the line that differs.
    public func headers() throws -> [String: String] {
        var headers = ["Authorization": "Bearer \(accountToken)"]
        switch proof {
        case .appAttest(var assertion, let challenge, let signed):
            assertion.clientData = Self.clientData(challenge: challenge, signed)
            let output = try assertion.render()
            headers["X-Platform"] = "ios"
            headers["X-Apple-App-Attest-Assertion"] = Data(output.assertion).base64EncodedString()
            headers["X-Apple-App-Attest-Key-ID"] = Data(output.keyId).base64EncodedString()
            headers["X-Apple-App-Attest-Challenge"] = Base64URL.encode(challenge)
            headers["X-Apple-App-Attest-Client-Data"] = Data(assertion.clientData).base64EncodedString()
        case .sessionToken(let token):
            headers["X-Platform"] = "android"
            headers["X-Android-Device-Token"] = token
        }
        for (name, value) in headerOverrides { headers[name] = value }
        return headers
    }
}
