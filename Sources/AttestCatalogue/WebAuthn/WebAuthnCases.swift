import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation

/// The WebAuthn family: valid registrations and assertions in every forged format, and one case per mutation,
/// each breaking exactly one rule.
public enum WebAuthnFamily: CatalogueFamily {
    public static let name = FamilyName.webAuthn
    /// Case ids start `webauthn.`.
    static let idPrefix = "webauthn"
    public static var rules: [Rule] {
        // §2.4's CBOR conformance classes are Level 2's as well (its §2.4 has the same two SHOULDs).
        EncodingRules.all.map { $0.holding(since: WebAuthnRules.levelTwo) } + ChainRules.all + WebAuthnRules.all
            + AndroidRules.all.filter { androidKeyFormatRules.contains($0.id) }
    }

    /// The Android rules §8.4 itself requires of an android-key statement (steps 5-6).
    static let androidKeyFormatRules: [RuleID] = [.androidAllApplications, .androidOrigin, .androidPurpose]


    public static let stepKinds: [StepKind: String] = [
        .webAuthnRegistration: "A registration (WebAuthn L3 §7.1). Inputs: clientDataJSON, attestationObject (as the client "
            + "sent them), credentialId (the id/rawId the client sent), credentialJSON (the whole credential as browsers serialise "
            + "it: L3 RegistrationResponseJSON, UTF-8; the same values as the other inputs unless a case breaks the envelope), challenge (the bytes the relying party issued), user (the user handle of the account "
            + "registering), challengeSession (only when the challenge was issued to another client session than the one "
            + "answering: that session's name). Context parameters: rpId, origins (comma-separated), topOrigins (comma-separated parent "
            + "origins the RP may be embedded in; empty for none), allowCrossOrigin (true/false), algorithms "
            + "(comma-separated COSE alg values offered), userVerification (required/preferred), attestation "
            + "(direct: a certificate chain to a trust anchor is required; none: any statement is acceptable); in metadata cases "
            + "only, metadataBLOB (a FIDO Metadata Service BLOB, compact JWS) and metadataRoot (PEM of the root that signs it): "
            + "attestation roots then come from the BLOB's entry for the AAGUID, not from trustAnchors.",
        .webAuthnAssertion: "An authentication assertion (WebAuthn L3 §7.2) for a credential registered earlier in the case. "
            + "Inputs: credentialId (rawId), clientDataJSON, authenticatorData, signature, credentialJSON (AuthenticationResponseJSON), "
            + "challenge, user (the user "
            + "handle of the account the ceremony is for), userHandle (only when the authenticator returned one), "
            + "challengeSession (as in a registration), allowCredentials (only when the options listed credentials: a JSON array "
            + "of their unpadded base64url ids, UTF-8; the assertion's credential must be one of them).",
        .webAuthnDeletion: "The relying party deletes a registered credential (the user removed the passkey). Inputs: "
            + "credentialId, user (its owner). Accept once done; an assertion by it afterwards is refused.",
    ]

    /// Which steps a case has before its mutation.
    enum Baseline: Sendable {
        /// One registration; the mutation targets the last registration.
        case registration(WebAuthnForge.Format)
        /// A registration, then assertions with these counters; the mutation targets the last assertion.
        case assertions(WebAuthnForge.Format, [UInt32])

        var format: WebAuthnForge.Format {
            switch self {
            case .registration(let format), .assertions(let format, _): format
            }
        }
    }

    typealias Definition = CaseDefinition<Baseline, WebAuthnScenario, WebAuthnForge>

    /// The metadata cases configure the relying party with a FIDO metadata BLOB and its root; the cases of a relying
    /// party that accepts any attestation set `attestation` to `none`.
    public static let perCaseConfiguration: Set<String> = ["metadataBLOB", "metadataRoot", "attestation", "userVerification", "rpId", "origins"]

    public static func trustAnchors(seed: UInt64) throws -> [String: String] {
        let pki = try WebAuthnPKI(seed: ForgeSeed(seed))
        let android = try AndroidPKI(seed: ForgeSeed(seed))
        return ["webauthn-fido-attestation-root.pem": pki.attestationRoot.certificate.pem,
                "webauthn-apple-root.pem": pki.appleRoot.certificate.pem, "webauthn-safetynet-root.pem": pki.safetyNetRoot.certificate.pem,
                "android-rsa-root.pem": android.rsaRoot.certificate.pem, "android-ec-root.pem": android.ecRoot.certificate.pem]
    }

    public static func forge(parameters: [String: String], seed: ForgeSeed) throws -> WebAuthnForge {
        let reader = ParameterReader(parameters)
        let relyingParty = try WebAuthnParameters(reader), android = try AndroidParameters(forging: reader)
        // Evidence comes from the relying party's first web origin (https:// + rpId unless the profile lists another).
        let webOrigin = relyingParty.origins.first { !$0.hasPrefix(WebAuthnFormat.androidOriginPrefix) }
        let appOrigin = relyingParty.origins.contains { $0.hasPrefix(WebAuthnFormat.androidOriginPrefix) }
        return try WebAuthnForge(seed: seed, rpId: relyingParty.rpId, packageName: android.packageName,
                                 signatureDigest: android.signatureDigest, origin: webOrigin, appOrigin: appOrigin)
    }

    public static func cases(parameters: [String: String], seed: UInt64) throws -> [Case] {
        try cases(parameters: parameters, seed: ForgeSeed(seed))
    }

    /// The cases forged from `seed`, substitutions included (what the fido+http driver re-forges with the
    /// challenges and user ids a live server issued); with `only`, just the case of that id.
    public static func cases(parameters: [String: String], seed: ForgeSeed, only: String? = nil) throws -> [Case] {
        let forge = try forge(parameters: parameters, seed: seed)
        let anchors = try trustAnchors(seed: seed.value).filter { $0.key.hasSuffix(".pem") }.sorted { $0.key < $1.key }.map(\.value)
        let context = CaseContext(time: forge.time, trustAnchors: anchors, parameters: parameters)
        let relyingParty = try WebAuthnParameters(ParameterReader(parameters))
        let offered = relyingParty.algorithms
        return try definitions(offering: offered).filter { only == nil || $0.id(prefix: idPrefix) == only }.map { definition in
            var scenario = try baseline(definition, forge)
            try definition.mutate(&scenario, forge)
            return try makeCase(definition, scenario, forge: forge, context: context, relyingParty: relyingParty)
        }
    }

    /// The scenario of `definition`'s baseline, before its mutation.
    static func baseline(_ definition: Definition, _ forge: WebAuthnForge) throws -> WebAuthnScenario {
        switch definition.baseline {
        case .registration(let format): return try forge.scenario(format, assertionCounters: [])
        case .assertions(let format, let counters): return try forge.scenario(format, assertionCounters: counters)
        }
    }

    /// `definition`'s case from its mutated `scenario`: the relying party's configuration, the steps, the control.
    static func makeCase(_ definition: Definition, _ scenario: WebAuthnScenario, forge: WebAuthnForge, context: CaseContext,
                         relyingParty: WebAuthnParameters) throws -> Case {
        var scenario = scenario
        switch definition.baseline {
        case .registration: scenario.brokenStep = scenario.registrations.count - 1
        case .assertions:
            scenario.brokenStep = scenario.registrations.count + scenario.deletedCredentials.count + scenario.assertions.count - 1
        }
        var caseContext = context
        caseContext.parameters.merge(scenario.parameterOverrides) { _, override in override }
        if let metadata = scenario.metadata {
            caseContext.parameters["metadataBLOB"] = try metadata.render()
            caseContext.parameters["metadataRoot"] = forge.pki.metadataRoot.certificate.pem
            // Trust comes from the metadata alone: the FIDO root its entries name is no direct anchor here, so
            // a verifier that ignores the BLOB and trusts the root it was configured with is not right by luck.
            if !scenario.directAnchorsBesideMetadata {
                let fidoRoot = forge.pki.attestationRoot.certificate.pem
                caseContext.trustAnchors.removeAll { $0 == fidoRoot }
            }
        }
        var steps = try steps(scenario, breaking: definition.rule)
        if relyingParty.holdsNoAttestationRoots, definition.baseline.format != .none {
            // A statement the relying party cannot trust: registering it or not is its choice, wherever the
            // registration breaks no rule itself (or only one such a relying party does not hold: a self
            // statement, no attestation chain).
            steps = steps.map { step in
                guard step.kind == .webAuthnRegistration, step.breaks.map(acceptedWithoutTrust.contains) ?? true else { return step }
                return step.leavingVerdictToRelyingParty
            }
        }
        var testCase = definition.makeCase(prefix: idPrefix, family: name, context: caseContext, steps: steps,
                                           control: control(definition.baseline, scenario))
        testCase.anchors = WebAuthnAnchors.byCase[testCase.id] ?? []
        testCase.references = WebAuthnCaseReferences.byCase[testCase.id] ?? []
        return testCase
    }

    /// The valid case with the same baseline as a negative case: the valid registration of its statement format,
    /// judged under the same relying-party policy (one that accepts any attestation, or one that takes its trust from
    /// metadata).
    static func control(_ baseline: Baseline, _ scenario: WebAuthnScenario) -> String {
        let format: WebAuthnForge.Format
        switch baseline {
        case .registration(let value), .assertions(let value, _): format = value
        }
        if scenario.metadata != nil { return "metadata" }
        if scenario.parameterOverrides["attestation"] == "none" { return format == .packedSelf ? "packed-self" : "none" }
        switch format {
        case .packed, .packedSelf, .none: return "packed"
        case .androidKey: return "android-key"
        case .apple: return "apple-synced-counter-zero"
        case .fidoU2F: return "fido-u2f"
        case .tpm: return "tpm"
        case .tpmECC: return "tpm-ecc"
        case .androidSafetyNet: return "android-safetynet"
        }
    }

    /// The scenario's steps, registrations first; the step at `brokenStep` breaks `rule`.
    static func steps(_ scenario: WebAuthnScenario, breaking rule: RuleID?) throws -> [Step] {
        var steps: [Step] = []
        for registration in scenario.registrations {
            let output = try registration.render()
            var inputs: [InputKey: [UInt8]] = [.clientDataJSON: output.clientDataJSON, .attestationObject: output.attestationObject,
                                               .challenge: output.challenge, .user: output.user, .credentialId: output.credentialId,
                                               .credentialJSON: output.credentialJSON]
            inputs[.challengeSession] = scenario.challengeSessions[steps.count].map { Array($0.utf8) }
            steps.append(try step(.webAuthnRegistration, inputs, scenario, steps, breaking: rule))
        }
        for credentialId in scenario.deletedCredentials {
            let owner = scenario.registrations.first { $0.credentialId == credentialId }?.user ?? []
            steps.append(try step(.webAuthnDeletion, [.credentialId: credentialId, .user: owner], scenario, steps, breaking: rule))
        }
        for assertion in scenario.assertions {
            let output = try assertion.render()
            var inputs: [InputKey: [UInt8]] = [.credentialId: output.credentialId, .clientDataJSON: output.clientDataJSON,
                          .authenticatorData: output.authenticatorData, .signature: output.signature,
                          .challenge: output.challenge, .user: output.user, .credentialJSON: output.credentialJSON]
            inputs[.userHandle] = output.userHandle
            inputs[.allowCredentials] = assertion.allowCredentials.map(WebAuthnAssertionBlueprint.allowCredentialsJSON)
            inputs[.challengeSession] = scenario.challengeSessions[steps.count].map { Array($0.utf8) }
            steps.append(try step(.webAuthnAssertion, inputs, scenario, steps, breaking: rule))
        }
        return steps
    }

    /// The next step of `scenario` after `earlier`: a replay carries the replayed step's inputs exactly.
    static func step(_ kind: StepKind, _ inputs: [InputKey: [UInt8]], _ scenario: WebAuthnScenario, _ earlier: [Step],
                     breaking rule: RuleID?) throws -> Step {
        let index = earlier.count
        let repetition = scenario.repetitions[index]
        var inputs = inputs
        if let repetition {
            guard earlier.indices.contains(repetition.step), earlier[repetition.step].kind == kind else {
                throw CatalogueError.badRepetition(step: index, repeats: repetition.step)
            }
            if repetition.kind == .replay { inputs = earlier[repetition.step].inputs }
        }
        return Step(kind: kind, inputs: inputs, breaks: scenario.brokenStep == index ? rule : nil, repeats: repetition)
    }

    /// Applies `change` to the last registration.
    static func registration(_ scenario: inout WebAuthnScenario, _ change: (inout RegistrationBlueprint) throws -> Void) rethrows {
        try change(&scenario.registrations[scenario.registrations.count - 1])
    }

