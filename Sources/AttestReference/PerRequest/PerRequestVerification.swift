import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// The per-request attestation server of docs/protocols/per-request-device-attestation.md: /device/challenge,
/// /device/attest and protected requests, each check under its rule, each refusal with the status the API documents
/// (403 device, 401 account).
enum PerRequestVerification {
    /// The API's parameters, read once per distinct parameter set: reading them decodes the Play Integrity
    /// verification key's PEM, which cost more than the step's own checks when done at every use.
    static func api(_ policy: Policy) throws -> PerRequestParameters {
        try parsedParameters.value(for: policy.context.parameters) { try PerRequestParameters(policy.parameters) }
    }

    private static let parsedParameters = Memo<[String: String], PerRequestParameters>(capacity: 16, size: { parameters, _ in parameters.byteCount })

    static func challenge(_ step: VerifierStep, policy: Policy, server: inout ServerState) throws {
        // A server-wide session (an API emulation) forgets challenges well past their lifetime instead of keeping every
        // one it issued; within a case, every challenge is younger than that.
        let lifetime = try api(policy).challengeLifetime
        if server.perRequest.challenges.count >= 1024 {
            server.perRequest.challenges = server.perRequest.challenges.filter {
                abs(policy.context.time.timeIntervalSince($0.value.issuedAt)) <= 2 * lifetime
            }
        }
        server.perRequest.challenges[Base64URL.encode(try step.input(.challenge))] = .init(issuedAt: policy.context.time)
    }

    static func attest(_ step: VerifierStep, policy: Policy, server: inout ServerState) throws {
        try withStatus(policy) {
            let challenge = try step.input(.challenge)
            try useChallenge(Base64URL.encode(challenge), policy: policy, server: &server)
            switch String(decoding: try step.input(.platform), as: UTF8.self) {
            case "ios":
                try AttestationVerification.verify(VerifierStep(kind: .appAttestAttestation, inputs: [
                    .attestationObject: try step.input(.attestationObject), .keyId: try step.input(.keyId), .challenge: challenge,
                ]), policy: policy, state: &server.appAttest)
            case "android":
                try verifyIntegrityToken(String(decoding: try step.input(.integrityToken), as: UTF8.self), challenge: challenge,
                                         policy: policy)
                let tokenLifetime = try api(policy).tokenLifetime
                if server.perRequest.sessions.count >= 1024 {
                    server.perRequest.sessions = server.perRequest.sessions.filter {
                        abs(policy.context.time.timeIntervalSince($0.value)) <= 2 * tokenLifetime
                    }
                }
                server.perRequest.sessions[String(decoding: try step.input(.sessionToken), as: UTF8.self)] = policy.context.time
            case let other:
                throw UnreadableEvidence("platform \(other) is neither ios nor android")
            }
        }
    }

    static func request(_ step: VerifierStep, policy: Policy, server: inout ServerState) throws {
        try withStatus(policy) {
            func header(_ name: String) -> String? { step.inputs[.header(name)].map { String(decoding: $0, as: UTF8.self) } }
            let iosHeaders = ["X-Apple-App-Attest-Assertion", "X-Apple-App-Attest-Key-ID", "X-Apple-App-Attest-Challenge"]
            let hasIOS = iosHeaders.contains { header($0) != nil }, hasAndroid = header("X-Android-Device-Token") != nil
            let platform = header("X-Platform")
            let consistent = platform == "ios" && !hasAndroid && iosHeaders.allSatisfy { header($0) != nil }
                || platform == "android" && hasAndroid && !hasIOS
            try policy.require(.requestHeaders, consistent,
                               "X-Platform \(platform ?? "absent") does not match the proof headers sent")
            if hasIOS {
                try verifyAssertion(step, header: header, policy: policy, server: &server)
            } else {
                let token = header("X-Android-Device-Token") ?? ""
                guard let issuedAt = server.perRequest.sessions[token] else {
                    try policy.require(.requestSessionToken, false, "X-Android-Device-Token is not an issued session token")
                    return try verifyAccount(header("Authorization"), policy: policy)
                }
                let age = policy.context.time.timeIntervalSince(issuedAt), lifetime = try api(policy).tokenLifetime
                try policy.require(.requestSessionLifetime, age <= lifetime, "the session token is \(Int(age)) s old")
            }
            try verifyAccount(header("Authorization"), policy: policy)
        }
    }

