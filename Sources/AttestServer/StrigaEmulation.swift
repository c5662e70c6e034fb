import AttestCatalogue
import AttestConformance
import AttestCrypto
import Foundation
import AttestReference
import AttestEvidence

/// The device-bound passkey import API of seeds/000 in front of the reference verifier, so that the
/// `striga+http` driver is tested against a real server process: `POST /user/passkey/import/start` and
/// `/complete`, `POST /wallets/passkey/approval/start` and `/wallets/transaction/confirm` for assertions by the
/// imported key. Requests need an `Authorization` header; refusals answer HTTP 400 (401 for assertions) with
/// `{"errorCode", "step", "message"}`. Its clock is `X-Attest-Harness-Time` when present.
final class StrigaEmulation: @unchecked Sendable {
    private var session: ReferenceSession
    private let rpId: String
    private let lock = NSLock()
    /// Approval challenges by user, forgotten after the import challenge lifetime.
    private var approvalChallenges = ExpiringStore<[UInt8]>(lifetime: PasskeyImportFormat.challengeLifetime)

    init(profile: Profile, seed: UInt64) throws {
        guard let context = try PasskeyImportFamily.cases(parameters: profile.parameters, seed: seed).first?.context else {
            throw HarnessError("the passkey-import family has no case to take the server's configuration from")
        }
        rpId = context.parameters["rpId"] ?? ""
        session = try ReferenceVerifier(profile: profile, name: "striga emulation").startCase(context)
    }

    func handle(method: String, target: String, headers: [String: String], body: Data) -> (UInt32, Data) {
        let time = headers[CiviqEmulation.timeHeader].flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date()
        func json(_ status: UInt32, _ object: [String: Any]) -> (UInt32, Data) {
            (status, (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
        }
        guard headers["authorization"].map({ !$0.isEmpty }) == true else { return json(401, ["errorCode": "401", "message": "no Authorization"]) }
        guard method == "POST", let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let user = fields["userId"] as? String else { return json(400, ["errorCode": "999995", "message": "not a JSON body with userId"]) }
        func text(_ value: Any?) -> [UInt8] { Array(((value as? String) ?? "").utf8) }
        func answer(_ step: VerifierStep, failure: UInt32, success: [String: Any]) -> (UInt32, Data) {
            lock.lock()
            defer { lock.unlock() }
            do {
                let verdict = try session.verify(step)
                if verdict.outcome == .accept { return json(200, success) }
                let parts = (verdict.status ?? "\(failure)").split(separator: " ", maxSplits: 1).map(String.init)
                return json(failure, ["errorCode": parts[0], "step": parts.count > 1 ? parts[1] : "", "message": verdict.reason ?? ""])
            } catch {
                return json(400, ["errorCode": "999995", "message": "\(error)"])
            }
        }
        switch target {
        case "/user/passkey/import/start":
            let challenge = secureRandomBytes(32), challengeId = UUID().uuidString.lowercased()
            return answer(VerifierStep(kind: .passkeyImportStart, inputs: [
                .user: Array(user.utf8), .platform: text(fields["platform"]), .challenge: challenge, .challengeId: Array(challengeId.utf8),
            ], time: time), failure: 400, success: ["challengeId": challengeId, "challenge": Base64URL.encode(challenge), "relyingPartyId": rpId,
                                                    "expiresAt": ISO8601DateFormatter().string(from: time + 600)])
        case "/user/passkey/import/complete":
            let passkey = fields["passkey"] as? [String: Any] ?? [:], attestation = fields["attestation"] as? [String: Any] ?? [:]
            let proof = fields["proof"] as? [String: Any] ?? [:], app = fields["app"] as? [String: Any] ?? [:]
            func decoded(_ value: Any?) -> [UInt8] { (value as? String).flatMap(Base64URL.decode) ?? [] }
            func standard(_ value: Any?) -> [UInt8] { (value as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? [] }
            var inputs: [InputKey: [UInt8]] = [
                .user: Array(user.utf8), .challengeId: text(fields["challengeId"]), .platform: text(fields["platform"]),
                .app: text(app["bundleId"] ?? app["packageName"]), .credentialId: decoded(passkey["credentialId"]),
                .publicKey: decoded(passkey["publicKey"]), .algorithm: Array("\(passkey["algorithm"] ?? -7)".utf8),
                .proofClientData: decoded(proof["clientData"]), .proofSignature: decoded(proof["signature"]),
            ]
            if let chain = attestation["certificateChain"] as? [String] {
                inputs[.certificateChain] = chain.flatMap { Data(base64Encoded: $0).map(Array.init) ?? [] }
            } else {
                inputs[.keyId] = standard(attestation["keyId"])
                inputs[.attestationObject] = standard(attestation["attestation"])
            }
            return answer(VerifierStep(kind: .passkeyImportComplete, inputs: inputs, time: time), failure: 400,
                          success: ["credential": ["credentialId": passkey["credentialId"] ?? "", "relyingPartyId": rpId]])
        case "/wallets/passkey/approval/start":
            let challenge = secureRandomBytes(32)
            lock.lock()
            approvalChallenges.store(challenge, for: user, at: time)
            lock.unlock()
            return json(200, ["challenge": Base64URL.encode(challenge)])
        case "/wallets/transaction/confirm":
            let assertion = fields["passkeyAssertion"] as? [String: Any] ?? [:], response = assertion["response"] as? [String: Any] ?? [:]
            lock.lock()
            let challenge = approvalChallenges.remove(user) ?? []
            lock.unlock()
            var inputs: [InputKey: [UInt8]] = [
                .credentialId: (assertion["rawId"] as? String).flatMap(Base64URL.decode) ?? [], .user: Array(user.utf8), .challenge: challenge,
                .clientDataJSON: (response["clientDataJSON"] as? String).flatMap(Base64URL.decode) ?? [],
                .authenticatorData: (response["authenticatorData"] as? String).flatMap(Base64URL.decode) ?? [],
                .signature: (response["signature"] as? String).flatMap(Base64URL.decode) ?? [],
            ]
            if let device = assertion["deviceAttestation"] as? [String: Any] {
                inputs[.appAttestKeyId] = (device["keyId"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? []
                inputs[.appAttestAssertion] = (device["assertion"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? []
            }
            return answer(VerifierStep(kind: .webAuthnAssertion, inputs: inputs, time: time), failure: 401, success: ["status": "confirmed"])
        default:
            return json(404, ["errorCode": "404", "message": "no route \(method) \(target)"])
        }
    }
}
