import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestDER
import AttestForge
import Foundation

/// `striga+http://host:port`: a deployed server with the device-bound passkey import API of seeds/000, driven
/// through the live ceremony. For each passkey-import case it calls `/user/passkey/import/start` and re-forges
/// the case around the challenge and challenge id the server issued, posts `/complete` with the evidence and
/// proof, and for each assertion asks `/wallets/passkey/approval/start` for a challenge, re-forges, and posts
/// `/wallets/transaction/confirm`. 2xx is an accept; a refusal carries the API's `errorCode` and `step` as its
/// status (`100012 NONCE`), compared with the case's. The Authorization header comes from the environment
/// variable `ATTEST_HARNESS_AUTHORIZATION` and is never logged. Ordinary passkey registrations have no documented
/// route, so the two cases that need one are harness errors (exclude them with --filter). Cases run one at a time,
/// each with fresh user ids.
public struct StrigaDriver: AttestationVerifier {
    public let baseURL: URL
    public let seed: UInt64
    public let timeout: TimeInterval
    public let authorization: String

    public init(baseURL: URL, seed: UInt64, timeout: TimeInterval = 10,
                authorization: String = ProcessInfo.processInfo.environment["ATTEST_HARNESS_AUTHORIZATION"] ?? "attest-harness") {
        self.baseURL = baseURL
        self.seed = seed
        self.timeout = timeout
        self.authorization = authorization
    }

    public var name: String { "striga+" + baseURL.absoluteString }
    var client: LiveAPIClient { LiveAPIClient(baseURL: baseURL, timeout: timeout, headers: ["Authorization": authorization]) }