    static let otherHost = "https://login.attest-harness.example.evil.test"

    /// The domain above `rpId` (`login.example.com` → `example.com`).
    static func parentDomain(_ rpId: String) -> String { rpId.split(separator: ".").dropFirst().joined(separator: ".") }

    /// An origin (`scheme://host[:port]`) spelled as a URL parser would still read as the same host.
    enum OriginSpelling {
        static func parts(_ origin: String) -> (scheme: String, host: String, port: String?) {
            let scheme = origin.components(separatedBy: "://").first ?? "https"
            let rest = origin.components(separatedBy: "://").dropFirst().joined(separator: "://")
            let hostPort = rest.split(separator: ":", maxSplits: 1).map(String.init)
            return (scheme, hostPort.first ?? rest, hostPort.count > 1 ? hostPort[1] : nil)
        }

        static func withUserinfo(_ origin: String, _ user: String) -> String {
            let (scheme, host, port) = parts(origin)
            return "\(scheme)://\(user)@\(host)" + (port.map { ":\($0)" } ?? "")
        }

        static func withDefaultPort(_ origin: String) -> String {
            let (scheme, host, _) = parts(origin)
            return "\(scheme)://\(host):\(scheme == "http" ? 80 : 443)"
        }

        static func withUpperCaseHost(_ origin: String) -> String {
            let (scheme, host, port) = parts(origin)
            return "\(scheme)://\(host.uppercased())" + (port.map { ":\($0)" } ?? "")
        }
    }

    /// Makes `key` the registered credential and the signer of every assertion.
    static func credential(_ scenario: inout WebAuthnScenario, _ key: PrivateKey, algorithm: COSEKey.Algorithm? = nil) throws {
        for index in scenario.registrations.indices {
            scenario.registrations[index].credentialKey = key
            scenario.registrations[index].credentialAlgorithm = algorithm
        }
        for index in scenario.assertions.indices {
            scenario.assertions[index].signingKey = key
            scenario.assertions[index].algorithm = algorithm
        }
    }

    /// `bytes` with the last bit flipped: the smallest change to a challenge.
    static func flippingLastBit(_ bytes: [UInt8]) -> [UInt8] {
        var flipped = bytes
        if let last = flipped.indices.last { flipped[last] ^= 0x01 }
        return flipped
    }

    /// Every case for a relying party that offers `algorithms` (COSE values): the algorithm matrix depends on them.
    static func definitions(offering algorithms: [Int64]) -> [Definition] {
        valid + algorithmDefinitions(offering: algorithms) + selfAttestedAlgorithmDefinitions(offering: algorithms) + registrationDefinitions + formatDefinitions + anyAttestationDefinitions
            + metadataDefinitions
            + assertionDefinitions + clientDataMemberDefinitions + credentialJSONDefinitions
    }

    /// The credential's JSON envelope broken one member at a time, in each ceremony (the FIDO server tool's
    /// response-structure checks), and a registration whose sent id is not the attested one (The State of Passkeys).
    static let credentialJSONDefinitions: [Definition] = {
        typealias Edit = @Sendable (inout CredentialJSON.Members) -> Void
        /// Writes `response.name` as `value`, or leaves it out when nil.
        func response(_ name: String, _ value: CredentialJSON.JSONMember?) -> Edit {
            { members in
                guard case .object(var response)? = members["response"] else { return }
                response[name] = value
                members["response"] = .object(response)
            }
        }
        /// Rewrites the base64url text of `response.name` as padded standard base64.
        func standardBase64(_ name: String) -> Edit {
            { members in
                guard case .object(var response)? = members["response"], case .text(let text)? = response[name],
                      let bytes = Base64URL.decode(text) else { return }
                response[name] = .text(Data(bytes).base64EncodedString() + (bytes.count % 3 == 0 ? "==" : ""))
                members["response"] = .object(response)
            }
        }
        let both: [(variant: String, words: String, edit: Edit)] = [
            ("missing-id", "has no id", { $0["id"] = nil }),
            ("id-number", "has an id that is a number", { $0["id"] = .number(1) }),
            ("id-not-base64url", "has an id in padded standard base64", { members in
                if case .text(let id)? = members["id"], let bytes = Base64URL.decode(id) {
                    members["id"] = .text(Data(bytes).base64EncodedString() + (bytes.count % 3 == 0 ? "==" : ""))
                }
            }),
            ("rawid-differs", "has a rawId that is not its id", { $0["rawId"] = .text("b3RoZXItY3JlZGVudGlhbC1pZA") }),
            ("missing-type", "has no type", { $0["type"] = nil }),
            ("type-number", "has a type that is a number", { $0["type"] = .number(1) }),
            ("type-not-public-key", "has type \"public-key-x\"", { $0["type"] = .text("public-key-x") }),
            ("missing-response", "has no response", { $0["response"] = nil }),
            ("response-not-object", "has a response that is a string", { $0["response"] = .text("response") }),
            ("client-data-missing", "has no response.clientDataJSON", response("clientDataJSON", nil)),
            ("client-data-number", "has response.clientDataJSON as a number", response("clientDataJSON", .number(1))),
            ("client-data-empty", "has response.clientDataJSON as an empty string", response("clientDataJSON", .text(""))),
        ]
        let registrationOnly: [(variant: String, words: String, edit: Edit)] = [
            ("attestation-object-missing", "has no response.attestationObject", response("attestationObject", nil)),
            ("attestation-object-number", "has response.attestationObject as a number", response("attestationObject", .number(1))),
            ("attestation-object-empty", "has response.attestationObject as an empty string", response("attestationObject", .text(""))),
        ]
        let assertionOnly: [(variant: String, words: String, edit: Edit)] = [
            ("authenticator-data-missing", "has no response.authenticatorData", response("authenticatorData", nil)),
            ("authenticator-data-number", "has response.authenticatorData as a number", response("authenticatorData", .number(1))),
            ("authenticator-data-not-base64url", "has response.authenticatorData in padded standard base64", standardBase64("authenticatorData")),
            ("authenticator-data-empty", "has response.authenticatorData as an empty string", response("authenticatorData", .text(""))),
            ("signature-missing", "has no response.signature", response("signature", nil)),
            ("signature-number", "has response.signature as a number", response("signature", .number(1))),
            ("signature-not-base64url", "has response.signature in padded standard base64", standardBase64("signature")),
            ("signature-empty", "has response.signature as an empty string", response("signature", .text(""))),
            ("user-handle-number", "has response.userHandle as a number", response("userHandle", .number(1))),
        ]
        var definitions: [Definition] = []
        for (variant, words, edit) in both + registrationOnly {
            definitions.append(Definition(variant: "registration-\(variant)", rule: .webAuthnCredentialJSON, importance: .medium,
                                          description: "The registration's credential JSON (RegistrationResponseJSON) \(words).",
                                          baseline: .registration(.packed)) { scenario, _ in
                registration(&scenario) { $0.credentialJSONEdit = edit }
            })
        }
        for (variant, words, edit) in both + assertionOnly {
            definitions.append(Definition(variant: "assertion-\(variant)", rule: .webAuthnCredentialJSON, importance: .medium,
                                          description: "The assertion's credential JSON (AuthenticationResponseJSON) \(words).",
                                          baseline: .assertions(.packed, [1])) { scenario, _ in
                scenario.lastAssertion.credentialJSONEdit = edit
            })
        }
        definitions.append(Definition(variant: "registration-other-id", rule: .webAuthnCredentialIdBinding, importance: .critical,
                                      description: "The registration's id and rawId name another credential id than the one attested in authenticatorData, consistently in every input.",
                                      baseline: .registration(.packed)) { scenario, forge in
            let other = try forge.credentialId("unbound")
            registration(&scenario) { $0.sentCredentialId = other }
        })
        return definitions
    }()

    /// Registrations judged with a FIDO metadata BLOB (MDS3) as the relying party's source of attestation trust.
    static func withMetadata(_ scenario: inout WebAuthnScenario, _ forge: WebAuthnForge, roots: [X509Certificate]? = nil,
                             _ change: (inout MetadataBLOB) throws -> Void = { _ in }) rethrows {
        var metadata = forge.metadata(aaguid: scenario.registrations[0].aaguid, roots: roots ?? [forge.pki.attestationRoot.certificate])
        try change(&metadata)
        scenario.metadata = metadata
    }

    /// A packed registration whose attestation certificate is issued by the intermediate under the FIDO root.
    static func viaIntermediate(_ scenario: inout WebAuthnScenario, _ intermediate: CertificateAuthority) {
        registration(&scenario) {
            $0.packed {
                $0.issuer = intermediate
                $0.appended = [intermediate.certificate]
            }
        }
    }

    /// The attestation object's top level broken one member at a time (FIDO server conformance
    /// ServerAuthenticatorAttestationResponse-Resp-3 F-1 to F-8): §7.1 step 13 cannot obtain fmt, attStmt and authData
    /// from any of these. Without authData nothing can be read (`unreadable`); without a usable fmt or attStmt, a
    /// relying party that treats every credential as unattested can still read the credential, and a verifier
    /// without the rule does (the reference's named leniency: such a registration is read as unattested).
    package struct AttestationObjectShape: Sendable {
        package let variant: String
        let rule: RuleID
        let description: String
        let unreadable: Bool
        package let edit: @Sendable ([CBORMapEntry]) -> CBORValue
    }

    /// Also a hunt's mutations of any registration's attestation object (`WebAuthnMutations.attestationObject`).
    package static let attestationObjectShapes: [AttestationObjectShape] = {
        func replacing(_ key: String, with value: CBORValue?) -> @Sendable ([CBORMapEntry]) -> CBORValue {
            { entries in .map(entries.compactMap { $0.key == .text(key) ? value.map { CBORMapEntry(.text(key), $0) } : $0 }) }
        }
        return [
            .init(variant: "attestation-object-not-a-map", rule: .webAuthnStructure,
                  description: "The attestation object is a CBOR array of the three values, not a map (FIDO Resp-3 F-1).",
                  unreadable: true, edit: { .array($0.map(\.value)) }),
            .init(variant: "attestation-object-without-fmt", rule: .webAuthnStructure,
                  description: "A relying party that accepts any attestation: the none registration's attestation object has attStmt and authData but no fmt (FIDO Resp-3 F-2).",
                  unreadable: false, edit: replacing("fmt", with: nil)),
            .init(variant: "attestation-object-fmt-not-text", rule: .webAuthnStructure,
                  description: "A relying party that accepts any attestation: the none registration's fmt is the integer 1, not a text string (FIDO Resp-3 F-3).",
                  unreadable: false, edit: replacing("fmt", with: .unsigned(1))),
            .init(variant: "attestation-object-without-attstmt", rule: .webAuthnStructure,
                  description: "A relying party that accepts any attestation: the none registration's attestation object has fmt and authData but no attStmt (FIDO Resp-3 F-4).",
                  unreadable: false, edit: replacing("attStmt", with: nil)),
            .init(variant: "attstmt-not-a-map", rule: .webAuthnStatementStructure,
                  description: "A relying party that accepts any attestation: the none registration's attStmt is a text string, not a map (FIDO Resp-3 F-5).",
                  unreadable: false, edit: replacing("attStmt", with: .text("none"))),
            .init(variant: "attestation-object-without-authdata", rule: .webAuthnStructure,
                  description: "The attestation object has fmt and attStmt but no authData (FIDO Resp-3 F-6).",
                  unreadable: true, edit: replacing("authData", with: nil)),
            .init(variant: "attestation-object-authdata-not-bytes", rule: .webAuthnStructure,
                  description: "The attestation object's authData is a text string, not a byte string (FIDO Resp-3 F-7).",
                  unreadable: true, edit: replacing("authData", with: .text("authenticator data"))),
            .init(variant: "registration-authdata-empty", rule: .webAuthnAuthenticatorData,
                  description: "The attestation object's authData is an empty byte string (FIDO Resp-3 F-8).",
                  unreadable: true, edit: replacing("authData", with: .bytes([]))),
        ]
    }()

