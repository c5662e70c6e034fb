import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestForge
import Foundation

/// `fido+http://host:port`: a WebAuthn server with the FIDO2 server conformance API (`/attestation/options` and
/// `/result`, `/assertion/options` and `/result`; ServerResponse `status` ok or failed with `errorMessage`),
/// driven through the live ceremony. For each webauthn case, every registration and assertion first asks for
/// options, and the case is re-forged around the challenge and user id the server issued; each case uses fresh
/// usernames and credential ids, since the server keeps earlier cases' credentials. `ok` is an accept, anything
/// else a refusal. Cases run one at a time.
public struct FidoDriver: AttestationVerifier {
    public let baseURL: URL
    public let seed: UInt64
    public let timeout: TimeInterval

    public init(baseURL: URL, seed: UInt64, timeout: TimeInterval = 10) {
        self.baseURL = baseURL
        self.seed = seed
        self.timeout = timeout
    }

    public var name: String { "fido+" + baseURL.absoluteString }
    var client: LiveAPIClient { LiveAPIClient(baseURL: baseURL, timeout: timeout) }

    /// One simulated device and user set per run: its cases share what the server stores.
    public var requiresSerialCases: Bool { true }

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        var forgeSeed = ForgeSeed(seed)
        var usernames: [[UInt8]: String] = [:]
        func step(_ index: Int) throws -> Step {
            guard let forged = try WebAuthnFamily.cases(parameters: profile.parameters, seed: forgeSeed, only: testCase.id)
                .first(where: { $0.id == testCase.id }), index < forged.steps.count else {
                throw VerifierFailure.contract("fido+http drives the webauthn family only; \(testCase.id) is not one of its cases")
            }
            return forged.steps[index]
        }
        let userVerification = profile.parameters["userVerification"] ?? "preferred"
        var verdicts: [Verdict] = []
        for index in testCase.steps.indices {
            var current = try step(index)
            let time = current.time ?? testCase.context.time
            let registration = current.kind == StepKind.webAuthnRegistration
            guard registration || current.kind == StepKind.webAuthnAssertion else {
                throw VerifierFailure.contract("fido+http cannot send step kind \(current.kind)")
            }
            let intendedUser = current.inputs[.user] ?? []
            let username: String
            if let known = usernames[forgeSeed.substitutions[intendedUser] ?? intendedUser] {
                username = known
            } else {
                guard registration else { throw VerifierFailure.contract("an assertion for a user this case never registered") }
                username = "attest-harness-" + UUID().uuidString.lowercased()
            }
            let options = try await client.post(registration ? "/attestation/options" : "/assertion/options", registration
                ? ["username": username, "displayName": username, "attestation": profile.parameters["attestation"] ?? "none",
                   "authenticatorSelection": ["userVerification": userVerification]]
                : ["username": username, "userVerification": userVerification], time: time)
            guard options.0 == 200, let fields = (try? JSONSerialization.jsonObject(with: options.1)) as? [String: Any],
                  fields["status"] as? String == "ok", let challenge = (fields["challenge"] as? String).flatMap(Base64URL.decode) else {
                throw VerifierFailure.contract("options answered HTTP \(options.0) without a challenge")
            }
            forgeSeed.substitutions[current.inputs[.challenge] ?? []] = challenge
            if registration {
                let issuedUser = ((fields["user"] as? [String: Any])?["id"] as? String).flatMap(Base64URL.decode) ?? intendedUser
                if forgeSeed.substitutions[intendedUser] == nil { forgeSeed.substitutions[intendedUser] = issuedUser }
                usernames[issuedUser] = username
                // A fresh credential id of the same length, unless an earlier registration of the case used this one.
                if let intendedId = Self.credentialId(current.inputs[.attestationObject] ?? []),
                   forgeSeed.substitutions[intendedId] == nil, !forgeSeed.substitutions.values.contains(intendedId) {
                    forgeSeed.substitutions[intendedId] = secureRandomBytes(intendedId.count)
                }
            }
            current = try step(index)
            let inputs = current.inputs
            var response: [String: String] = ["clientDataJSON": Base64URL.encode(inputs[.clientDataJSON] ?? [])]
            let id: [UInt8]
            if registration {
                response["attestationObject"] = Base64URL.encode(inputs[.attestationObject] ?? [])
                id = Self.credentialId(inputs[.attestationObject] ?? []) ?? []
            } else {
                response["authenticatorData"] = Base64URL.encode(inputs[.authenticatorData] ?? [])
                response["signature"] = Base64URL.encode(inputs[.signature] ?? [])
                if let handle = inputs[.userHandle] { response["userHandle"] = Base64URL.encode(handle) }
                id = inputs[.credentialId] ?? []
            }
            let (status, body) = try await client.post(registration ? "/attestation/result" : "/assertion/result", [
                "id": Base64URL.encode(id), "rawId": Base64URL.encode(id), "type": "public-key", "response": response,
            ], time: time)
            let answer = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
            verdicts.append(status == 200 && answer["status"] as? String == "ok" ? .accept
                : Verdict(.reject, reason: "HTTP \(status): \(answer["errorMessage"] as? String ?? "")"))
        }
        return verdicts
    }

    /// The credential id in an attestation object's authenticator data, when it can be read.
    static func credentialId(_ attestationObject: [UInt8]) -> [UInt8]? {
        var lenient = CBORReader.Options()
        lenient.allowDuplicateMapKeys = true
        lenient.allowIndefiniteLengths = true
        guard let (object, _) = try? CBORReader.decodePrefix(attestationObject, options: lenient),
              let authData = object["authData"]?.bytesValue, authData.count >= 55 else { return nil }
        let length = Int(authData[53]) << 8 | Int(authData[54])
        return authData.count >= 55 + length ? Array(authData[55..<(55 + length)]) : nil
    }
}