    /// One simulated device and user set per run: its cases share what the server stores.
    public var requiresSerialCases: Bool { true }

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        var forgeSeed = ForgeSeed(seed)
        func step(_ index: Int) throws -> Step {
            guard let forged = try PasskeyImportFamily.cases(parameters: profile.parameters, seed: forgeSeed, only: testCase.id)
                .first(where: { $0.id == testCase.id }), index < forged.steps.count else {
                throw VerifierFailure.contract("striga+http drives the passkey-import family only; \(testCase.id) is not one of its cases")
            }
            return forged.steps[index]
        }
        func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }
        var verdicts: [Verdict] = []
        for index in testCase.steps.indices {
            var current = try step(index)
            // Each case plays fresh users and credential ids: a deployed server keeps every earlier case's passkeys.
            let intendedUser = text(current.inputs[.user])
            if !intendedUser.isEmpty, forgeSeed.textSubstitutions[intendedUser] == nil,
               !forgeSeed.textSubstitutions.values.contains(intendedUser) {
                forgeSeed.textSubstitutions[intendedUser] = UUID().uuidString.lowercased()
                current = try step(index)
            }
            if current.kind == StepKind.passkeyImportComplete, let intended = current.inputs[.credentialId],
               forgeSeed.substitutions[intended] == nil, !forgeSeed.substitutions.values.contains(intended) {
                forgeSeed.substitutions[intended] = secureRandomBytes(intended.count)
                current = try step(index)
            }
            let time = current.time ?? testCase.context.time
            let user = text(current.inputs[.user])
            switch current.kind {
            case StepKind.passkeyImportStart:
                let (status, body) = try await client.post("/user/passkey/import/start", ["userId": user, "platform": text(current.inputs[.platform])], time: time)
                if (200..<300).contains(status), let fields = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
                    if let issued = (fields["challenge"] as? String).flatMap(Base64URL.decode), let intended = current.inputs[.challenge] {
                        forgeSeed.substitutions[intended] = issued
                    }
                    if let issued = fields["challengeId"] as? String { forgeSeed.textSubstitutions[text(current.inputs[.challengeId])] = issued }
                }
                verdicts.append(verdict(status, body))
            case StepKind.passkeyImportComplete:
                let inputs = current.inputs
                let platform = text(inputs[.platform])
                var attestation: [String: Any] = ["type": "APP_ATTEST", "keyId": Data(inputs[.keyId] ?? []).base64EncodedString(),
                                                  "attestation": Data(inputs[.attestationObject] ?? []).base64EncodedString()]
                if let chain = inputs[.certificateChain] {
                    let certificates = (try? DERReader.parseSequence(chain).map { Data($0.serialized).base64EncodedString() }) ?? []
                    attestation = ["type": "ANDROID_KEY_ATTESTATION", "certificateChain": certificates]
                }
                let completion: [String: Any] = [
                    "userId": user, "challengeId": text(inputs[.challengeId]), "platform": platform,
                    "app": [platform == "IOS" ? "bundleId" : "packageName": text(inputs[.app])],
                    "passkey": ["credentialId": Base64URL.encode(inputs[.credentialId] ?? []), "publicKey": Base64URL.encode(inputs[.publicKey] ?? []),
                                "algorithm": Int(text(inputs[.algorithm])) ?? -7, "displayName": "attest-harness"],
                    "attestation": attestation,
                    "proof": ["clientData": Base64URL.encode(inputs[.proofClientData] ?? []),
                              "signature": Base64URL.encode(inputs[.proofSignature] ?? [])],
                ]
                let (status, body) = try await client.post("/user/passkey/import/complete", completion, time: time)
                verdicts.append(verdict(status, body))
            case StepKind.webAuthnAssertion:
                let (status, body) = try await client.post("/wallets/passkey/approval/start", ["userId": user], time: time)
                guard (200..<300).contains(status),
                      let issued = ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["challenge"] as? String,
                      let challenge = Base64URL.decode(issued), let intended = current.inputs[.challenge] else {
                    throw VerifierFailure.contract("approval start answered HTTP \(status) without a challenge")
                }
                forgeSeed.substitutions[intended] = challenge
                current = try step(index)
                let inputs = current.inputs
                var assertion: [String: Any] = [
                    "id": Base64URL.encode(inputs[.credentialId] ?? []), "rawId": Base64URL.encode(inputs[.credentialId] ?? []),
                    "type": "public-key", "authenticatorAttachment": "platform", "clientExtensionResults": [String: String](),
                    "response": ["clientDataJSON": Base64URL.encode(inputs[.clientDataJSON] ?? []),
                                 "authenticatorData": Base64URL.encode(inputs[.authenticatorData] ?? []),
                                 "signature": Base64URL.encode(inputs[.signature] ?? [])],
                ]
                if let keyId = inputs[.appAttestKeyId], let deviceAssertion = inputs[.appAttestAssertion] {
                    assertion["deviceAttestation"] = ["keyId": Data(keyId).base64EncodedString(),
                                                      "assertion": Data(deviceAssertion).base64EncodedString()]
                }
                let (confirmStatus, confirmBody) = try await client.post("/wallets/transaction/confirm", ["userId": user, "passkeyAssertion": assertion], time: time)
                verdicts.append(verdict(confirmStatus, confirmBody))
            default:
                throw VerifierFailure.contract("striga+http cannot send step kind \(current.kind): seeds/000 documents no route for it")
            }
        }
        return verdicts
    }

    /// 2xx accepts; otherwise the API's `errorCode` and `step` (or the HTTP status) are the refusal's status.
    func verdict(_ status: Int, _ body: Data) -> Verdict {
        if (200..<300).contains(status) { return .accept }
        let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        let code = (fields["errorCode"] as? String) ?? (fields["errorCode"] as? Int).map(String.init) ?? String(status)
        let step = (fields["step"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return Verdict(.reject, reason: "HTTP \(status): \((fields["message"] as? String) ?? "")",
                       rule: Self.rules[code], status: step.map { "\(code) \($0)" } ?? code)
    }

    /// The API errors that name one rule (seeds/000); the others (100011, 100012) cover several.
    static let rules: [String: RuleID] = ["100004": .importPasskeyCap, "999998": .importCredentialIdUnique]
}