    /// The iOS proof: a known, fresh, unused challenge; an attested key; an App Attest assertion over the client
    /// data rebuilt from this request. When the app also sent the client data it signed, a line that differs
    /// names the binding rule it breaks, and a verifier without that rule trusts the sent line instead.
    static func verifyAssertion(_ step: VerifierStep, header: (String) -> String?, policy: Policy, server: inout ServerState) throws {
        let challengeText = header("X-Apple-App-Attest-Challenge") ?? ""
        try useChallenge(challengeText, policy: policy, server: &server)
        var keyId = Data(base64Encoded: header("X-Apple-App-Attest-Key-ID") ?? "").map(Array.init) ?? []
        if server.appAttest.keys[keyId] == nil {
            try policy.require(.requestKeyId, false, "X-Apple-App-Attest-Key-ID names no attested key")
            guard let only = server.appAttest.keys.keys.first else { throw RuleViolation(rule: .requestKeyId, reason: "no key is attested") }
            keyId = only
        }

        let method = String(decoding: try step.input(.method), as: UTF8.self).uppercased()
        let target = String(decoding: try step.input(.target), as: UTF8.self)
        let body = try step.input(.body)
        var lines = [challengeText, method, target, hex(sha256(body))]
        if let sent = header("X-Apple-App-Attest-Client-Data").flatMap({ Data(base64Encoded: $0) }).map({ String(decoding: $0, as: UTF8.self) }) {
            let signed = sent.components(separatedBy: "\n")
            if signed.count == 4 {
                for (index, rule) in [(1, RuleID.requestMethod), (2, .requestPath), (3, .requestBody)] where signed[index] != lines[index] {
                    let broken = index == 2 ? targetRule(signed[2], target) : index == 3 ? bodyRule(signed[3], body) : rule
                    try policy.require(broken, false, "client data line \(index + 1) is \"\(signed[index])\", the request gives \"\(lines[index])\"")
                    lines[index] = signed[index]
                }
            }
        }
        try AssertionVerification.verify(VerifierStep(kind: .appAttestAssertion, inputs: [
            .assertion: Data(base64Encoded: header("X-Apple-App-Attest-Assertion") ?? "").map(Array.init) ?? [],
            .clientData: Array(lines.joined(separator: "\n").utf8), .keyId: keyId, .challenge: Array(challengeText.utf8),
        ]), policy: policy, state: &server.appAttest)
    }

    /// Path or query, whichever differs.
    static func targetRule(_ signed: String, _ sent: String) -> RuleID {
        signed.split(separator: "?", maxSplits: 1).first == sent.split(separator: "?", maxSplits: 1).first ? .requestQuery : .requestPath
    }

    /// The empty-body rule for an empty line on a bodyless request, the encoding rule for the right digest in
    /// base64 or base64url, otherwise the body rule.
    static func bodyRule(_ signed: String, _ body: [UInt8]) -> RuleID {
        if body.isEmpty && signed.isEmpty { return .requestEmptyBody }
        let digest = sha256(body)
        if Data(base64Encoded: signed).map(Array.init) == digest || Base64URL.decode(signed) == digest { return .requestBodyHashEncoding }
        return .requestBody
    }

