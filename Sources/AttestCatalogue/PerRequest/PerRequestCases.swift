import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// The per-request device attestation family (docs/protocols/per-request-device-attestation.md): the device's requests
/// in order (challenge, attest, protected requests), valid on iOS and Android, and one case per mutation, each breaking
/// exactly one rule. Every broken step states the status the API answers (403 device, 401 account).
public enum PerRequestFamily: CatalogueFamily {
    public static let name = FamilyName.perRequest
    /// Case ids start `request.`.
    static let idPrefix = "request"
    /// The flow's own rules, App Attest's attestation rules (the iOS attest is an App Attest attestation, verified as
    /// Apple documents it: §3.1 of the protocol page) and the assertion rules its protected requests rest on.
    public static var rules: [Rule] {
        let appAttest = Set(iosAttestDefinitions.compactMap(\.rule)).union([.appAttestAssertionSignature, .appAttestAssertionCounter])
        return PerRequestRules.all + AppAttestFamily.rules.filter { appAttest.contains($0.id) }
    }


    public static let stepKinds: [StepKind: String] = [
        .perRequestChallenge: "GET /device/challenge. Inputs: challenge (the 32 bytes the server must issue; they travel as "
            + "unpadded base64url).",
        .perRequestAttest: "POST /device/attest. Inputs: platform (ios or android), challenge; ios: keyId, attestationObject "
            + "(App Attest of SHA-256(challenge)); android: integrityToken (compact JWE, UTF-8), sessionToken (the token the "
            + "server must issue). Context parameters: appId, environment, packageName, signatureDigest, "
            + "integrityDecryptionKey (base64), integrityVerificationKey (PEM), tokenFreshness (seconds).",
        .perRequestRequest: "A protected request. Inputs: method, target (path plus query), body, and one input per header, "
            + "named header.<Name>: Authorization, X-Platform, X-Apple-App-Attest-Assertion, X-Apple-App-Attest-Key-ID, "
            + "X-Apple-App-Attest-Challenge, X-Apple-App-Attest-Client-Data (the client data the app signed, base64; "
            + "not sent by the Civiq app, and a server rebuilds it), X-Android-Device-Token. Context parameters: "
            + "accountToken, challengeLifetime, tokenLifetime, deviceFailureStatus, accountFailureStatus.",
    ]

    typealias Definition = CaseDefinition<Void, PerRequestScenario, PerRequestForge>

    /// The App Attest root, and the Play Integrity test keys a verifier is configured with.
    public static func trustAnchors(seed: UInt64) throws -> [String: String] {
        let keys = try PlayIntegrityKeys(seed: ForgeSeed(seed))
        return try AppAttestFamily.trustAnchors(seed: seed).merging([
            "play-integrity-decryption-key.txt": Data(keys.decryptionKey).base64EncodedString() + "\n",
            "play-integrity-verification-key.pem": keys.verificationKey.publicKey.pem,
        ]) { first, _ in first }
    }

    public static func forge(parameters: [String: String], seed: ForgeSeed) throws -> PerRequestForge {
        let reader = ParameterReader(parameters)
        let app = try AppAttestParameters(reader), android = try AndroidParameters(forging: reader)
        return try PerRequestForge(seed: seed, appId: app.appId, environment: app.environment, packageName: android.packageName,
                                   signatureDigest: android.signatureDigest, accountToken: try PerRequestParameters(reader).accountToken)
    }

    public static func cases(parameters: [String: String], seed: UInt64) throws -> [Case] {
        try cases(parameters: parameters, seed: ForgeSeed(seed))
    }

    /// The cases forged from `seed`, substitutions included (what the civiq+http driver re-forges with the
    /// challenges a live server issued); with `only`, just the case of that id.
    public static func cases(parameters: [String: String], seed: ForgeSeed, only: String? = nil) throws -> [Case] {
        let forge = try forge(parameters: parameters, seed: seed)
        var context = CaseContext(time: forge.time, trustAnchors: [forge.appAttest.pki.root.pem], parameters: parameters)
        context.parameters["appId"] = forge.appAttest.appId
        context.parameters["integrityDecryptionKey"] = Data(forge.integrityKeys.decryptionKey).base64EncodedString()
        context.parameters["integrityVerificationKey"] = forge.integrityKeys.verificationKey.publicKey.pem
        return try definitions.filter { only == nil || $0.id(prefix: idPrefix) == only }.map { definition in
            var scenario = PerRequestScenario(requests: [])
            try definition.mutate(&scenario, forge)
            let steps = try steps(scenario, breaking: definition.rule, parameters: parameters)
            // The control is the valid flow of the same platform.
            return definition.makeCase(prefix: idPrefix, family: name, context: context, steps: steps, control: steps.platform)
        }
    }