    /// A relying party on an internationalized host: `bücher.` before the relying party id, whose ASCII form
    /// (IDNA 2008, RFC 5891 §4; RFC 3492 Punycode) is `xn--bcher-kva.`. The rp id and origins are the ASCII form, as
    /// an origin's serialization has it (HTML's "ASCII serialization of an origin"), and every ceremony of the
    /// scenario is made for it; `origin` gives the client data's origin of every ceremony.
    static func onInternationalizedHost(_ scenario: inout WebAuthnScenario, _ forge: WebAuthnForge,
                                        origin: (_ ascii: String, _ unicode: String) -> String) {
        let ascii = "xn--bcher-kva." + forge.rpId, unicode = "bücher." + forge.rpId
        scenario.parameterOverrides["rpId"] = ascii
        scenario.parameterOverrides["origins"] = "https://" + ascii
        let sent = origin("https://" + ascii, "https://" + unicode)
        for index in scenario.registrations.indices {
            scenario.registrations[index].rpIdHash = sha256(Array(ascii.utf8))
            scenario.registrations[index].clientData.origin = sent
        }
        for index in scenario.assertions.indices {
            scenario.assertions[index].rpIdHash = sha256(Array(ascii.utf8))
            scenario.assertions[index].clientData.origin = sent
        }
    }

    /// The user registers a second packed passkey after the first; the assertion's options allow only the first
    /// (unless `allowingFirst` is false: then they list none, as for a discoverable credential), and the assertion is
    /// a valid one by registration `assertingWith` (0 the first, 1 the second).
    static func withSecondPasskey(_ scenario: inout WebAuthnScenario, _ forge: WebAuthnForge, assertingWith index: Int,
                                  allowingFirst: Bool = true) throws {
        let first = scenario.registrations[0]
        var second = try forge.registration(.packed, user: "alice", credential: "alice second passkey")
        second.user = first.user
        scenario.registrations.append(second)
        var assertion = try forge.assertion(by: scenario.registrations[index], signCount: 1,
                                            label: allowingFirst ? "allow-credentials" : "second passkey")
        if allowingFirst { assertion.allowCredentials = [first.credentialId] }
        scenario.lastAssertion = assertion
    }

    /// The packed intermediate re-issued by the attestation root with a validity that ended a day before the ceremony.
    static func expiredPackedIntermediate(_ forge: WebAuthnForge) throws -> CertificateAuthority {
        let current = forge.pki.packedIntermediate
        return CertificateAuthority(certificate: try CertificateAuthority.issue(
            serial: current.certificate.serialNumber, subject: try current.name, key: current.key.publicKey,
            issuer: try forge.pki.attestationRoot.name, signer: forge.pki.attestationRoot.key,
            validity: (forge.time - 800 * 86_400, forge.time - 86_400),
            extensions: CertificateAuthority.caExtensions(current.key, issuer: forge.pki.attestationRoot.key, pathLength: 0)),
            key: current.key)
    }

    /// A relying party that accepts any attestation (`attestation: none`, the WebAuthn default conveyance): self
    /// and none statements are valid, and what a self statement or a none statement still has to be is checked.
    static let anyAttestationDefinitions: [Definition] = [
        Definition(variant: "none", rule: nil, importance: .high,
                   description: "A relying party that accepts any attestation: a none registration, then an assertion.",
                   baseline: .assertions(.none, [1])) { scenario, _ in
            scenario.parameterOverrides["attestation"] = "none"
        },
        Definition(variant: "packed-self", rule: nil, importance: .high,
                   description: "A relying party that accepts any attestation: a self (surrogate) packed registration signed by the credential key, then an assertion.",
                   baseline: .assertions(.packedSelf, [1])) { scenario, _ in
            scenario.parameterOverrides["attestation"] = "none"
        },
        // Either verdict conforms: a relying party that accepts any attestation may treat the credential as
        // unattested and ignore the statement (end of §7.1), or verify the self signature and refuse it.
        Definition(variant: "packed-self-other-data", rule: .webAuthnAttestationSignature, importance: .high,
                   description: "A relying party that accepts any attestation: the self packed signature covers other data (either verdict conforms: §7.1 lets it treat the credential as unattested).",
                   baseline: .registration(.packedSelf), either: true) { scenario, _ in
            scenario.parameterOverrides["attestation"] = "none"
            registration(&scenario) { $0.packed { $0.signedMessage = Array(repeating: 0x41, count: 69) } }
        },
        Definition(variant: "packed-self-alg-differs", rule: .webAuthnAttestationSignature, importance: .medium,
                   description: "A relying party that accepts any attestation: the self packed statement says alg -257 (RS256) over a signature by the ES256 credential key (§8.2 requires alg to match the credential key; either verdict conforms, as the relying party may treat the credential as unattested).",
                   baseline: .registration(.packedSelf), either: true) { scenario, _ in
            scenario.parameterOverrides["attestation"] = "none"
            registration(&scenario) { $0.packed { $0.algorithmOverride = COSEKey.Algorithm.rs256.rawValue } }
        },
        Definition(variant: "none-with-statement", rule: .webAuthnStatementStructure, importance: .low,
                   description: "A relying party that accepts any attestation: fmt is none but attStmt carries a full packed statement (§8.7: attStmt is an empty map).",
                   baseline: .registration(.packed)) { scenario, _ in
            scenario.parameterOverrides["attestation"] = "none"
            registration(&scenario) { $0.formatOverride = WebAuthnFormat.none }
        },
    ]

    static let metadataDefinitions: [Definition] = [
        Definition(variant: "metadata", rule: nil, importance: .critical,
                   description: "A packed registration and an assertion, with a FIDO metadata BLOB whose entry for the AAGUID (FIDO_CERTIFIED_L1) names the test FIDO root.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            try withMetadata(&scenario, forge)
        },
        Definition(variant: "metadata-intermediate-root", rule: nil, importance: .high,
                   description: "The metadata entry names the intermediate that issued the attestation certificate, not the root, as the model's attestation root: the path ends at that intermediate.",
                   baseline: .registration(.packed)) { scenario, forge in
            viaIntermediate(&scenario, forge.pki.packedIntermediate)
            try withMetadata(&scenario, forge, roots: [forge.pki.packedIntermediate.certificate])
        },
        Definition(variant: "metadata-intermediate-root-expired", rule: .chainValidity, importance: .high,
                   description: "The metadata names an intermediate as the model's attestation root and that intermediate has expired: an anchor from metadata is still checked (SimpleWebAuthn #647).",
                   baseline: .registration(.packed)) { scenario, forge in
            let expired = try expiredPackedIntermediate(forge)
            viaIntermediate(&scenario, expired)
            try withMetadata(&scenario, forge, roots: [expired.certificate])
        },
        Definition(variant: "blob-other-key", rule: .webAuthnMetadataSignature, importance: .critical,
                   description: "The metadata BLOB is signed by another key than its signing certificate's (a tampered BLOB).",
                   baseline: .registration(.packed)) { scenario, forge in
            let other = try forge.seed.key(.ec(.p256), "webauthn metadata other signer")
            try withMetadata(&scenario, forge) { $0.signer = other }
        },
        Definition(variant: "blob-attacker-root", rule: .webAuthnMetadataChain, importance: .critical,
                   description: "The metadata BLOB is validly signed by a certificate from an attacker's look-alike metadata root.",
                   baseline: .registration(.packed)) { scenario, forge in
            let attacker = try WebAuthnPKI.attacker(seed: forge.seed)
            try withMetadata(&scenario, forge) {
                $0.signingKey = attacker.metadataSigner.key
                $0.chain = [attacker.metadataSigner.certificate]
            }
        },
        Definition(variant: "blob-stale", rule: .webAuthnMetadataNextUpdate, importance: .medium,
                   description: "The metadata BLOB's nextUpdate was ten days before the registration: the relying party judges with stale metadata.",
                   baseline: .registration(.packed)) { scenario, forge in
            try withMetadata(&scenario, forge) { $0.nextUpdate = forge.time - 10 * 86_400 }
        },
        Definition(variant: "aaguid-absent", rule: .webAuthnMetadataEntry, importance: .high,
                   description: "The metadata BLOB has no entry for the authenticator's AAGUID (only another model's).",
                   baseline: .registration(.packed)) { scenario, forge in
            try withMetadata(&scenario, forge) { $0.entries[0].aaguid = Array(repeating: 0x5A, count: 16) }
            scenario.directAnchorsBesideMetadata = true
        },
    ] + (FIDOMetadata.revokingStatuses.sorted().map { ($0, RuleID.webAuthnMetadataRevoked) }
         + FIDOMetadata.compromisedStatuses.sorted().map { ($0, RuleID.webAuthnMetadataStatus) }).map { status, rule in
        Definition(variant: status.lowercased().replacingOccurrences(of: "_", with: "-"), rule: rule,
                   importance: .critical,
                   description: "The metadata's latest status report for the authenticator's AAGUID is \(status).",
                   baseline: .registration(.packed)) { scenario, forge in
            try withMetadata(&scenario, forge) { $0.entries[0].statuses = ["FIDO_CERTIFIED_L1", status] }
        }
    }


    /// The credential algorithms of the FIDO server tool's matrix (ES256 is every other case's): the key each is forged
    /// with, and what to call it.
    static let algorithmMatrix: [(variant: String, algorithm: COSEKey.Algorithm, key: KeyAlgorithm, label: String, words: String)] = [
        ("es384", .es384, .ec(.p384), "p384", "P-384 ECDSA SHA-384"), ("es512", .es512, .ec(.p521), "p521", "P-521 ECDSA SHA-512"),
        ("eddsa", .edDSA, .ed25519, "ed25519", "Ed25519 EdDSA"),
        ("rs256", .rs256, .rsa(bits: 2048), "rsa", "RSA-2048 RSASSA-PKCS1-v1_5 SHA-256"),
        ("rs384", .rs384, .rsa(bits: 2048), "rsa", "RSA-2048 RSASSA-PKCS1-v1_5 SHA-384"),
        ("rs512", .rs512, .rsa(bits: 2048), "rsa", "RSA-2048 RSASSA-PKCS1-v1_5 SHA-512"),
        ("ps256", .ps256, .rsa(bits: 2048), "rsa", "RSA-2048 RSASSA-PSS SHA-256"),
        ("ps384", .ps384, .rsa(bits: 2048), "rsa", "RSA-2048 RSASSA-PSS SHA-384"),
        ("ps512", .ps512, .rsa(bits: 2048), "rsa", "RSA-2048 RSASSA-PSS SHA-512"),
        ("rs1", .rs1, .rsa(bits: 2048), "rsa", "RSA-2048 RSASSA-PKCS1-v1_5 SHA-1"),
    ]

    /// Per matrix algorithm: a packed registration and an assertion with a credential of that algorithm, accepted
    /// when the relying party offers it (§7.1 step 20 passes, §7.2 step 21 verifies under it) and refused under
    /// webauthn.algorithm when it does not.
    static func algorithmDefinitions(offering algorithms: [Int64]) -> [Definition] {
        algorithmMatrix.map { entry in
            let name = "\(String(describing: entry.algorithm).uppercased()) (\(entry.algorithm.rawValue))"
            let mutate: @Sendable (inout WebAuthnScenario, WebAuthnForge) throws -> Void = { scenario, forge in
                try credential(&scenario, try forge.seed.key(entry.key, "webauthn credential \(entry.label)"), algorithm: entry.algorithm)
            }
            guard algorithms.contains(entry.algorithm.rawValue) else {
                return Definition(variant: "not-offered-\(entry.variant)", rule: .webAuthnAlgorithm, importance: .medium,
                                  description: "The credential is \(entry.words), \(name), which the relying party did not offer.",
                                  baseline: .registration(.packed), mutate: mutate)
            }
            return Definition(variant: entry.variant, rule: nil, importance: .high,
                              description: "A packed registration of a \(entry.words) credential (\(name), offered), then an assertion it signs.",
                              baseline: .assertions(.packed, [1]), mutate: mutate)
        }
    }

    /// Per offered matrix algorithm (and ES256), the FIDO tool's form: a self packed registration whose statement the
    /// credential key signs under that algorithm, then an assertion, for a relying party that accepts any attestation.
    static func selfAttestedAlgorithmDefinitions(offering algorithms: [Int64]) -> [Definition] {
        algorithmMatrix.filter { algorithms.contains($0.algorithm.rawValue) }.map { entry in
            let name = "\(String(describing: entry.algorithm).uppercased()) (\(entry.algorithm.rawValue))"
            return Definition(variant: "\(entry.variant)-self", rule: nil, importance: .medium,
                              description: "A relying party that accepts any attestation: a self packed registration of a \(entry.words) credential, its statement signed under \(name), then an assertion.",
                              baseline: .assertions(.packedSelf, [1])) { scenario, forge in
                try credential(&scenario, try forge.seed.key(entry.key, "webauthn credential \(entry.label)"), algorithm: entry.algorithm)
                scenario.parameterOverrides["attestation"] = "none"
            }
        }
    }