    /// Play Integrity (developer.android.com/google/play/integrity/verdicts): decrypt, verify, then requestDetails,
    /// appIntegrity, deviceIntegrity.
    static func verifyIntegrityToken(_ token: String, challenge: [UInt8], policy: Policy) throws {
        let api = try api(policy)
        guard let key = api.integrityDecryptionKey, let verificationKey = api.integrityVerificationKey else {
            throw HarnessError("parameters integrityDecryptionKey (base64) and integrityVerificationKey (PEM) are required")
        }
        let jws: String
        if JOSE.parts(of: token).count == 3 {
            try policy.require(.integrityEncryption, false, "the token is a bare JWS, not encrypted")
            jws = token
        } else {
            do {
                jws = String(decoding: try JOSE.decrypt(token, key: key, verifyTag: policy.enforces(.integrityEncryption)), as: UTF8.self)
            } catch {
                throw RuleViolation(rule: .integrityEncryption, reason: "\(error)")
            }
        }
        let payload: [UInt8]
        do {
            payload = try JOSE.verifyES256(jws, key: verificationKey, verify: policy.enforces(.integritySignature))
        } catch {
            throw RuleViolation(rule: .integritySignature, reason: "\(error)")
        }
        let verdict: IntegrityVerdict
        do { verdict = try IntegrityVerdict(parsing: payload) } catch {
            throw RuleViolation(rule: .integrityEncryption, reason: "\(error)")
        }
        let app = try AndroidAttestationVerification.app(policy)
        let packageName = app.packageName, digest = app.signatureDigest
        try policy.require(.integrityNonce, verdict.nonce == Base64URL.encode(challenge), "nonce \(verdict.nonce ?? "absent") is not the issued challenge")
        try policy.require(.integrityPackage, verdict.requestPackageName == packageName && verdict.packageName == packageName,
                           "package names \(verdict.requestPackageName ?? "-")/\(verdict.packageName ?? "-") are not \(packageName)")
        try policy.require(.integrityCertificateDigest, verdict.certificateSha256Digest?.contains(Base64URL.encode(digest)) == true,
                           "certificateSha256Digest lacks the app's signing digest")
        try policy.require(.integrityAppRecognition, verdict.appRecognitionVerdict == IntegrityVerdict.playRecognized,
                           "appRecognitionVerdict is \(verdict.appRecognitionVerdict ?? "absent")")
        try policy.require(.integrityDeviceIntegrity, verdict.deviceRecognitionVerdict?.contains(IntegrityVerdict.meetsDeviceIntegrity) == true,
                           "deviceRecognitionVerdict \(verdict.deviceRecognitionVerdict ?? []) lacks MEETS_DEVICE_INTEGRITY")
        let now = policy.context.time.timeIntervalSince1970 * 1000
        let issued = verdict.timestampMillis.flatMap(Double.init) ?? 0, freshness = api.tokenFreshness
        try policy.require(.integrityTimestamp, issued <= now && now - issued <= freshness * 1000,
                           "timestampMillis \(verdict.timestampMillis ?? "absent") is not within tokenFreshness of now")
    }

    /// Marks a challenge used after checking it was issued, is unused and is fresh.
    static func useChallenge(_ text: String, policy: Policy, server: inout ServerState) throws {
        guard let issued = server.perRequest.challenges[text] else {
            try policy.require(.requestChallengeKnown, false, "challenge \(text) was never issued")
            return
        }
        try policy.require(.requestChallengeSingleUse, !issued.used, "challenge \(text) was already used")
        let age = policy.context.time.timeIntervalSince(issued.issuedAt), lifetime = try api(policy).challengeLifetime
        try policy.require(.requestChallengeLifetime, age <= lifetime, "challenge \(text) is \(Int(age)) s old")
        server.perRequest.challenges[text]?.used = true
    }

    static func verifyAccount(_ authorization: String?, policy: Policy) throws {
        let expected = "Bearer " + (try api(policy).accountToken)
        try policy.require(.requestAccountToken, authorization == expected,
                           "the account token is not valid")
    }

    /// Runs `body`, giving each violation the documented status: 401 for the account token, 403 otherwise.
    static func withStatus(_ policy: Policy, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch var violation as RuleViolation {
            violation.status = DocumentedStatus.perRequestStatus(for: violation.rule, api: try api(policy))
            throw violation
        }
    }
}