    static func steps(_ scenario: PerRequestScenario, breaking rule: RuleID?, parameters: [String: String]) throws -> [Step] {
        var steps = try requestSteps(scenario, breaking: rule, parameters: parameters)
        for (index, repetition) in scenario.repetitions.sorted(by: { $0.key < $1.key }) {
            guard steps.indices.contains(index), repetition.step < index, steps[repetition.step].kind == steps[index].kind else {
                throw CatalogueError.badRepetition(step: index, repeats: repetition.step)
            }
            let step = steps[index]
            // A replay is the earlier request again, byte for byte.
            steps[index] = Step(kind: step.kind, inputs: repetition.kind == .replay ? steps[repetition.step].inputs : step.inputs,
                                breaks: step.breaks, time: step.time, expectedStatus: step.expectedStatus, either: step.either,
                                unreadable: step.unreadable, repeats: repetition)
        }
        return steps
    }

    static func requestSteps(_ scenario: PerRequestScenario, breaking rule: RuleID?, parameters: [String: String]) throws -> [Step] {
        try scenario.requests.enumerated().map { index, request in
            let breaks = scenario.brokenStep == index ? rule : nil
            let api = try PerRequestParameters(ParameterReader(parameters))
            let status = breaks.map { DocumentedStatus.perRequestStatus(for: $0, api: api) }
            switch request {
            case .challenge(let challenge, let time):
                return Step(kind: .perRequestChallenge, inputs: [.challenge: challenge], breaks: breaks, time: time)
            case .attestIOS(let attestation, let challenge, let time):
                let output = try attestation.render()
                return Step(kind: .perRequestAttest, inputs: [
                    .platform: Array("ios".utf8), .challenge: challenge, .keyId: output.keyId,
                    .attestationObject: output.attestationObject,
                ], breaks: breaks, time: time, expectedStatus: status)
            case .attestAndroid(let token, let challenge, let sessionToken, let time):
                return Step(kind: .perRequestAttest, inputs: [
                    .platform: Array("android".utf8), .challenge: challenge, .integrityToken: Array(try token.render().utf8),
                    .sessionToken: Array(sessionToken.utf8),
                ], breaks: breaks, time: time, expectedStatus: status)
            case .request(let request):
                var inputs: [InputKey: [UInt8]] = [.method: Array(request.method.utf8), .target: Array(request.target.utf8), .body: request.body]
                for (name, value) in try request.headers() { inputs[.header(name)] = Array(value.utf8) }
                return Step(kind: .perRequestRequest, inputs: inputs, breaks: breaks, time: request.time, expectedStatus: status)
            }
        }
    }

    // MARK: Scenario builders