    /// clientDataJSON with its type, challenge or origin missing, a number, or empty, in each ceremony: the FIDO
    /// server tool's CollectedClientData checks (F-1 to F-3, F-6 to F-8, F-11 to F-13 of both ceremonies). The step
    /// that reads the member fails under its rule.
    static let clientDataMemberDefinitions: [Definition] = {
        let members: [(key: String, rule: RuleID)] = [("type", .webAuthnType), ("challenge", .webAuthnChallenge), ("origin", .webAuthnOrigin)]
        let forms: [(name: String, json: String?, words: String)] = [("missing", nil, "missing"), ("number", "1", "the number 1"),
                                                                    ("empty", "\"\"", "an empty string")]
        var definitions: [Definition] = []
        for (key, rule) in members {
            for form in forms {
                definitions.append(Definition(variant: "\(form.name)-in-registration", rule: rule, importance: .high,
                                              description: "clientDataJSON.\(key) is \(form.words) in a registration.",
                                              baseline: .registration(.packed)) { scenario, _ in
                    registration(&scenario) { $0.clientDataJSONOverride = clientDataJSON($0.clientData, key, form.json) }
                })
                definitions.append(Definition(variant: "\(form.name)-in-assertion", rule: rule, importance: .high,
                                              description: "clientDataJSON.\(key) is \(form.words) in an assertion.",
                                              baseline: .assertions(.packed, [1])) { scenario, _ in
                    scenario.lastAssertion.clientDataJSONOverride = clientDataJSON(scenario.lastAssertion.clientData, key, form.json)
                })
            }
        }
        return definitions
    }()

    /// An attStmt edit that writes member `key` as `value`, or leaves it out when nil.
    static func packedMember(_ key: String, _ value: CBORValue?) -> @Sendable ([CBORMapEntry]) -> [CBORMapEntry] {
        { entries in entries.compactMap { $0.key == .text(key) ? value.map { CBORMapEntry(.text(key), $0) } : $0 } }
    }

    /// `clientData` as JSON with member `key` written as `json` (raw JSON), or left out when nil.
    static func clientDataJSON(_ clientData: CollectedClientData, _ key: String, _ json: String?) -> [UInt8] {
        let members = [("type", CollectedClientData.ccdString(clientData.type)), ("challenge", CollectedClientData.ccdString(clientData.challenge)),
                       ("origin", CollectedClientData.ccdString(clientData.origin)), ("crossOrigin", "false")]
        let written = members.compactMap { name, value -> String? in
            guard name == key else { return "\"\(name)\":\(value)" }
            return json.map { "\"\(name)\":\($0)" }
        }
        return Array(("{" + written.joined(separator: ",") + "}").utf8)
    }

    /// The last registration's tpm statement under alg RS1, its quote and pubArea's Name under SHA-1.
    static func signedWithSHA1(_ scenario: inout WebAuthnScenario) {
        registration(&scenario) {
            $0.tpm {
                $0.algorithm = .rs1
                $0.nameAlg = TPMStructures.algorithmSHA1
            }
        }
    }

    /// TPM vendors with a valid case of their own, beside the forge's default (Infineon).
    static let tpmVendors: [TPMStatement.Vendor] = [.microsoft, .intel, .stMicroelectronics, .nuvoton]

    static let valid: [Definition] = [
        Definition(variant: "packed", rule: nil, importance: .critical,
                   description: "A packed registration with a full attestation chain, then assertions with counters 1 and 2.",
                   baseline: .assertions(.packed, [1, 2])) { _, _ in },
        Definition(variant: "android-key", rule: nil, importance: .critical,
                   description: "An android-key registration from the relying party's Android app (apk-key-hash origin), then an assertion.",
                   baseline: .assertions(.androidKey, [1])) { _, _ in },
        Definition(variant: "fido-u2f", rule: nil, importance: .critical,
                   description: "A fido-u2f registration (§8.6: one P-256 attestation certificate under the test FIDO root, zero AAGUID), then an assertion.",
                   baseline: .assertions(.fidoU2F, [1])) { _, _ in },
        Definition(variant: "tpm", rule: nil, importance: .critical,
                   description: "A tpm registration of an RSA-2048 credential (RS256 AIK, SHA-256 names; AIK certificate per §8.3.1 under a TPM CA below the test FIDO root), then an assertion.",
                   baseline: .assertions(.tpm, [1])) { _, _ in },
        Definition(variant: "tpm-ecc", rule: nil, importance: .high,
                   description: "A tpm registration of a P-256 credential (an ECC pubArea) certified by the RSA AIK (a real device combination: the statement's alg is the AIK's RS256, not the credential's ES256), then an assertion.",
                   baseline: .assertions(.tpmECC, [1])) { _, _ in },
        Definition(variant: "tpm-rs1", rule: nil, importance: .medium,
                   description: "A tpm registration as TPMs that sign only with SHA-1 make it: alg RS1 (-65535), the quote and pubArea's Name under SHA-1 (§8.3 takes the hash from alg; FIDO ServerAuthenticatorAttestationResponse-Resp-4 P-8 requires RS1 to be accepted).",
                   baseline: .registration(.tpm)) { scenario, _ in
            signedWithSHA1(&scenario)
        },
        Definition(variant: "tpm-ecc-rs1", rule: nil, importance: .high,
                   description: "A tpm registration in the shape Windows Hello sends: a P-256 credential (ECC pubArea) certified by the RSA AIK under alg RS1, SHA-1 quote and Name.",
                   baseline: .registration(.tpmECC)) { scenario, _ in
            signedWithSHA1(&scenario)
        },
        Definition(variant: "tpm-name-sha384", rule: nil, importance: .medium,
                   description: "A tpm registration whose pubArea.nameAlg (SHA-384) differs from the hash of alg (SHA-256): the Name is computed with nameAlg, extraData with alg's hash.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.nameAlg = TPMStructures.algorithmSHA384 } }
        },
    ] + tpmVendors.map { vendor in
        Definition(variant: "tpm-vendor-\(vendor.name.split(separator: " ")[0].lowercased())", rule: nil, importance: .medium,
                   description: "A tpm registration whose AIK certificate names \(vendor.name) (\"\(vendor.id)\", TCG Vendor ID Registry) as the TPM manufacturer: §8.3.1 asks for a registered vendor id, not one from a list of a few.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.certificate.alternativeName?.manufacturer = vendor.id } }
        }
    } + [
        Definition(variant: "android-safetynet", rule: nil, importance: .high,
                   description: "An android-safetynet registration (a SafetyNet JWS from a second before, signed by attest.android.com under a test root; deprecated by Google in 2024 but still accepted by relying parties), then an assertion.",
                   baseline: .assertions(.androidSafetyNet, [1])) { _, _ in },
        Definition(variant: "idn-relying-party", rule: nil, importance: .medium,
                   description: "A relying party on an internationalized host (bücher., sent as xn--bcher-kva.): rp id and origin in their ASCII form, as browsers serialize origins; a packed registration.",
                   baseline: .registration(.packed)) { scenario, forge in
            onInternationalizedHost(&scenario, forge) { ascii, _ in ascii }
        },
        Definition(variant: "allow-credentials", rule: nil, importance: .high,
                   description: "The user has two passkeys; the options list the first in allowCredentials and the assertion is by it (§7.2 step 5).",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            try withSecondPasskey(&scenario, forge, assertingWith: 0)
        },
        Definition(variant: "second-passkey", rule: nil, importance: .high,
                   description: "The user registers a second passkey (a relying party stores each, §7.1 step 27; its options SHOULD list the first in excludeCredentials, §5.4) and the assertion is by the second.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            try withSecondPasskey(&scenario, forge, assertingWith: 1, allowingFirst: false)
        },
        Definition(variant: "uv-discouraged", rule: nil, importance: .high,
                   description: "A relying party that asks for userVerification \"discouraged\": a registration and an assertion with UP set and UV clear (§7.1 step 16 and §7.2 step 17 check UV only when it is required; FIDO ServerAuthenticatorAssertionResponse-Resp-3 P-5).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.parameterOverrides["userVerification"] = "discouraged"
            registration(&scenario) { _ = $0.flags.remove(.userVerified) }
            scenario.lastAssertion.flags.remove(.userVerified)
        },
        Definition(variant: "uv-discouraged-uv-set", rule: nil, importance: .medium,
                   description: "A relying party that asks for userVerification \"discouraged\": the authenticator verified the user anyway (UV set in the registration and the assertion), which is no reason to refuse (FIDO Resp-3 P-6).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.parameterOverrides["userVerification"] = "discouraged"
        },
        Definition(variant: "packed-p384-batch", rule: nil, importance: .medium,
                   description: "A packed registration whose attestation certificate holds a P-384 batch key (alg ES384, -35), then an assertion.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            let key = try forge.seed.key(.ec(.p384), "webauthn packed batch p384")
            registration(&scenario) { $0.packed { $0.attestationKey = key } }
        },
        Definition(variant: "packed-rsa-batch", rule: nil, importance: .medium,
                   description: "A packed registration whose attestation certificate holds an RSA-2048 batch key (alg RS256, -257), then an assertion.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            let key = try forge.seed.key(.rsa(bits: 2048), "webauthn packed batch rsa")
            registration(&scenario) { $0.packed { $0.attestationKey = key } }
        },
        // Either verdict conforms: §7.1 step 28 and §7.2 leave unsolicited extension outputs to the relying party's
        // policy (a widely used C library refuses an unrequested credProtect).
        Definition(variant: "extension-data", rule: nil, importance: .high,
                   description: "A packed registration and an assertion whose authenticator data carry extension outputs nobody asked for (ED set, credProtect 2): either verdict conforms, since §7.1 step 28 and §7.2 leave unsolicited extensions to the relying party's policy.",
                   baseline: .assertions(.packed, [1]), either: true) { scenario, _ in
            // {"credProtect": 2}
            let extensions: [UInt8] = [0xA1, 0x6B] + Array("credProtect".utf8) + [0x02]
            scenario.registrations[0].flags.insert(.extensionData)
            scenario.registrations[0].authenticatorDataSuffix = extensions
            scenario.lastAssertion.flags.insert(.extensionData)
            scenario.lastAssertion.authenticatorDataSuffix = extensions
        },
        Definition(variant: "apple-synced-counter-zero", rule: nil, importance: .critical,
                   description: "An apple anonymous registration of a synced passkey (BE and BS set), then two assertions whose counter stays 0.",
                   baseline: .assertions(.apple, [0, 0])) { scenario, _ in
            scenario.registrations[0].flags.formUnion([.backupEligible, .backedUp])
            for index in scenario.assertions.indices { scenario.assertions[index].flags.formUnion([.backupEligible, .backedUp]) }
        },
    ]

