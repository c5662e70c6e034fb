import AttestCatalogue
import AttestConformance
import AttestCrypto
import Foundation
import AttestReference
import AttestEvidence

/// The Civiq-style device-attestation API (seeds/001) in front of the reference verifier, so that the
/// `civiq+http` driver is tested against a real server process: `GET /device/challenge`, `POST /device/attest`,
/// and any other path as a protected request. One state for the whole server, as a deployed one keeps. Its clock is
/// the `X-Attest-Harness-Time` header when present (a test hook for lifetime cases), else the wall clock.
final class CiviqEmulation: @unchecked Sendable {
    static let timeHeader = "x-attest-harness-time"
    static let knownHeaders = ["Authorization", "X-Platform", "X-Apple-App-Attest-Assertion", "X-Apple-App-Attest-Key-ID",
                               "X-Apple-App-Attest-Challenge", "X-Apple-App-Attest-Client-Data", "X-Android-Device-Token"]

    private var session: ReferenceSession
    private let lock = NSLock()

    init(profile: Profile, seed: UInt64) throws {
        guard let context = try PerRequestFamily.cases(parameters: profile.parameters, seed: seed).first?.context else {
            throw HarnessError("the per-request family has no case to take the server's configuration from")
        }
        session = try ReferenceVerifier(profile: profile, name: "civiq emulation").startCase(context)
    }

    func handle(method: String, target: String, headers: [String: String], body: Data) -> (UInt32, Data) {
        let time = headers[Self.timeHeader].flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date()
        func json(_ status: UInt32, _ object: [String: String]) -> (UInt32, Data) {
            (status, (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
        }
        func answer(_ step: VerifierStep, success: [String: String]) -> (UInt32, Data) {
            lock.lock()
            defer { lock.unlock() }
            do {
                let verdict = try session.verify(step)
                if verdict.outcome == .accept { return json(200, success) }
                return json(UInt32(verdict.status ?? "403") ?? 403, ["error": verdict.reason ?? "refused", "rule": verdict.rule?.rawValue ?? ""])
            } catch {
                return json(400, ["error": "\(error)"])
            }
        }
        switch (method, target) {
        case ("GET", "/device/challenge"):
            let challenge = secureRandomBytes(32)
            return answer(VerifierStep(kind: .perRequestChallenge, inputs: [.challenge: challenge], time: time),
                          success: ["challenge": Base64URL.encode(challenge)])
        case ("POST", "/device/attest"):
            guard let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: String],
                  let challenge = fields["challenge"].flatMap(Base64URL.decode) else {
                return json(400, ["error": "the body is not {platform, challenge, ...}"])
            }
            var inputs: [InputKey: [UInt8]] = [.platform: Array((fields["platform"] ?? "").utf8), .challenge: challenge]
            var success = ["status": "ok"]
            if fields["platform"] == "android" {
                let token = Base64URL.encode(secureRandomBytes(24))
                inputs[.integrityToken] = Array((fields["integrity_token"] ?? "").utf8)
                inputs[.sessionToken] = Array(token.utf8)
                success["android_token"] = token
            } else {
                inputs[.keyId] = Data(base64Encoded: fields["key_id"] ?? "").map(Array.init) ?? []
                inputs[.attestationObject] = Data(base64Encoded: fields["attestation"] ?? "").map(Array.init) ?? []
            }
            return answer(VerifierStep(kind: .perRequestAttest, inputs: inputs, time: time), success: success)
        default:
            var inputs: [InputKey: [UInt8]] = [.method: Array(method.utf8), .target: Array(target.utf8), .body: Array(body)]
            for name in Self.knownHeaders {
                if let value = headers[name.lowercased()] { inputs[.header(name)] = Array(value.utf8) }
            }
            return answer(VerifierStep(kind: .perRequestRequest, inputs: inputs, time: time), success: ["status": "ok"])
        }
    }
}
