import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestForge
import Foundation

/// `civiq+http://host:port`: a deployed server with the Civiq-style API of seeds/001, driven through the live
/// ceremony. For each per-request case it asks `GET /device/challenge` for a real challenge and re-forges the case
/// around it (the seed's substitutions put the server's challenge where the harness's would be), posts
/// `/device/attest` (keeping the session token the server issues for Android), then sends each protected request
/// with its headers. 2xx is an accept, any other status a refusal carrying that status, so a 401 where 403 is
/// documented, or a 500, is a finding. Each request carries `X-Attest-Harness-Time` (the step's time), which a
/// server with a test clock honours and others ignore; lifetime cases need such a server. Cases run one at a time
/// (`run` forces `--jobs 1`): they all play the same device, whose key and counters the server keeps.
public struct CiviqDriver: AttestationVerifier {
    public let baseURL: URL
    public let seed: UInt64
    public let timeout: TimeInterval
    public let responseLimit: Int

    public init(baseURL: URL, seed: UInt64, timeout: TimeInterval = 10, responseLimit: Int = 1 << 20) {
        self.baseURL = baseURL
        self.seed = seed
        self.timeout = timeout
        self.responseLimit = responseLimit
    }

    public var name: String { "civiq+" + baseURL.absoluteString }
    var client: LiveAPIClient { LiveAPIClient(baseURL: baseURL, timeout: timeout) }

    /// One simulated device and user set per run: its cases share what the server stores.
    public var requiresSerialCases: Bool { true }

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        var forgeSeed = ForgeSeed(seed)
        var sessionTokens: [String: String] = [:]
        var verdicts: [Verdict] = []
        for index in testCase.steps.indices {
            guard let forged = try PerRequestFamily.cases(parameters: profile.parameters, seed: forgeSeed, only: testCase.id)
                .first(where: { $0.id == testCase.id }), index < forged.steps.count else {
                throw VerifierFailure.contract("civiq+http drives the per-request family only; \(testCase.id) is not one of its cases")
            }
            let step = forged.steps[index]
            let time = step.time ?? testCase.context.time
            switch step.kind {
            case StepKind.perRequestChallenge:
                let (status, body) = try await client.send("GET", "/device/challenge", body: nil, headers: [:], time: time)
                let issued = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["challenge"] as? String
                if (200..<300).contains(status), let challenge = issued.flatMap(Base64URL.decode), let intended = step.inputs[.challenge] {
                    forgeSeed.substitutions[intended] = challenge
                }
                verdicts.append(verdict(status, body))
            case StepKind.perRequestAttest:
                let platform = String(decoding: step.inputs[.platform] ?? [], as: UTF8.self)
                var fields = ["platform": platform, "challenge": Base64URL.encode(step.inputs[.challenge] ?? [])]
                if platform == "android" {
                    fields["integrity_token"] = String(decoding: step.inputs[.integrityToken] ?? [], as: UTF8.self)
                } else {
                    fields["key_id"] = Data(step.inputs[.keyId] ?? []).base64EncodedString()
                    fields["attestation"] = Data(step.inputs[.attestationObject] ?? []).base64EncodedString()
                }
                let (status, body) = try await client.post("/device/attest", fields, time: time)
                if let token = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["android_token"] as? String {
                    sessionTokens[String(decoding: step.inputs[.sessionToken] ?? [], as: UTF8.self)] = token
                }
                verdicts.append(verdict(status, body))
            case StepKind.perRequestRequest:
                var headers: [String: String] = [:]
                for (key, value) in step.inputs {
                    guard let name = key.headerName else { continue }
                    let text = String(decoding: value, as: UTF8.self)
                    headers[name] = sessionTokens[text] ?? text
                }
                let body = step.inputs[.body] ?? []
                let (status, response) = try await client.send(String(decoding: step.inputs[.method] ?? [], as: UTF8.self),
                                                  String(decoding: step.inputs[.target] ?? [], as: UTF8.self),
                                                  body: body.isEmpty ? nil : Data(body), headers: headers, time: time)
                verdicts.append(verdict(status, response))
            default:
                throw VerifierFailure.contract("civiq+http cannot send step kind \(step.kind)")
            }
        }
        return verdicts
    }

    func verdict(_ status: Int, _ body: Data) -> Verdict {
        if (200..<300).contains(status) { return .accept }
        let excerpt = String(decoding: body.prefix(300), as: UTF8.self)
        // 401 is the account token's, by seeds/001; 403 covers every device rule.
        return Verdict(.reject, reason: "HTTP \(status): \(excerpt)", rule: status == 401 ? .requestAccountToken : nil, status: String(status))
    }
}