    static let registrationDefinitions: [Definition] = [
        // Encodings and structure.
        Definition(variant: "attestation-object", rule: .cborTrailingBytes, importance: .medium,
                   description: "A zero byte after the attestation object.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.encoding = .trailingBytes([0x00]) }
        },
        Definition(variant: "attestation-object", rule: .cborDuplicateMapKey, importance: .medium,
                   description: "The attestation object carries fmt twice.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.encoding = .duplicateKey("fmt") }
        },
        Definition(variant: "attestation-object", rule: .cborIndefiniteLength, importance: .low,
                   description: "The attestation object is an indefinite-length map.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.encoding = .indefiniteLengthMap }
        },
        Definition(variant: "extra-key", rule: .webAuthnStructure, importance: .low,
                   description: "The attestation object has a fourth key.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.encoding = .extraKey("extra", .unsigned(0)) }
        },
        // The attestation object's shape (FIDO server conformance ServerAuthenticatorAttestationResponse-Resp-3):
        // nothing can be read past these, so every profile expects them refused.
    ] + attestationObjectShapes.map { shape in
        // A fault of fmt or attStmt leaves the credential readable to a relying party that treats every credential
        // as unattested: such cases are made for one (attestation none), on a none registration.
        Definition(variant: shape.variant, rule: shape.rule, importance: .high, description: shape.description,
                   baseline: .registration(shape.unreadable ? .packed : .none), unreadable: shape.unreadable) { scenario, _ in
            if !shape.unreadable { scenario.parameterOverrides["attestation"] = "none" }
            registration(&scenario) { $0.objectEdit = shape.edit }
        }
    } + [
        Definition(variant: "registration-attested-flag-set-without-data", rule: .webAuthnAuthenticatorData, importance: .high,
                   description: "The registration's AT flag is set but no attested credential data follows the counter (FIDO Resp-3 F-11): there is no credential to register.",
                   baseline: .registration(.packed), unreadable: true) { scenario, _ in
            registration(&scenario) { $0.omitAttestedCredentialData = true }
        },
        Definition(variant: "registration-without-attested-data", rule: .webAuthnAuthenticatorData, importance: .high,
                   description: "The registration's AT flag is clear and no attested credential data follows (FIDO Resp-3 F-10): 37 bytes of authenticator data, no credential to register.",
                   baseline: .registration(.packed), unreadable: true) { scenario, _ in
            registration(&scenario) {
                _ = $0.flags.remove(.attestedCredentialData)
                $0.omitAttestedCredentialData = true
            }
        },
        Definition(variant: "registration-attested-flag-clear", rule: .webAuthnAuthenticatorData, importance: .medium,
                   description: "The registration's AT flag is clear while the attested credential data still follows (the statement signs it): a parser that never reads AT takes the credential, one that honours it finds bytes after the counter that nothing announces.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { _ = $0.flags.remove(.attestedCredentialData) }
        },
        Definition(variant: "registration-trailing-bytes", rule: .webAuthnAuthenticatorData, importance: .medium,
                   description: "A byte follows the credential public key although ED is clear (the statement signs it).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.authenticatorDataSuffix = [0x00] }
        },

        // Client data.
        Definition(variant: "get-in-registration", rule: .webAuthnType, importance: .high,
                   description: "clientDataJSON.type is webauthn.get in a registration.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.type = WebAuthnFormat.getType }
        },
        Definition(variant: "other-challenge", rule: .webAuthnChallenge, importance: .critical,
                   description: "clientDataJSON carries another challenge than the one issued.", baseline: .registration(.packed)) { scenario, forge in
            let other = try forge.challenge("another registration")
            registration(&scenario) { $0.clientData.challenge = Base64URL.encode(other) }
        },
        Definition(variant: "standard-base64", rule: .webAuthnChallenge, importance: .low,
                   description: "The issued challenge written in padded standard base64, not base64url.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.challenge = Data($0.challenge).base64EncodedString() }
        },
        Definition(variant: "truncated", rule: .webAuthnChallenge, importance: .high,
                   description: "clientDataJSON carries only the first 16 bytes of the issued challenge (a prefix comparison accepts it).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.challenge = Base64URL.encode(Array($0.challenge.prefix(16))) }
        },
        Definition(variant: "other-host", rule: .webAuthnOrigin, importance: .critical,
                   description: "The origin is a look-alike host that only starts with the relying party's.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.origin = otherHost }
        },
        Definition(variant: "http", rule: .webAuthnOrigin, importance: .high,
                   description: "The origin is the relying party's host over http.", baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.clientData.origin = "http://\(forge.rpId)" }
        },
        Definition(variant: "other-apk-key-hash", rule: .webAuthnOrigin, importance: .critical,
                   description: "An android:apk-key-hash origin of an app signed with another certificate.",
                   baseline: .registration(.androidKey)) { scenario, _ in
            registration(&scenario) {
                $0.clientData.origin = WebAuthnFormat.androidOriginPrefix + Base64URL.encode(sha256(Array("another signing certificate".utf8)))
            }
        },
        Definition(variant: "registration", rule: .webAuthnCrossOrigin, importance: .medium,
                   description: "crossOrigin is true although the relying party is never embedded.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.crossOrigin = true }
        },
        Definition(variant: "unexpected-parent", rule: .webAuthnTopOrigin, importance: .medium,
                   description: "topOrigin names a parent the relying party does not expect.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.topOrigin = otherHost }
        },
        // The State of Passkeys topOrigin manipulations: the parent scoped down to a subdomain or up to the parent
        // domain of the relying party (same-site, still not an expected parent), in both ceremonies.
        Definition(variant: "subdomain-parent", rule: .webAuthnTopOrigin, importance: .medium,
                   description: "A registration's topOrigin is a subdomain of the relying party's origin, which it never expects as a parent.",
                   baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.clientData.topOrigin = "https://sub.\(forge.rpId)" }
        },
        Definition(variant: "parent-domain-parent", rule: .webAuthnTopOrigin, importance: .medium,
                   description: "A registration's topOrigin is the parent domain of the relying party's origin, which it never expects as a parent.",
                   baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.clientData.topOrigin = "https://\(parentDomain(forge.rpId))" }
        },
        Definition(variant: "assertion-unexpected-parent", rule: .webAuthnTopOrigin, importance: .medium,
                   description: "An assertion's topOrigin names a cross-site parent the relying party does not expect.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.clientData.topOrigin = otherHost
        },
        Definition(variant: "assertion-subdomain-parent", rule: .webAuthnTopOrigin, importance: .medium,
                   description: "An assertion's topOrigin is a subdomain of the relying party's origin.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.clientData.topOrigin = "https://sub.\(forge.rpId)"
        },
        Definition(variant: "assertion-parent-domain-parent", rule: .webAuthnTopOrigin, importance: .medium,
                   description: "An assertion's topOrigin is the parent domain of the relying party's origin.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.clientData.topOrigin = "https://\(parentDomain(forge.rpId))"
        },
        // The State of Passkeys manipulations (context nonsense, challenge bit flip, origin and RP ID hash scoped
        // up to a subdomain or down to the parent domain), registration side.
        Definition(variant: "nonsense-in-registration", rule: .webAuthnType, importance: .high,
                   description: "clientDataJSON.type is a meaningless string (\"abc.def\") in a registration.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.type = "abc.def" }
        },
        Definition(variant: "bit-flipped", rule: .webAuthnChallenge, importance: .critical,
                   description: "clientDataJSON.challenge is the issued challenge with its last bit flipped.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.challenge = Base64URL.encode(flippingLastBit($0.challenge)) }
        },
        Definition(variant: "subdomain", rule: .webAuthnOrigin, importance: .high,
                   description: "The origin is a subdomain of the relying party's origin (https://sub.RPID).",
                   baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.clientData.origin = "https://sub.\(forge.rpId)" }
        },
        Definition(variant: "parent-domain", rule: .webAuthnOrigin, importance: .high,
                   description: "The origin is the parent domain of the relying party's origin.",
                   baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.clientData.origin = "https://\(parentDomain(forge.rpId))" }
        },
        // The relying party's own origin, written as no browser serializes an origin (scheme, host, port: RFC 6454
        // §6.1, the HTML origin serialization): a parser that takes the host out of a URL accepts each of them.
        Definition(variant: "with-path", rule: .webAuthnOrigin, importance: .high,
                   description: "The origin is the relying party's origin followed by a path (/login): a URL, not an origin.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.origin += "/login" }
        },
        Definition(variant: "trailing-slash", rule: .webAuthnOrigin, importance: .medium,
                   description: "The origin is the relying party's origin with a trailing slash.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.origin += "/" }
        },
        Definition(variant: "userinfo", rule: .webAuthnOrigin, importance: .high,
                   description: "The origin carries userinfo before the relying party's host (scheme://evil.test@host).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.origin = OriginSpelling.withUserinfo($0.clientData.origin, "evil.test") }
        },
        Definition(variant: "explicit-port", rule: .webAuthnOrigin, importance: .medium,
                   description: "The origin names a port the relying party's origin does not: the scheme's default port written out (https://host:443), or, where the origin has a port, the default port instead of it.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.origin = OriginSpelling.withDefaultPort($0.clientData.origin) }
        },
        Definition(variant: "idn-unicode", rule: .webAuthnOrigin, importance: .medium,
                   description: "On a relying party whose host is internationalized (configured as xn--bcher-kva.), the client data's origin spells the host in Unicode (bücher.): not an origin's serialization, which is ASCII; a verifier that converts both to one form before comparing accepts it.",
                   baseline: .registration(.packed), control: "idn-relying-party") { scenario, forge in
            onInternationalizedHost(&scenario, forge) { _, unicode in unicode }
        },
        Definition(variant: "upper-case-host", rule: .webAuthnOrigin, importance: .medium,
                   description: "The origin's host is the relying party's in upper case (origins serialize hosts in lower case).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.clientData.origin = OriginSpelling.withUpperCaseHost($0.clientData.origin) }
        },

        // Authenticator data.
        Definition(variant: "registration", rule: .webAuthnRpIdHash, importance: .critical,
                   description: "rpIdHash is SHA-256 of another relying party id.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.rpIdHash = sha256(Array("evil.test".utf8)) }
        },
        Definition(variant: "registration-subdomain", rule: .webAuthnRpIdHash, importance: .high,
                   description: "rpIdHash is SHA-256 of a subdomain of the relying party id.", baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.rpIdHash = sha256(Array("sub.\(forge.rpId)".utf8)) }
        },
        Definition(variant: "registration-parent-domain", rule: .webAuthnRpIdHash, importance: .high,
                   description: "rpIdHash is SHA-256 of the relying party id's parent domain.", baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.rpIdHash = sha256(Array(parentDomain(forge.rpId).utf8)) }
        },
        Definition(variant: "registration", rule: .webAuthnUserPresent, importance: .high,
                   description: "UP is clear.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { _ = $0.flags.remove(.userPresent) }
        },
        Definition(variant: "registration", rule: .webAuthnUserVerified, importance: .high,
                   description: "UV is clear although the relying party requires user verification.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { _ = $0.flags.remove(.userVerified) }
        },
        Definition(variant: "registration", rule: .webAuthnBackupState, importance: .low,
                   description: "BS is set while BE is clear.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.flags.insert(.backedUp) }
        },

        // Credential key and id.
        Definition(variant: "compressed-point", rule: .webAuthnCredentialKeyFit, importance: .low,
                   description: "The credential's ES256 COSE_Key gives y as its sign bit (a CBOR boolean, RFC 9053 §7.1.1's compressed form), which §5.8.5 forbids WebAuthn keys: a verifier that decompresses it gets the right key.",
                   baseline: .registration(.packed)) { scenario, _ in
            try registration(&scenario) { registration in
                let point = try registration.credentialKey.publicKey.x963Point
                let size = (point.count - 1) / 2
                registration.coseKeyOverride = CBORWriter.encode(.map([
                    CBORMapEntry(.int(1), .int(2)), CBORMapEntry(.int(3), .int(COSEKey.Algorithm.es256.rawValue)),
                    CBORMapEntry(.int(-1), .int(1)), CBORMapEntry(.int(-2), .bytes(Array(point[1...size]))),
                    CBORMapEntry(.int(-3), .bool((point.last ?? 0) & 1 == 1)),
                ]))
            }
        },
        Definition(variant: "point-off-curve", rule: .webAuthnCredentialKeyFit, importance: .low,
                   description: "The credential's ES256 COSE_Key has coordinates of P-256's size whose point is not on the curve (y's last bit flipped): no signature can verify under it, so a verifier that stores it unread registers a credential nobody can use.",
                   baseline: .registration(.packed)) { scenario, _ in
            try registration(&scenario) { registration in
                var point = try registration.credentialKey.publicKey.x963Point
                point[point.count - 1] ^= 0x01
                let size = (point.count - 1) / 2
                registration.coseKeyOverride = CBORWriter.encode(.map([
                    CBORMapEntry(.int(1), .int(2)), CBORMapEntry(.int(3), .int(COSEKey.Algorithm.es256.rawValue)),
                    CBORMapEntry(.int(-1), .int(1)), CBORMapEntry(.int(-2), .bytes(Array(point[1...size]))),
                    CBORMapEntry(.int(-3), .bytes(Array(point[(size + 1)...]))),
                ]))
            }
        },
        Definition(variant: "curve-not-bound", rule: .webAuthnCredentialKeyFit, importance: .medium,
                   description: "The COSE key says ES256 (-7) but holds a P-384 point.",
                   baseline: .registration(.packed)) { scenario, forge in
            let key = try forge.seed.key(.ec(.p384), "webauthn credential p384")
            let coseKey = CBORWriter.encode(try COSEKey(algorithm: .es256, publicKey: key.publicKey).cbor)
            registration(&scenario) {
                $0.credentialKey = key
                $0.coseKeyOverride = coseKey
            }
        },
        Definition(variant: "1024-bytes", rule: .webAuthnCredentialIdLength, importance: .low,
                   description: "The credential id is 1024 bytes.", baseline: .registration(.packed)) { scenario, forge in
            let id = try forge.seed.bytes("webauthn long credential id", count: 1024)
            registration(&scenario) { $0.credentialId = id }
        },
        Definition(variant: "credential-id-1023-bytes", rule: nil, importance: .low,
                   description: "A packed registration whose credential id is 1023 bytes, the longest §7.1 step 25 allows, then an assertion with it.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            let id = try forge.seed.bytes("webauthn longest credential id", count: 1023)
            registration(&scenario) { $0.credentialId = id }
            for index in scenario.assertions.indices { scenario.assertions[index].credentialId = id }
        },
        Definition(variant: "second-registration", rule: .webAuthnCredentialIdUnique, importance: .high,
                   description: "Another user registers a new key under a credential id that is already registered.",
                   baseline: .registration(.packed)) { scenario, forge in
            var second = try forge.registration(.packed, user: "bob", credential: "bob passkey")
            second.credentialId = scenario.registrations[0].credentialId
            scenario.registrations.append(second)
        },

        // Statement format and trust.
        Definition(variant: "unknown", rule: .webAuthnFormat, importance: .high,
                   description: "fmt is \"packed-v2\", which no relying party supports; a verifier that skips unknown statements accepts it.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.formatOverride = "packed-v2" }
        },
        Definition(variant: "none", rule: .webAuthnAttestationRequired, importance: .critical,
                   description: "fmt none although the relying party requires attestation.", baseline: .registration(.none)) { _, _ in },
        Definition(variant: "packed-self", rule: .webAuthnSelfAttestation, importance: .critical,
                   description: "packed self attestation although the relying party requires an attestation chain.",
                   baseline: .registration(.packedSelf)) { _, _ in },
        Definition(variant: "packed-other-data", rule: .webAuthnAttestationSignature, importance: .critical,
                   description: "The packed signature covers other authenticator data.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.signedMessage = Array(repeating: 0x41, count: 69) } }
        },
        Definition(variant: "packed-signed-by-credential-key", rule: .webAuthnAttestationSignature, importance: .critical,
                   description: "A packed statement with x5c whose sig the credential key made (a self signature presented as full attestation).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.signedByCredentialKey = true } }
        },
        Definition(variant: "packed-sig-missing", rule: .webAuthnAttestationSignature, importance: .critical,
                   description: "The packed attStmt has alg and x5c but no sig.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.entriesEdit = packedMember("sig", nil) } }
        },
        Definition(variant: "packed-sig-text", rule: .webAuthnAttestationSignature, importance: .high,
                   description: "The packed attStmt's sig is a text string, not a byte string.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.entriesEdit = packedMember("sig", .text("c2lnbmF0dXJl")) } }
        },
        Definition(variant: "packed-sig-empty", rule: .webAuthnAttestationSignature, importance: .high,
                   description: "The packed attStmt's sig is an empty byte string.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.entriesEdit = packedMember("sig", .bytes([])) } }
        },
        Definition(variant: "packed-alg-missing", rule: .webAuthnAttestationSignature, importance: .high,
                   description: "The packed attStmt has sig and x5c but no alg.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.entriesEdit = packedMember("alg", nil) } }
        },
        Definition(variant: "packed-alg-text", rule: .webAuthnAttestationSignature, importance: .high,
                   description: "The packed attStmt's alg is the text \"-7\", not an integer.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.entriesEdit = packedMember("alg", .text("-7")) } }
        },
        Definition(variant: "packed-alg-other-key-type", rule: .webAuthnAttestationSignature, importance: .high,
                   description: "The packed statement's alg is RS256 (-257) while its ECDSA signature is by the attestation certificate's P-256 key (found by a hunt: a verifier that lets the key's type choose the algorithm accepts it).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.algorithmOverride = COSEKey.Algorithm.rs256.rawValue } }
        },
        Definition(variant: "packed-unknown-alg", rule: .webAuthnAttestationSignature, importance: .high,
                   description: "The packed statement's alg is -65000, which no verifier can compute; it must fail closed.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.algorithmOverride = -65000 } }
        },
        Definition(variant: "packed-attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "x5c ends in an attacker's self-signed root that copies the real root's name.",
                   baseline: .registration(.packed)) { scenario, forge in
            let attacker = try WebAuthnPKI.attacker(seed: forge.seed)
            registration(&scenario) {
                $0.packed {
                    $0.issuer = attacker.attestationRoot
                    $0.attestationKey = attacker.attestationKey
                    $0.appended = [attacker.attestationRoot.certificate]
                }
            }
        },
        Definition(variant: "packed-not-yet-valid", rule: .chainValidity, importance: .high,
                   description: "The packed attestation certificate becomes valid a day after the registration.",
                   baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.packed { $0.validity = (forge.time + 86_400, forge.time + 400 * 86_400) } }
        },
        Definition(variant: "packed-expired", rule: .chainValidity, importance: .high,
                   description: "The packed attestation certificate expired a day before the registration.",
                   baseline: .registration(.packed)) { scenario, forge in
            registration(&scenario) { $0.packed { $0.validity = (forge.time - 400 * 86_400, forge.time - 86_400) } }
        },
        Definition(variant: "packed-intermediate-expired", rule: .chainValidity, importance: .high,
                   description: "The packed attestation certificate comes with the intermediate that issued it, and that intermediate expired a day before the registration; the trust anchor is the root, with no metadata (every certificate of the path is checked, not only the leaf).",
                   baseline: .registration(.packed)) { scenario, forge in
            viaIntermediate(&scenario, try expiredPackedIntermediate(forge))
        },
        Definition(variant: "ou", rule: .webAuthnPackedCertificate, importance: .medium,
                   description: "The packed attestation certificate's OU is not \"Authenticator Attestation\".",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) {
                $0.packed {
                    $0.subject = X509Name([.country("US"), .organization("attest-harness TEST"),
                                                    .organizationalUnit("Authenticator"), .commonName("attest-harness TEST Authenticator")])
                }
            }
        },
        Definition(variant: "version-1", rule: .webAuthnPackedCertificate, importance: .medium,
                   description: "The packed attestation certificate is X.509 v1 (no version field, no extensions); §8.2.1 requires v3.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.certificateVersion = 0 } }
        },
        Definition(variant: "no-country", rule: .webAuthnPackedCertificate, importance: .low,
                   description: "The packed attestation certificate's subject has no C (§8.2.1: the vendor's ISO 3166 country code).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) {
                $0.packed { $0.subject = X509Name($0.subject.attributes.filter { $0.type != "2.5.4.6" }) }
            }
        },
        Definition(variant: "country-name", rule: .webAuthnPackedCertificate, importance: .low,
                   description: "The packed attestation certificate's subject C is \"United States\", not an ISO 3166 code.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) {
                $0.packed { $0.subject = X509Name($0.subject.attributes.map { $0.type == "2.5.4.6" ? .country("United States") : $0 }) }
            }
        },
        Definition(variant: "no-organization", rule: .webAuthnPackedCertificate, importance: .low,
                   description: "The packed attestation certificate's subject has no O (§8.2.1: the authenticator vendor's legal name).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) {
                $0.packed { $0.subject = X509Name($0.subject.attributes.filter { $0.type != "2.5.4.10" }) }
            }
        },
        Definition(variant: "no-common-name", rule: .webAuthnPackedCertificate, importance: .low,
                   description: "The packed attestation certificate's subject has no CN (§8.2.1: a vendor-chosen UTF8String).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) {
                $0.packed { $0.subject = X509Name($0.subject.attributes.filter { $0.type != "2.5.4.3" }) }
            }
        },
        Definition(variant: "ca", rule: .webAuthnPackedCertificate, importance: .medium,
                   description: "The packed attestation certificate says cA TRUE.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.certificateIsCA = true } }
        },
        Definition(variant: "mismatch", rule: .webAuthnPackedAAGUID, importance: .high,
                   description: "id-fido-gen-ce-aaguid names another authenticator model than authenticatorData.",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { $0.packed { $0.aaguidExtension = .value(Array(repeating: 0xAA, count: 16)) } }
        },
    ]

    static let formatDefinitions: [Definition] = [
        Definition(variant: "fido-u2f-other-data", rule: .webAuthnAttestationSignature, importance: .critical,
                   description: "The fido-u2f signature covers another message than 0x00 || rpIdHash || clientDataHash || credentialId || public key.",
                   baseline: .registration(.fidoU2F)) { scenario, _ in
            registration(&scenario) { $0.fidoU2F { $0.signedMessage = Array(repeating: 0x41, count: 129) } }
        },
        Definition(variant: "fido-u2f-attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The fido-u2f attestation certificate is issued by an attacker's root that copies the real root's name.",
                   baseline: .registration(.fidoU2F)) { scenario, forge in
            let attacker = try WebAuthnPKI.attacker(seed: forge.seed)
            registration(&scenario) { $0.fidoU2F { $0.issuer = attacker.attestationRoot } }
        },
        Definition(variant: "fido-u2f-p384", rule: .webAuthnFidoU2FCertificate, importance: .high,
                   description: "The fido-u2f attestation certificate's key (which signs validly) is on P-384, not P-256.",
                   baseline: .registration(.fidoU2F)) { scenario, forge in
            let key = try forge.seed.key(.ec(.p384), "webauthn u2f attestation p384")
            registration(&scenario) { $0.fidoU2F { $0.attestationKey = key } }
        },
        Definition(variant: "fido-u2f-two-certificates", rule: .webAuthnFidoU2FCertificate, importance: .medium,
                   description: "The fido-u2f x5c holds the attestation certificate and then its issuer: exactly one is required.",
                   baseline: .registration(.fidoU2F)) { scenario, forge in
            let root = forge.pki.attestationRoot.certificate
            registration(&scenario) { $0.fidoU2F { $0.appended = [root] } }
        },
        Definition(variant: "packed-misordered", rule: .webAuthnX5COrder, importance: .medium,
                   description: "The packed x5c lists the intermediate before the attestation certificate it issued.",
                   baseline: .registration(.packed)) { scenario, forge in
            viaIntermediate(&scenario, forge.pki.packedIntermediate)
            registration(&scenario) { $0.packed { $0.chainOrder = [1, 0] } }
        },
        Definition(variant: "tpm-misordered", rule: .webAuthnX5COrder, importance: .medium,
                   description: "The tpm x5c lists the AIK CA before the AIK certificate.", baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.chainOrder = [1, 0] } }
        },
        Definition(variant: "android-key-misordered", rule: .webAuthnX5COrder, importance: .medium,
                   description: "The android-key x5c lists the chain root first and the credential certificate last.",
                   baseline: .registration(.androidKey)) { scenario, _ in
            registration(&scenario) { $0.androidKey { $0.chainOrder = [3, 2, 1, 0] } }
        },
        Definition(variant: "tpm-other-key", rule: .webAuthnTPMPublicArea, importance: .critical,
                   description: "The tpm pubArea (and the Name certInfo attests) is another key than the credential key in authenticatorData.",
                   baseline: .registration(.tpm)) { scenario, forge in
            let other = try forge.seed.key(.rsa(bits: 2048), "webauthn credential tpm other").publicKey
            registration(&scenario) { $0.tpm { $0.certifiedKey = other } }
        },
        Definition(variant: "tpm-magic", rule: .webAuthnTPMCertInfo, importance: .high,
                   description: "certInfo.magic is 0xff544348, not TPM_GENERATED_VALUE: the structure was not produced by the TPM.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.magic = 0xFF54_4348 } }
        },
        Definition(variant: "tpm-quote", rule: .webAuthnTPMCertInfo, importance: .high,
                   description: "certInfo.type is TPM_ST_ATTEST_QUOTE, not TPM_ST_ATTEST_CERTIFY.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.attestationType = 0x8018 } }
        },
        Definition(variant: "tpm-extra-data", rule: .webAuthnTPMCertInfo, importance: .critical,
                   description: "certInfo.extraData is the hash of other data than authenticatorData || clientDataHash.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.extraDataMessage = Array("other authenticator data".utf8) } }
        },
        Definition(variant: "tpm-name", rule: .webAuthnTPMCertInfo, importance: .critical,
                   description: "certInfo attests the Name of another key's pubArea than the one in the statement.",
                   baseline: .registration(.tpm)) { scenario, forge in
            let other = try TPMStatement.publicArea(try forge.credentialKey("tpm other").publicKey, nameAlg: TPMStructures.algorithmSHA256)
            registration(&scenario) { $0.tpm { $0.attestedPublicArea = other } }
        },
        Definition(variant: "tpm-other-data", rule: .webAuthnAttestationSignature, importance: .critical,
                   description: "The tpm sig covers other bytes than certInfo.", baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.signedMessage = Array(repeating: 0x41, count: 64) } }
        },
        Definition(variant: "tpm-subject", rule: .webAuthnTPMCertificate, importance: .medium,
                   description: "The AIK certificate has a subject (CN); §8.3.1 requires it empty.", baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.certificate.subject = X509Name([.commonName("attest-harness TEST AIK")]) } }
        },
        Definition(variant: "tpm-no-alternative-name", rule: .webAuthnTPMCertificate, importance: .medium,
                   description: "The AIK certificate has no subject alternative name naming the TPM's manufacturer, model and version.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.certificate.alternativeName = nil } }
        },
        Definition(variant: "tpm-no-aik-usage", rule: .webAuthnTPMCertificate, importance: .high,
                   description: "The AIK certificate's extended key usage is serverAuth, without tcg-kp-AIKCertificate.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.certificate.extendedKeyUsages = ["1.3.6.1.5.5.7.3.1"] } }
        },
        Definition(variant: "tpm-ca", rule: .webAuthnTPMCertificate, importance: .medium,
                   description: "The AIK certificate says cA TRUE.", baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.certificate.isCA = true } }
        },
        Definition(variant: "tpm-mismatch", rule: .webAuthnTPMAAGUID, importance: .high,
                   description: "The AIK certificate's id-fido-gen-ce-aaguid names another authenticator model than authenticatorData.",
                   baseline: .registration(.tpm)) { scenario, _ in
            registration(&scenario) { $0.tpm { $0.aaguidExtension = .value(Array(repeating: 0xAA, count: 16)) } }
        },
        Definition(variant: "tpm-attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The AIK certificate is issued by an attacker's TPM CA under a look-alike root.",
                   baseline: .registration(.tpm)) { scenario, forge in
            let attacker = try WebAuthnPKI.attacker(seed: forge.seed)
            registration(&scenario) { $0.tpm { $0.issuer = attacker.tpmIntermediate } }
        },
        Definition(variant: "safetynet-other-data", rule: .webAuthnSafetyNetNonce, importance: .critical,
                   description: "The SafetyNet nonce is computed over other data than authenticatorData || clientDataHash.",
                   baseline: .registration(.androidSafetyNet)) { scenario, _ in
            registration(&scenario) { $0.safetyNet { $0.nonceMessage = Array("other authenticator data".utf8) } }
        },
        Definition(variant: "safetynet-ver-empty", rule: .webAuthnStatementStructure, importance: .low,
                   description: "The android-safetynet statement's ver, the Google Play services version that produced the response, is the empty string (FIDO Resp-B F-1 refuses it; §8.5's syntax only says text).",
                   baseline: .registration(.androidSafetyNet)) { scenario, _ in
            registration(&scenario) { $0.safetyNet { $0.version = "" } }
        },
        Definition(variant: "safetynet-other-host", rule: .webAuthnSafetyNetCertificate, importance: .critical,
                   description: "The SafetyNet response is signed by a certificate for attest.example.com, not attest.android.com.",
                   baseline: .registration(.androidSafetyNet)) { scenario, _ in
            registration(&scenario) { $0.safetyNet { $0.hostname = "attest.example.com" } }
        },
        Definition(variant: "safetynet-other-key", rule: .webAuthnAttestationSignature, importance: .critical,
                   description: "The SafetyNet JWS is signed by another key than the attest.android.com certificate's.",
                   baseline: .registration(.androidSafetyNet)) { scenario, forge in
            let other = try forge.seed.key(.rsa(bits: 2048), "webauthn safetynet other")
            registration(&scenario) { $0.safetyNet { $0.signer = other } }
        },
        Definition(variant: "safetynet-cts-failed", rule: .webAuthnSafetyNetIntegrity, importance: .high,
                   description: "The SafetyNet response says ctsProfileMatch false (basicIntegrity true): a device that failed compatibility testing.",
                   baseline: .registration(.androidSafetyNet)) { scenario, _ in
            registration(&scenario) { $0.safetyNet { $0.ctsProfileMatch = false } }
        },
        Definition(variant: "safetynet-future", rule: .webAuthnSafetyNetTimestamp, importance: .medium,
                   description: "The SafetyNet response's timestampMs is five minutes after the registration.",
                   baseline: .registration(.androidSafetyNet)) { scenario, forge in
            registration(&scenario) { $0.safetyNet { $0.timestamp = forge.time + 300 } }
        },
        Definition(variant: "safetynet-stale", rule: .webAuthnSafetyNetTimestamp, importance: .high,
                   description: "The SafetyNet response's timestampMs is five minutes before the registration: a replayed response.",
                   baseline: .registration(.androidSafetyNet)) { scenario, forge in
            registration(&scenario) { $0.safetyNet { $0.timestamp = forge.time - 300 } }
        },
        Definition(variant: "safetynet-attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The attest.android.com certificate is issued by an attacker's CA under a look-alike SafetyNet root.",
                   baseline: .registration(.androidSafetyNet)) { scenario, forge in
            let attacker = try WebAuthnPKI.attacker(seed: forge.seed)
            registration(&scenario) { $0.safetyNet { $0.issuer = attacker.safetyNetIntermediate } }
        },
        Definition(variant: "android-key-other-data", rule: .webAuthnAttestationSignature, importance: .critical,
                   description: "The android-key signature covers other data.", baseline: .registration(.androidKey)) { scenario, _ in
            registration(&scenario) { $0.androidKey { $0.signedMessage = Array(repeating: 0x41, count: 69) } }
        },
        Definition(variant: "raw-challenge", rule: .webAuthnAndroidKeyChallenge, importance: .critical,
                   description: "attestationChallenge is the relying party's challenge instead of the clientDataHash.",
                   baseline: .registration(.androidKey)) { scenario, _ in
            let challenge = scenario.registrations[0].challenge
            registration(&scenario) { $0.androidKey { $0.challengeOverride = challenge } }
        },
        Definition(variant: "other-key", rule: .webAuthnAndroidKeyPublicKey, importance: .critical,
                   description: "The attested key (which also signs the statement) is not the credential key in authenticatorData.",
                   baseline: .registration(.androidKey)) { scenario, forge in
            let other = try forge.credentialKey("android other")
            registration(&scenario) {
                $0.androidKey {
                    $0.android.attestation.key = other
                    $0.signer = other
                }
            }
        },
        Definition(variant: "android-key-imported", rule: .androidOrigin, importance: .high,
                   description: "The android-key credential was imported (origin IMPORTED), not generated in the TEE.",
                   baseline: .registration(.androidKey)) { scenario, _ in
            registration(&scenario) {
                $0.androidKey { $0.android.attestation.keyDescription.hardwareEnforced.set(.origin, .integer(KeyMintValues.originImported)) }
            }
        },
        Definition(variant: "android-key-verify-only", rule: .androidPurpose, importance: .high,
                   description: "The android-key credential's purposes lack SIGN.", baseline: .registration(.androidKey)) { scenario, _ in
            registration(&scenario) {
                $0.androidKey { $0.android.attestation.keyDescription.hardwareEnforced.set(.purpose, .integerSet([KeyMintValues.purposeVerify])) }
            }
        },
        Definition(variant: "android-key", rule: .androidAllApplications, importance: .high,
                   description: "The android-key credential is usable by all applications.", baseline: .registration(.androidKey)) { scenario, _ in
            registration(&scenario) { $0.androidKey { $0.android.attestation.keyDescription.softwareEnforced.set(.allApplications, .flag) } }
        },
        Definition(variant: "android-key-attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The android-key chain is issued by an attacker's roots with Google's names (py_webauthn before PR #240).",
                   baseline: .registration(.androidKey)) { scenario, forge in
            let attacker = try forge.android.attackerPKI()
            registration(&scenario) { $0.androidKey { $0.android.attackerPKI = attacker } }
        },
        Definition(variant: "other-data", rule: .webAuthnAppleNonce, importance: .critical,
                   description: "The apple nonce is computed over other authenticator data.", baseline: .registration(.apple)) { scenario, _ in
            registration(&scenario) { $0.apple { $0.nonceOverride = sha256(Array("other authenticator data".utf8)) } }
        },
        Definition(variant: "other-key", rule: .webAuthnApplePublicKey, importance: .critical,
                   description: "The apple credential certificate certifies another key than the credential key.",
                   baseline: .registration(.apple)) { scenario, forge in
            let other = try forge.credentialKey("apple other").publicKey
            registration(&scenario) { $0.apple { $0.certifiedKey = other } }
        },
        Definition(variant: "apple-intermediate-not-ca", rule: .chainBasicConstraints, importance: .high,
                   description: "The apple credential certificate is issued by a certificate whose basic constraints say it is not a CA.",
                   baseline: .registration(.apple)) { scenario, forge in
            let intermediate = forge.pki.appleIntermediate
            let notCA = try CertificateAuthority.issue(
                serial: intermediate.certificate.serialNumber, subject: try intermediate.name, key: intermediate.key.publicKey,
                issuer: try forge.pki.appleRoot.name, signer: forge.pki.appleRoot.key,
                validity: (intermediate.certificate.notBefore, intermediate.certificate.notAfter),
                extensions: [.basicConstraints(ca: false), .keyUsage([.digitalSignature, .keyCertSign])])
            registration(&scenario) { $0.apple { $0.intermediate = CertificateAuthority(certificate: notCA, key: intermediate.key) } }
        },
        Definition(variant: "apple-attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The apple chain is issued by an attacker's look-alike Apple WebAuthn CA.",
                   baseline: .registration(.apple)) { scenario, forge in
            let attacker = try WebAuthnPKI.attacker(seed: forge.seed)
            registration(&scenario) { $0.apple { $0.intermediate = attacker.appleIntermediate } }
        },
    ]

    static let assertionDefinitions: [Definition] = [
        Definition(variant: "create-in-assertion", rule: .webAuthnType, importance: .high,
                   description: "clientDataJSON.type is webauthn.create in an assertion.", baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.clientData.type = WebAuthnFormat.createType
        },
        Definition(variant: "assertion-other-challenge", rule: .webAuthnChallenge, importance: .critical,
                   description: "The assertion answers the challenge of an earlier ceremony.", baseline: .assertions(.packed, [1, 2])) { scenario, _ in
            scenario.lastAssertion.clientData.challenge = Base64URL.encode(scenario.assertions[0].challenge)
        },
        Definition(variant: "registration-answered-twice", rule: .webAuthnChallengeSingleUse, importance: .critical,
                   description: "A second registration (another credential) answers the first registration's challenge again.",
                   baseline: .registration(.packed)) { scenario, forge in
            var second = try forge.registration(.packed, credential: "second passkey")
            second.challenge = scenario.registrations[0].challenge
            second.clientData.challenge = Base64URL.encode(scenario.registrations[0].challenge)
            scenario.registrations.append(second)
            scenario.repetitions[1] = StepRepetition(.answer, of: 0)
        },
        Definition(variant: "assertion-replayed", rule: .webAuthnChallengeSingleUse, importance: .critical,
                   description: "The assertion's completing request is sent again, byte for byte, after it succeeded (a replayed login: same response, same session, same state token), from an authenticator without a counter (sign count 0, as synced passkeys send), so the replay breaks no counter rule.",
                   baseline: .assertions(.packed, [0])) { scenario, _ in
            scenario.assertions.append(scenario.lastAssertion)
            scenario.repetitions[2] = StepRepetition(.replay, of: 1)
        },
        Definition(variant: "answered-twice", rule: .webAuthnChallengeSingleUse, importance: .critical,
                   description: "A second assertion answers the first assertion's challenge again (issued and signed over), as a replayed response does.",
                   baseline: .assertions(.packed, [1, 2])) { scenario, _ in
            scenario.lastAssertion.challenge = scenario.assertions[0].challenge
            scenario.lastAssertion.clientData.challenge = Base64URL.encode(scenario.assertions[0].challenge)
            scenario.repetitions[2] = StepRepetition(.answer, of: 1)
        },
        Definition(variant: "other-session", rule: .webAuthnChallengeSession, importance: .critical,
                   description: "The assertion's challenge was issued to another client session (its options were requested there) and is answered from this one.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.challengeSessions[scenario.registrations.count + scenario.assertions.count - 1] = "other"
        },
        Definition(variant: "registration-other-session", rule: .webAuthnChallengeSession, importance: .critical,
                   description: "The registration's challenge was issued to another client session and is answered from this one (a registration completed in a session that never asked for it).",
                   baseline: .registration(.packed)) { scenario, _ in
            scenario.challengeSessions[scenario.registrations.count - 1] = "other"
        },
        Definition(variant: "assertion-other-host", rule: .webAuthnOrigin, importance: .critical,
                   description: "The assertion comes from a look-alike host.", baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.clientData.origin = otherHost
        },
        Definition(variant: "nonsense-in-assertion", rule: .webAuthnType, importance: .high,
                   description: "clientDataJSON.type is a meaningless string (\"abc.def\") in an assertion.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.clientData.type = "abc.def"
        },
        Definition(variant: "assertion-in-another-member", rule: .webAuthnChallenge, importance: .high,
                   description: "The assertion's clientDataJSON.challenge is another value and the issued challenge sits in an unknown member after it (a verifier that looks for the challenge anywhere in the JSON text accepts it).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            let issued = scenario.lastAssertion.clientData.challenge
            scenario.lastAssertion.clientData.challenge = "b3RoZXItY2hhbGxlbmdl"
            scenario.lastAssertion.clientData.remainder = "\"other\":" + CollectedClientData.ccdString(issued)
        },
        Definition(variant: "assertion-bit-flipped", rule: .webAuthnChallenge, importance: .critical,
                   description: "The assertion's clientDataJSON.challenge is the issued challenge with its last bit flipped.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.clientData.challenge = Base64URL.encode(flippingLastBit(scenario.lastAssertion.challenge))
        },
        Definition(variant: "assertion-subdomain", rule: .webAuthnOrigin, importance: .high,
                   description: "The assertion's origin is a subdomain of the relying party's origin.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.clientData.origin = "https://sub.\(forge.rpId)"
        },
        Definition(variant: "assertion-parent-domain", rule: .webAuthnOrigin, importance: .high,
                   description: "The assertion's origin is the parent domain of the relying party's origin.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.clientData.origin = "https://\(parentDomain(forge.rpId))"
        },
        Definition(variant: "assertion", rule: .webAuthnCrossOrigin, importance: .medium,
                   description: "The assertion's crossOrigin is true although the relying party is never embedded.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.clientData.crossOrigin = true
        },
        Definition(variant: "assertion", rule: .webAuthnRpIdHash, importance: .critical,
                   description: "The assertion's rpIdHash is for another relying party.", baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.rpIdHash = sha256(Array("evil.test".utf8))
        },
        Definition(variant: "swap-to-off", rule: .webAuthnBackupEligibility, importance: .medium,
                   description: "The credential registered backup eligible (BE set); its assertion says BE clear.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.registrations[0].flags.insert(.backupEligible)
        },
        Definition(variant: "swap-to-on", rule: .webAuthnBackupEligibility, importance: .medium,
                   description: "The credential registered not backup eligible (BE clear); its assertion says BE set.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.flags.insert(.backupEligible)
        },
        Definition(variant: "assertion-subdomain", rule: .webAuthnRpIdHash, importance: .high,
                   description: "The assertion's rpIdHash is SHA-256 of a subdomain of the relying party id.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.rpIdHash = sha256(Array("sub.\(forge.rpId)".utf8))
        },
        Definition(variant: "assertion-parent-domain", rule: .webAuthnRpIdHash, importance: .high,
                   description: "The assertion's rpIdHash is SHA-256 of the relying party id's parent domain.",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.rpIdHash = sha256(Array(parentDomain(forge.rpId).utf8))
        },
        Definition(variant: "assertion", rule: .webAuthnUserPresent, importance: .high,
                   description: "The assertion's UP is clear.", baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.flags.remove(.userPresent)
        },
        Definition(variant: "assertion", rule: .webAuthnUserVerified, importance: .critical,
                   description: "A user-present-only assertion where user verification is required (PIN bypass).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.flags.remove(.userVerified)
        },
        Definition(variant: "assertion", rule: .webAuthnBackupState, importance: .low,
                   description: "The assertion's BS is set while BE is clear.", baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.flags.insert(.backedUp)
        },
        Definition(variant: "assertion-attested-flag", rule: .webAuthnAuthenticatorData, importance: .medium,
                   description: "The assertion sets AT but carries no attested credential data.", baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.flags.insert(.attestedCredentialData)
        },
        Definition(variant: "client-data-duplicate-challenge", rule: .webAuthnStructure, importance: .high,
                   description: "The assertion's clientDataJSON gives challenge twice: first another value, then the issued one (a first-wins reader and a last-wins reader see two different challenges; found by a hunt: the reference read the first).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            let clientData = scenario.lastAssertion.clientData
            let json = "{\"type\":" + CollectedClientData.ccdString(clientData.type) + ",\"challenge\":\"b3RoZXI\",\"challenge\":"
                + CollectedClientData.ccdString(clientData.challenge) + ",\"origin\":" + CollectedClientData.ccdString(clientData.origin)
                + ",\"crossOrigin\":false}"
            scenario.lastAssertion.clientDataJSONOverride = Array(json.utf8)
        },
        Definition(variant: "client-data-duplicate-type", rule: .webAuthnStructure, importance: .high,
                   description: "The registration's clientDataJSON gives type twice: first \"webauthn.get\", then \"webauthn.create\" (a last-wins reader takes a registration, a first-wins reader an assertion: the type check is only as good as the parser's reading of a repeated name).",
                   baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) { registration in
                let clientData = registration.clientData
                let json = "{\"type\":\"webauthn.get\",\"type\":" + CollectedClientData.ccdString(clientData.type)
                    + ",\"challenge\":" + CollectedClientData.ccdString(clientData.challenge)
                    + ",\"origin\":" + CollectedClientData.ccdString(clientData.origin) + ",\"crossOrigin\":false}"
                registration.clientDataJSONOverride = Array(json.utf8)
            }
        },
        Definition(variant: "assertion-extension-flag-without-data", rule: .webAuthnAuthenticatorData, importance: .medium,
                   description: "The assertion sets ED but no extension data follows its 37 bytes (found by a hunt: one library refused it, another crashed, the reference accepted).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.flags.insert(.extensionData)
        },
        Definition(variant: "assertion-trailing-bytes", rule: .webAuthnAuthenticatorData, importance: .medium,
                   description: "A byte follows the assertion's 37-byte authenticator data (the signature covers it).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.authenticatorDataSuffix = [0x00]
        },
        Definition(variant: "not-allowed", rule: .webAuthnCredential, importance: .high,
                   description: "The user has two passkeys and the options allowed only the first (allowCredentials); the assertion is a valid one by the second (§7.2 step 5: a verifier that looks the credential up among the user's passkeys alone accepts it).",
                   baseline: .assertions(.packed, [1]), control: "allow-credentials") { scenario, forge in
            try withSecondPasskey(&scenario, forge, assertingWith: 1)
        },
        Definition(variant: "deleted", rule: .webAuthnCredential, importance: .critical,
                   description: "The user deleted the passkey after registering it (a webauthn.deletion step); an assertion by it afterwards is refused (§7.2 step 6: no credential record has its id any more).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.deletedCredentials = [scenario.registrations[0].credentialId]
        },
        Definition(variant: "unregistered-id", rule: .webAuthnCredential, importance: .critical,
                   description: "The assertion names a credential id that was never registered (signed by the user's key, so a lookup by user alone accepts it).",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.credentialId = try forge.credentialId("never registered")
        },
        Definition(variant: "other-user", rule: .webAuthnOwner, importance: .critical,
                   description: "In a ceremony for alice, a valid assertion by bob's credential without a userHandle (YSA-2026-02).",
                   baseline: .assertions(.packed, [1])) { scenario, forge in
            let bob = try forge.registration(.packed, user: "bob", credential: "bob passkey")
            scenario.registrations.append(bob)
            var assertion = try forge.assertion(by: bob, signCount: 1, label: "bob in alice's ceremony")
            assertion.user = scenario.registrations[0].user
            assertion.userHandle = nil
            scenario.lastAssertion = assertion
        },
        Definition(variant: "mismatch", rule: .webAuthnUserHandle, importance: .high,
                   description: "The assertion's userHandle is another user's handle.", baseline: .assertions(.packed, [1])) { scenario, forge in
            scenario.lastAssertion.userHandle = try forge.user("bob")
        },
        Definition(variant: "other-data", rule: .webAuthnAssertionSignature, importance: .critical,
                   description: "The signature covers another clientDataJSON.", baseline: .assertions(.packed, [1])) { scenario, _ in
            var other = scenario.lastAssertion.clientData
            other.challenge = "b3RoZXI"
            let authenticatorData = AuthenticatorData(rpIdHash: scenario.lastAssertion.rpIdHash, flags: scenario.lastAssertion.flags,
                                                      signCount: scenario.lastAssertion.signCount).bytes
            scenario.lastAssertion.signedMessage = authenticatorData + sha256(other.bytes)
        },
        Definition(variant: "non-minimal-der", rule: .webAuthnSignatureEncoding, importance: .low,
                   description: "The assertion's ECDSA signature has its SEQUENCE length in long form (BER, not DER).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.signatureEncoding = { der in [der[0], 0x81] + der[1...] }
        },
        Definition(variant: "raw", rule: .webAuthnSignatureEncoding, importance: .medium,
                   description: "The assertion's ECDSA signature is raw r || s (IEEE P1363, as COSE and JWS write it), not DER.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.signatureEncoding = { der in (try? ECDSASignatureValue(der: der))?.raw(curve: .p256) ?? der }
        },
        Definition(variant: "padded-integer", rule: .webAuthnSignatureEncoding, importance: .low,
                   description: "The assertion's ECDSA signature writes r with a redundant leading zero octet (a non-minimal INTEGER).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.signatureEncoding = { der in
                guard let value = try? ECDSASignatureValue(der: der) else { return der }
                let r = DERElement.primitive(.integer, [0x00, 0x00] + value.r)
                return DERElement.sequence([r, .integer(unsignedBigEndian: value.s)]).serialized
            }
        },
        Definition(variant: "packed-raw", rule: .webAuthnStatementSignatureEncoding, importance: .medium,
                   description: "The packed statement's ECDSA sig is raw r || s, not DER.", baseline: .registration(.packed)) { scenario, _ in
            registration(&scenario) {
                $0.packed {
                    $0.entriesEdit = { entries in
                        entries.map { entry in
                            guard entry.key == .text("sig"), let der = entry.value.bytesValue,
                                  let value = try? ECDSASignatureValue(der: der) else { return entry }
                            return CBORMapEntry("sig", .bytes(value.raw(curve: .p256)))
                        }
                    }
                }
            }
        },
        Definition(variant: "extra-integer", rule: .webAuthnSignatureEncoding, importance: .medium,
                   description: "The assertion's ECDSA signature SEQUENCE holds a third INTEGER after r and s (a reader that takes the first two and stops accepts it).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.signatureEncoding = { der in
                guard let value = try? ECDSASignatureValue(der: der) else { return der }
                return DERElement.sequence([.integer(unsignedBigEndian: value.r), .integer(unsignedBigEndian: value.s),
                                            .integer(unsignedBigEndian: [0x01])]).serialized
            }
        },
        // CVE-2022-21449 ("psychic signatures"): a verifier that does not check 0 < r, s < n accepts r = s = 0 for
        // any message and key.
        Definition(variant: "zero-r-and-s", rule: .webAuthnAssertionSignature, importance: .critical,
                   description: "The assertion's ECDSA signature is r = 0, s = 0 in DER (CVE-2022-21449: it verifies for any message where 0 < r, s < n goes unchecked).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.signatureEncoding = { _ in
                DERElement.sequence([.integer(unsignedBigEndian: [0x00]), .integer(unsignedBigEndian: [0x00])]).serialized
            }
        },
        Definition(variant: "r-is-order", rule: .webAuthnAssertionSignature, importance: .high,
                   description: "The assertion's ECDSA signature has r equal to the P-256 group order n (out of range: r must be below n).",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.signatureEncoding = { der in
                guard let value = try? ECDSASignatureValue(der: der) else { return der }
                return DERElement.sequence([.integer(unsignedBigEndian: ECCurve.p256.order), .integer(unsignedBigEndian: value.s)]).serialized
            }
        },
        Definition(variant: "trailing-bytes", rule: .webAuthnSignatureEncoding, importance: .low,
                   description: "The assertion's DER signature is followed by two more bytes.",
                   baseline: .assertions(.packed, [1])) { scenario, _ in
            scenario.lastAssertion.signatureEncoding = { der in der + [0x00, 0x00] }
        },
        Definition(variant: "equal", rule: .webAuthnSignCount, importance: .high,
                   description: "Counter 5, then 5 again.", baseline: .assertions(.packed, [5, 5])) { _, _ in },
        Definition(variant: "lower", rule: .webAuthnSignCount, importance: .high,
                   description: "Counter 5, then 3.", baseline: .assertions(.packed, [5, 3])) { _, _ in },
        Definition(variant: "nonzero-then-zero", rule: .webAuthnSignCount, importance: .high,
                   description: "Counter 5, then 0 (a clone that never counted).", baseline: .assertions(.packed, [5, 0])) { _, _ in },
    ]
}