    static let transferBody = Array(#"{"amount":"200.00","currency":"EUR","to":"DE89370400440532013000"}"#.utf8)

    /// iOS: attest, a POST transfer (counter 1), then a bodyless GET (counter 2); `change` mutates the last
    /// request, which is the broken step.
    static func ios(_ forge: PerRequestForge, counters: (UInt32, UInt32) = (1, 2),
                    _ change: (inout DeviceRequestBlueprint) throws -> Void = { _ in }) throws -> PerRequestScenario {
        var requests = try forge.attestIOS(at: forge.time)
        requests += try forge.iosRequest(method: "POST", target: "/v1/transfers?currency=EUR", body: transferBody, counter: counters.0,
                                         label: "transfer", at: forge.time + 10)
        requests += try forge.iosRequest(method: "GET", target: "/v1/accounts?page=1", body: [], counter: counters.1,
                                         label: "accounts", at: forge.time + 20)
        guard case .request(var last) = requests[requests.count - 1] else { return PerRequestScenario(requests: requests) }
        try change(&last)
        requests[requests.count - 1] = .request(last)
        return PerRequestScenario(requests: requests, brokenStep: requests.count - 1)
    }

    /// Changes what the app signed for the request.
    static func signed(_ request: inout DeviceRequestBlueprint, _ change: (inout DeviceRequestBlueprint.SignedRequest) -> Void) {
        guard case .appAttest(let assertion, let challenge, var signedFor) = request.proof else { return }
        change(&signedFor)
        request.proof = .appAttest(assertion, challenge: challenge, signedFor: signedFor)
    }

    /// Android: a challenge and an attest whose token `token` changes; the attest is the broken step.
    static func androidAttest(_ forge: PerRequestForge, token: (inout IntegrityTokenBlueprint) throws -> Void) throws -> PerRequestScenario {
        let session = try forge.sessionToken("device")
        var (challenge, blueprint) = try forge.attestAndroid(at: forge.time + 1, sessionToken: session)
        try token(&blueprint)
        return PerRequestScenario(requests: [.challenge(challenge, forge.time),
                                             .attestAndroid(blueprint, challenge: challenge, sessionToken: session, forge.time + 1)],
                                  brokenStep: 1)
    }

    /// Android: attest, then a POST and a GET carrying the session token; `change` mutates the GET, the broken step.
    static func android(_ forge: PerRequestForge, _ change: (inout DeviceRequestBlueprint) throws -> Void = { _ in }) throws -> PerRequestScenario {
        var scenario = try androidAttest(forge) { _ in }
        guard case .attestAndroid(_, _, let session, _) = scenario.requests[1] else { return scenario }
        var last = forge.androidRequest(method: "GET", target: "/v1/accounts?page=1", body: [], sessionToken: session, at: forge.time + 30)
        try change(&last)
        scenario.requests += [.request(forge.androidRequest(method: "POST", target: "/v1/transfers?currency=EUR", body: transferBody,
                                                            sessionToken: session, at: forge.time + 20)), .request(last)]
        scenario.brokenStep = scenario.requests.count - 1
        return scenario
    }

    /// Every App Attest case that breaks the attestation, as a break of the iOS flow's POST /device/attest: the same
    /// mutation applied to the attestation the app sends there (described once, in the App Attest family), the
    /// challenge the server issued unchanged. Ids are `request.<rule>.attest-<App Attest variant>`.
    static let iosAttestDefinitions: [Definition] = AppAttestFamily.definitions.compactMap { appAttest in
        guard case .attestation = appAttest.baseline, appAttest.rule != nil else { return nil }
        return Definition(variant: "attest-" + appAttest.variant, rule: appAttest.rule, importance: appAttest.importance,
                          description: "The iOS attest's App Attest attestation: " + appAttest.description) { forge in
            var requests = try forge.attestIOS(at: forge.time)
            guard case .attestIOS(let attestation, let challenge, let time) = requests[1] else { return PerRequestScenario(requests: requests) }
            var scenario = AppAttestScenario(attestation: attestation, assertions: [], brokenStep: 0)
            try appAttest.mutate(&scenario, forge.appAttest)
            requests[1] = .attestIOS(scenario.attestation, challenge: challenge, time)
            return PerRequestScenario(requests: requests, brokenStep: 1)
        }
    }

    static let definitions: [Definition] = [
        Definition(variant: "ios", rule: nil, importance: .critical,
                   description: "App Attest once, then a POST with a body and a bodyless GET, each with its own challenge and assertion.") { forge in
            try ios(forge)
        },
        Definition(variant: "android", rule: nil, importance: .critical,
                   description: "A Play Integrity token exchanged for a session token, then two requests carrying it.") { forge in
            try android(forge)
        },

        // iOS binding.
        Definition(variant: "signed-for-delete", rule: .requestMethod, importance: .high,
                   description: "The assertion was made for a DELETE of the same URL and sent with the GET.") { forge in
            try ios(forge) { request in signed(&request) { $0.method = "DELETE" } }
        },
        Definition(variant: "other-endpoint", rule: .requestPath, importance: .critical,
                   description: "An assertion captured for /v1/profile is replayed on /v1/accounts.") { forge in
            try ios(forge) { request in signed(&request) { $0.target = "/v1/profile?page=1" } }
        },
        Definition(variant: "other-query", rule: .requestQuery, importance: .high,
                   description: "The assertion was made for page=2 and sent with page=1.") { forge in
            try ios(forge) { request in signed(&request) { $0.target = "/v1/accounts?page=2" } }
        },
        Definition(variant: "other-payload", rule: .requestBody, importance: .critical,
                   description: "An assertion captured for a 5 EUR transfer is replayed with a 200 EUR body.") { forge in
            var scenario = try ios(forge)
            // The POST (second-to-last request pair) is the target: rebuild it signed for another body.
            guard case .request(var transfer) = scenario.requests[3] else { return scenario }
            signed(&transfer) { $0.body = Array(#"{"amount":"5.00","currency":"EUR","to":"DE89370400440532013000"}"#.utf8) }
            scenario.requests[3] = .request(transfer)
            scenario.brokenStep = 3
            return scenario
        },
        Definition(variant: "base64-digest", rule: .requestBodyHashEncoding, importance: .medium,
                   description: "The client data carries the body digest in base64 instead of lowercase hex.") { forge in
            var scenario = try ios(forge)
            guard case .request(var transfer) = scenario.requests[3] else { return scenario }
            signed(&transfer) { $0.bodyHashLine = Data(sha256($0.body)).base64EncodedString() }
            scenario.requests[3] = .request(transfer)
            scenario.brokenStep = 3
            return scenario
        },
        Definition(variant: "empty-line", rule: .requestEmptyBody, importance: .medium,
                   description: "The bodyless GET's client data has an empty fourth line instead of SHA-256 of the empty string.") { forge in
            try ios(forge) { request in signed(&request) { $0.bodyHashLine = "" } }
        },

        // Challenges, keys, headers, account.
        Definition(variant: "never-issued", rule: .requestChallengeKnown, importance: .critical,
                   description: "The GET carries a challenge the server never issued.") { forge in
            var scenario = try ios(forge)
            scenario.requests.remove(at: scenario.requests.count - 2)
            scenario.brokenStep = scenario.requests.count - 1
            return scenario
        },
        Definition(variant: "reused", rule: .requestChallengeSingleUse, importance: .critical,
                   description: "The GET reuses the POST's challenge with a fresh assertion.") { forge in
            var scenario = try ios(forge)
            guard case .request(let transfer) = scenario.requests[3], case .appAttest(_, let used, _) = transfer.proof,
                  case .request(var accounts) = scenario.requests[5], case .appAttest(let assertion, _, let signedFor) = accounts.proof else {
                return scenario
            }
            accounts.proof = .appAttest(assertion, challenge: used, signedFor: signedFor)
            scenario.requests[5] = .request(accounts)
            scenario.requests.remove(at: 4)
            scenario.brokenStep = 4
            scenario.repetitions[4] = StepRepetition(.answer, of: 3)
            return scenario
        },
        Definition(variant: "expired", rule: .requestChallengeLifetime, importance: .high,
                   description: "The GET uses its challenge 301 seconds after it was issued (lifetime 300).") { forge in
            try ios(forge) { $0.time += 300 }
        },
        Definition(variant: "unknown", rule: .requestKeyId, importance: .high,
                   description: "X-Apple-App-Attest-Key-ID names a key never attested (a server that looks the key up by device accepts it).") { forge in
            let unknown = Data(try forge.seed.bytes("per-request unknown key id", count: 32)).base64EncodedString()
            return try ios(forge) { $0.headerOverrides["X-Apple-App-Attest-Key-ID"] = unknown }
        },
        Definition(variant: "missing-platform", rule: .requestHeaders, importance: .medium,
                   description: "The request has the iOS proof headers but no X-Platform.") { forge in
            try ios(forge) { $0.headerOverrides["X-Platform"] = .some(nil) }
        },
        Definition(variant: "ios-headers-as-android", rule: .requestHeaders, importance: .medium,
                   description: "X-Platform says android while the iOS proof headers are sent.") { forge in
            try ios(forge) { $0.headerOverrides["X-Platform"] = "android" }
        },
        Definition(variant: "expired-account-token", rule: .requestAccountToken, importance: .high,
                   description: "A valid device proof with an invalid account token: 401, never 403.") { forge in
            try ios(forge) { $0.accountToken = "expired-account-token" }
        },
        Definition(variant: "repeated", rule: .appAttestAssertionCounter, importance: .high,
                   description: "The GET's assertion counter repeats the POST's (1 then 1).") { forge in
            try ios(forge, counters: (1, 1))
        },
        Definition(variant: "other-key", rule: .appAttestAssertionSignature, importance: .critical,
                   description: "The GET's assertion is signed by another key under the attested key id.") { forge in
            let other = try forge.appAttest.otherKey()
            return try ios(forge) { request in
                guard case .appAttest(var assertion, let challenge, let signedFor) = request.proof else { return }
                assertion.signingKey = other
                request.proof = .appAttest(assertion, challenge: challenge, signedFor: signedFor)
            }
        },

        // Android.
        Definition(variant: "tag", rule: .integrityEncryption, importance: .critical,
                   description: "The token's GCM tag is altered (a decryptor that never checks the tag reads it anyway).") { forge in
            try androidAttest(forge, token: { $0.alterTag = true })
        },
        Definition(variant: "unencrypted", rule: .integrityEncryption, importance: .high,
                   description: "The token is the bare JWS, not encrypted under the app's key.") { forge in
            try androidAttest(forge, token: { $0.unencrypted = true })
        },
        Definition(variant: "other-signer", rule: .integritySignature, importance: .critical,
                   description: "The JWS is signed by another key than Google's verification key.") { forge in
            let other = try forge.seed.key(.ec(.p256), "per-request other integrity signer")
            return try androidAttest(forge, token: { $0.signingKey = other })
        },
        Definition(variant: "other-challenge", rule: .integrityNonce, importance: .critical,
                   description: "requestDetails.nonce is another challenge.") { forge in
            let other = Base64URL.encode(try forge.challenge("another"))
            return try androidAttest(forge, token: { $0.verdict.nonce = other })
        },
        Definition(variant: "request-package", rule: .integrityPackage, importance: .high,
                   description: "requestDetails.requestPackageName is another app.") { forge in
            try androidAttest(forge, token: { $0.verdict.requestPackageName = "com.example.other" })
        },
        Definition(variant: "app-package", rule: .integrityPackage, importance: .high,
                   description: "appIntegrity.packageName is another app.") { forge in
            try androidAttest(forge, token: { $0.verdict.packageName = "com.example.other" })
        },
        Definition(variant: "other-signing-certificate", rule: .integrityCertificateDigest, importance: .critical,
                   description: "appIntegrity.certificateSha256Digest is a re-signed app's.") { forge in
            try androidAttest(forge, token: { $0.verdict.certificateSha256Digest = [Base64URL.encode(sha256(Array("re-signed".utf8)))] })
        },
        Definition(variant: "unrecognized-version", rule: .integrityAppRecognition, importance: .high,
                   description: "appRecognitionVerdict is UNRECOGNIZED_VERSION.") { forge in
            try androidAttest(forge, token: { $0.verdict.appRecognitionVerdict = "UNRECOGNIZED_VERSION" })
        },
        Definition(variant: "basic-only", rule: .integrityDeviceIntegrity, importance: .critical,
                   description: "deviceRecognitionVerdict is MEETS_BASIC_INTEGRITY only (an emulator or rooted device).") { forge in
            try androidAttest(forge, token: { $0.verdict.deviceRecognitionVerdict = ["MEETS_BASIC_INTEGRITY"] })
        },
        Definition(variant: "empty-device-verdict", rule: .integrityDeviceIntegrity, importance: .critical,
                   description: "deviceRecognitionVerdict is empty.") { forge in
            try androidAttest(forge, token: { $0.verdict.deviceRecognitionVerdict = [] })
        },
        Definition(variant: "stale", rule: .integrityTimestamp, importance: .high,
                   description: "timestampMillis is 301 seconds before the attest (freshness 300).") { forge in
            try androidAttest(forge, token: { $0.verdict.timestampMillis = String(Int64((forge.time + 1 - 301).timeIntervalSince1970 * 1000)) })
        },
        Definition(variant: "future", rule: .integrityTimestamp, importance: .medium,
                   description: "timestampMillis is an hour after the attest.") { forge in
            try androidAttest(forge, token: { $0.verdict.timestampMillis = String(Int64((forge.time + 3600).timeIntervalSince1970 * 1000)) })
        },
        Definition(variant: "android-attest-reused", rule: .requestChallengeSingleUse, importance: .critical,
                   description: "A second /device/attest reuses the first one's challenge and token.") { forge in
            var scenario = try android(forge)
            guard case .attestAndroid(let token, let challenge, _, let time) = scenario.requests[1] else { return scenario }
            scenario.requests.append(.attestAndroid(token, challenge: challenge, sessionToken: try forge.sessionToken("second"), time + 60))
            scenario.brokenStep = scenario.requests.count - 1
            scenario.repetitions[scenario.brokenStep ?? 0] = StepRepetition(.answer, of: 1)
            return scenario
        },
        Definition(variant: "android-attest-replayed", rule: .requestChallengeSingleUse, importance: .critical,
                   description: "The /device/attest request is sent again, byte for byte, after it succeeded (same token, same challenge): a replayed attest that would hand its sender a session token.") { forge in
            var scenario = try androidAttest(forge) { _ in }
            guard case .attestAndroid(let token, let challenge, let session, let time) = scenario.requests[1] else { return scenario }
            scenario.requests.append(.attestAndroid(token, challenge: challenge, sessionToken: session, time + 60))
            scenario.brokenStep = 2
            scenario.repetitions[2] = StepRepetition(.replay, of: 1)
            return scenario
        },
        Definition(variant: "unknown", rule: .requestSessionToken, importance: .critical,
                   description: "X-Android-Device-Token is not a token the server issued.") { forge in
            let other = try forge.sessionToken("never issued")
            return try android(forge, { $0.proof = .sessionToken(other) })
        },
        Definition(variant: "after-24-hours", rule: .requestSessionLifetime, importance: .high,
                   description: "The session token is used a day and a minute after it was issued (lifetime 86400 s).") { forge in
            try android(forge, { $0.time = forge.time + 1 + 86_460 })
        },
    ] + iosAttestDefinitions
}
