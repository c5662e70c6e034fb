import AttestCatalogue
import AttestConformance
import AttestCrypto
import Foundation
import AttestReference
import AttestEvidence

/// The FIDO2 server conformance API (`/attestation/options`, `/attestation/result`, `/assertion/options`,
/// `/assertion/result`, each answering a ServerResponse `{status: ok|failed, errorMessage}`) in front of the
/// reference verifier, so that the `fido+http` driver is tested against a real server process. A result is
/// matched to its options by the challenge in its clientDataJSON, as a server without sessions does. Its clock is
/// `X-Attest-Harness-Time` when present.
final class FidoEmulation: @unchecked Sendable {
    private struct Pending {
        let user: [UInt8]
        let registration: Bool
    }

    private var session: ReferenceSession
    private let lock = NSLock()
    /// Users by name and pending options by challenge, forgotten after ten minutes.
    private var users = ExpiringStore<[UInt8]>(lifetime: 600)
    private var pending = ExpiringStore<Pending>(lifetime: 600)

    init(profile: Profile, seed: UInt64) throws {
        guard let context = try WebAuthnFamily.cases(parameters: profile.parameters, seed: seed).first?.context else {
            throw HarnessError("the webauthn family has no case to take the server's configuration from")
        }
        session = try ReferenceVerifier(profile: profile, name: "fido emulation").startCase(context)
    }

    func handle(method: String, target: String, headers: [String: String], body: Data) -> (UInt32, Data) {
        let time = headers[CiviqEmulation.timeHeader].flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date()
        func json(_ status: UInt32, _ object: [String: Any]) -> (UInt32, Data) {
            (status, (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
        }
        func failed(_ message: String) -> (UInt32, Data) { json(400, ["status": "failed", "errorMessage": message]) }
        guard method == "POST", let fields = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            return failed("expected a JSON POST")
        }
        lock.lock()
        defer { lock.unlock() }
        switch target {
        case "/attestation/options", "/assertion/options":
            guard let username = fields["username"] as? String else { return failed("missing username") }
            let registration = target == "/attestation/options"
            if registration, users[username] == nil { users.store(secureRandomBytes(16), for: username, at: time) }
            guard let user = users[username] else { return failed("unknown user \(username)") }
            let challenge = secureRandomBytes(32)
            pending.store(Pending(user: user, registration: registration), for: Base64URL.encode(challenge), at: time)
            return json(200, ["status": "ok", "errorMessage": "", "challenge": Base64URL.encode(challenge),
                              "user": ["id": Base64URL.encode(user), "name": username, "displayName": username]])
        case "/attestation/result", "/assertion/result":
            let response = fields["response"] as? [String: Any] ?? [:]
            func decoded(_ key: String) -> [UInt8]? { (response[key] as? String).flatMap(Base64URL.decode) }
            guard let clientDataJSON = decoded("clientDataJSON"),
                  let challengeText = (try? JSONSerialization.jsonObject(with: Data(clientDataJSON)) as? [String: Any])?["challenge"] as? String,
                  let options = pending.remove(challengeText), let challenge = Base64URL.decode(challengeText),
                  options.registration == (target == "/attestation/result") else {
                return failed("no pending options for this response's challenge")
            }
            let step: VerifierStep
            if options.registration {
                step = VerifierStep(kind: .webAuthnRegistration, inputs: [
                    .clientDataJSON: clientDataJSON, .attestationObject: decoded("attestationObject") ?? [], .challenge: challenge,
                    .user: options.user,
                ], time: time)
            } else {
                var inputs: [InputKey: [UInt8]] = [
                    .credentialId: (fields["rawId"] as? String).flatMap(Base64URL.decode) ?? [], .clientDataJSON: clientDataJSON,
                    .authenticatorData: decoded("authenticatorData") ?? [], .signature: decoded("signature") ?? [],
                    .challenge: challenge, .user: options.user,
                ]
                inputs[.userHandle] = decoded("userHandle")
                step = VerifierStep(kind: .webAuthnAssertion, inputs: inputs, time: time)
            }
            do {
                let verdict = try session.verify(step)
                return verdict.outcome == .accept ? json(200, ["status": "ok", "errorMessage": ""]) : failed(verdict.reason ?? "refused")
            } catch {
                return failed("\(error)")
            }
        default:
            return json(404, ["status": "failed", "errorMessage": "no route \(method) \(target)"])
        }
    }
}
