import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation

/// The App Attest family: a valid baseline and one case per mutation, each breaking exactly one rule.
public enum AppAttestFamily: CatalogueFamily {
    static let idPrefix = "appattest"
    public static let name = FamilyName.appAttest
    public static var rules: [Rule] { EncodingRules.appAttest + ChainRules.all + AppAttestRules.all }

    /// Step kinds and their inputs (all byte strings):
    /// - `app-attest.attestation`: `attestationObject`, `keyId`, `challenge` (the one-time challenge sent to the app)
    /// - `app-attest.assertion`: `assertion`, `clientData`, `keyId`, `challenge` (issued for this assertion)

    public static let stepKinds: [StepKind: String] = [
        .appAttestAttestation: "An attestation the app sends once per key. Inputs: attestationObject (CBOR, as from "
            + "DCAppAttestService.attestKey), keyId (the key identifier the app reports), challenge (the one-time "
            + "challenge the server sent; clientDataHash = SHA-256(challenge)). Context parameters: appId, environment.",
        .appAttestAssertion: "An assertion the app sends later with the same key. Inputs: assertion (CBOR, as from "
            + "generateAssertion), clientData (the bytes the app hashed), keyId, challenge (issued for this assertion; "
            + "clientData must carry it).",
    ]

    /// Which steps a case has before its mutation.
    enum Baseline: Sendable {
        /// The attestation alone; the mutation targets it.
        case attestation
        /// Attestation then assertions with these counters; the mutation targets the last assertion.
        case assertions([UInt32])
    }

    typealias Definition = CaseDefinition<Baseline, AppAttestScenario, AppAttestForge>

    public static func trustAnchors(seed: UInt64) throws -> [String: String] {
        ["app-attest-root.pem": try AppAttestPKI(seed: ForgeSeed(seed)).root.pem]
    }

    public static func cases(parameters: [String: String], seed: UInt64) throws -> [Case] {
        try cases(parameters: parameters, seed: ForgeSeed(seed))
    }

    /// The cases forged from `seed`, substitutions included; with `only`, just the case of that id.
    public static func cases(parameters: [String: String], seed: ForgeSeed, only: String? = nil) throws -> [Case] {
        let app = try AppAttestParameters(ParameterReader(parameters))
        let forge = try AppAttestForge(seed: seed, appId: app.appId, environment: app.environment)
        var context = CaseContext(time: forge.time, trustAnchors: [forge.pki.root.pem], parameters: parameters)
        context.parameters["appId"] = forge.appId
        return try definitions.filter { only == nil || $0.id(prefix: idPrefix) == only }.map { definition in
            var scenario: AppAttestScenario
            switch definition.baseline {
            case .attestation:
                scenario = try forge.scenario(assertionCounters: [])
                scenario.brokenStep = 0
            case .assertions(let counters):
                scenario = try forge.scenario(assertionCounters: counters)
                scenario.brokenStep = counters.count
            }
            try definition.mutate(&scenario, forge)
            let steps = try steps(scenario, breaking: definition.rule)
            // Every baseline is the valid case's attestation, or it and assertions: its control is the valid case.
            return definition.makeCase(prefix: idPrefix, family: name, context: context, steps: steps,
                                       control: validVariant)
        }
    }

    /// The valid case's variant: the control of every case, and the baseline a hunt mutates.
    static let validVariant = "attestation-and-assertions"

    /// `scenario` rendered as steps: the attestation, then each assertion; the broken step marked with `rule`.
    static func steps(_ scenario: AppAttestScenario, breaking rule: RuleID?) throws -> [Step] {
        let rendered = try scenario.render()
        var steps = [Step(kind: .appAttestAttestation, inputs: [
            .attestationObject: rendered.attestation.attestationObject, .keyId: rendered.attestation.keyId,
            .challenge: rendered.attestation.challenge,
        ], breaks: scenario.brokenStep == 0 ? rule : nil)]
        for (index, assertion) in rendered.assertions.enumerated() {
            steps.append(Step(kind: .appAttestAssertion, inputs: [
                .assertion: assertion.assertion, .clientData: assertion.clientData, .keyId: assertion.keyId,
                .challenge: assertion.challenge,
            ], breaks: scenario.brokenStep == index + 1 ? rule : nil))
        }
        return steps
    }

    static let definitions: [Definition] = [
        Definition(variant: validVariant, rule: nil, importance: .critical,
                   description: "A genuine attestation followed by assertions with counters 1 and 2.",
                   baseline: .assertions([1, 2])) { scenario, _ in scenario.brokenStep = nil },

        // CBOR encodings.
        Definition(variant: "attestation-object", rule: .appAttestCBORTrailingBytes, importance: .medium,
                   description: "A zero byte after the attestation object.", baseline: .attestation) { scenario, _ in
            scenario.attestation.encoding = .trailingBytes([0x00])
        },
        Definition(variant: "assertion", rule: .appAttestCBORTrailingBytes, importance: .medium,
                   description: "A zero byte after the assertion object.", baseline: .assertions([1])) { scenario, _ in
            scenario.assertions[0].encoding = .trailingBytes([0x00])
        },
        Definition(variant: "attestation-object", rule: .appAttestCBORDuplicateMapKey, importance: .medium,
                   description: "The attestation object carries fmt twice.", baseline: .attestation) { scenario, _ in
            scenario.attestation.encoding = .duplicateKey("fmt")
        },
        Definition(variant: "attestation-object", rule: .appAttestCBORIndefiniteLength, importance: .low,
                   description: "The attestation object is an indefinite-length map.", baseline: .attestation) { scenario, _ in
            scenario.attestation.encoding = .indefiniteLengthMap
        },

        // Structure and format.
        Definition(variant: "extra-key", rule: .appAttestStructure, importance: .low,
                   description: "The attestation object has a fourth key.", baseline: .attestation) { scenario, _ in
            scenario.attestation.encoding = .extraKey("extra", .unsigned(0))
        },
        Definition(variant: "byte-string-keys", rule: .appAttestStructure, importance: .medium,
                   description: "The attestation object's keys are byte strings, not text.", baseline: .attestation) { scenario, _ in
            scenario.attestation.encoding = .byteStringKeys
        },
        Definition(variant: "apple", rule: .appAttestFormat, importance: .high,
                   description: "fmt is \"apple\" (WebAuthn anonymous attestation), not \"apple-appattest\".",
                   baseline: .attestation) { scenario, _ in scenario.attestation.format = "apple" },

        // Certificate list and chain.
        Definition(variant: "swapped", rule: .appAttestCertificateList, importance: .medium,
                   description: "x5c lists the intermediate before the credential certificate.",
                   baseline: .attestation) { scenario, _ in scenario.attestation.certificateList = .swapped },
        Definition(variant: "root-included", rule: .appAttestExtraCertificates, importance: .low,
                   description: "x5c also carries the root.", baseline: .attestation) { scenario, forge in
            scenario.attestation.certificateList = .appending(forge.pki.root)
        },
        Definition(variant: "attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The chain is issued by an attacker's root that copies the real root's subject.",
                   baseline: .attestation) { scenario, forge in
            let attacker = try AppAttestPKI.attacker(seed: forge.seed)
            scenario.attestation.intermediate = attacker.intermediate
            scenario.attestation.credentialCertificateSigner = attacker.intermediateKey
        },
        Definition(variant: "missing-intermediate", rule: .chainTrustAnchor, importance: .high,
                   description: "x5c holds only the credential certificate.", baseline: .attestation) { scenario, _ in
            scenario.attestation.certificateList = .credentialCertificateOnly
        },
        Definition(variant: "expired-credential-certificate", rule: .chainValidity, importance: .high,
                   description: "The credential certificate expired two days before verification.",
                   baseline: .attestation) { scenario, forge in
            scenario.attestation.credentialCertificateNotBefore = forge.time - 5 * 86_400
            scenario.attestation.credentialCertificateNotAfter = forge.time - 2 * 86_400
        },
        Definition(variant: "credential-certificate-not-yet-valid", rule: .chainValidity, importance: .high,
                   description: "The credential certificate becomes valid a day after verification.",
                   baseline: .attestation) { scenario, forge in
            scenario.attestation.credentialCertificateNotBefore = forge.time + 86_400
            scenario.attestation.credentialCertificateNotAfter = forge.time + 4 * 86_400
        },
        Definition(variant: "intermediate-not-ca", rule: .chainBasicConstraints, importance: .high,
                   description: "The intermediate's basic constraints say it is not a CA.",
                   baseline: .attestation) { scenario, forge in
            scenario.attestation.intermediate = try AppAttestPKI.intermediateCertificate(
                key: forge.pki.intermediateKey, issuerKey: forge.pki.rootKey,
                serial: try forge.seed.bytes("app-attest intermediate not CA serial", count: 16), ca: false)
        },

        // Nonce (steps 2-4).
        Definition(variant: "other-challenge", rule: .appAttestNonce, importance: .critical,
                   description: "The nonce binds another challenge than the one the server sent.",
                   baseline: .attestation) { scenario, forge in
            scenario.attestation.clientDataHash = sha256(try forge.challenge("another attestation"))
        },
        Definition(variant: "raw-challenge", rule: .appAttestNonce, importance: .high,
                   description: "The nonce appends the raw challenge instead of its SHA-256.",
                   baseline: .attestation) { scenario, _ in
            scenario.attestation.clientDataHash = scenario.attestation.challenge
        },
        Definition(variant: "missing-extension", rule: .appAttestNonce, importance: .critical,
                   description: "The credential certificate has no nonce extension.", baseline: .attestation) { scenario, _ in
            scenario.attestation.nonceExtensionCount = 0
        },
        Definition(variant: "31-bytes", rule: .appAttestNonce, importance: .medium,
                   description: "The nonce OCTET STRING holds the first 31 bytes of the nonce.",
                   baseline: .attestation) { scenario, _ in
            scenario.attestation.nonceEnvelope = { AttestationBlueprint.appleNonceEnvelope(Array($0.prefix(31))) }
        },
        Definition(variant: "33-bytes", rule: .appAttestNonce, importance: .medium,
                   description: "The nonce OCTET STRING holds the nonce and one more byte.",
                   baseline: .attestation) { scenario, _ in
            scenario.attestation.nonceEnvelope = { AttestationBlueprint.appleNonceEnvelope($0 + [0x00]) }
        },
        Definition(variant: "tag-0", rule: .appAttestNonceEncoding, importance: .low,
                   description: "The nonce is wrapped in [0] instead of [1].", baseline: .attestation) { scenario, _ in
            scenario.attestation.nonceEnvelope = { .sequence([.explicit(0, .octetString($0))]) }
        },
        Definition(variant: "extra-element", rule: .appAttestNonceEncoding, importance: .low,
                   description: "The nonce SEQUENCE has a second element after [1].", baseline: .attestation) { scenario, _ in
            scenario.attestation.nonceEnvelope = { .sequence([.explicit(1, .octetString($0)), .explicit(2, .null)]) }
        },
        Definition(variant: "duplicated-extension", rule: .appAttestNonceEncoding, importance: .medium,
                   description: "The credential certificate carries the nonce extension twice.",
                   baseline: .attestation) { scenario, _ in scenario.attestation.nonceExtensionCount = 2 },

        // Steps 5-9 and the COSE key.
        Definition(variant: "spki-hash", rule: .appAttestKeyId, importance: .high,
                   description: "The key id (and credentialId) is SHA-256 of the DER SubjectPublicKeyInfo, not of the point.",
                   baseline: .attestation) { scenario, _ in
            let keyId = sha256(scenario.attestation.credentialKey.publicKey.spki)
            scenario.attestation.keyId = keyId
            scenario.attestation.credentialId = keyId
        },
        Definition(variant: "bundle-id-only", rule: .appAttestRpIdHash, importance: .high,
                   description: "rpIdHash is SHA-256 of the bundle id without the team id.",
                   baseline: .attestation) { scenario, forge in
            let bundleId = forge.appId.split(separator: ".", maxSplits: 1).last.map(String.init) ?? ""
            scenario.attestation.rpIdHash = sha256(Array(bundleId.utf8))
        },
        Definition(variant: "without-dot", rule: .appAttestRpIdHash, importance: .medium,
                   description: "rpIdHash is SHA-256 of team id and bundle id joined without the dot.",
                   baseline: .attestation) { scenario, forge in
            scenario.attestation.rpIdHash = sha256(Array(forge.appId.replacingOccurrences(of: ".", with: "", options: [],
                range: forge.appId.range(of: ".")).utf8))
        },
        Definition(variant: "other-app", rule: .appAttestRpIdHash, importance: .critical,
                   description: "rpIdHash is another app's.", baseline: .attestation) { scenario, _ in
            scenario.attestation.rpIdHash = sha256(Array("ZZZZZZZZZZ.com.example.other-app".utf8))
        },
        Definition(variant: "one", rule: .appAttestCounter, importance: .medium,
                   description: "The attestation's counter is 1.", baseline: .attestation) { scenario, _ in
            scenario.attestation.signCount = 1
        },
        Definition(variant: "other-environment", rule: .appAttestAAGUID, importance: .high,
                   description: "The AAGUID is the other environment's.", baseline: .attestation) { scenario, forge in
            scenario.attestation.aaguid = (forge.environment == .production ? AppAttestFormat.Environment.development
                                                                            : .production).aaguid
        },
        Definition(variant: "differs-from-key-id", rule: .appAttestCredentialId, importance: .medium,
                   description: "authData.credentialId is not the key id.", baseline: .attestation) { scenario, forge in
            scenario.attestation.credentialId = try forge.seed.bytes("app-attest other credential id", count: 32)
        },
        Definition(variant: "other-key", rule: .appAttestCOSEKey, importance: .high,
                   description: "The COSE key in authData is another key than the certificate's.",
                   baseline: .attestation) { scenario, forge in
            scenario.attestation.credentialPublicKey = CBORWriter.encode(try forge.otherKey().publicKey.coseKey)
        },

        // Assertions.
        Definition(variant: "single-hash", rule: .appAttestAssertionSignature, importance: .high,
                   description: "The signature covers authenticatorData || clientDataHash (WebAuthn style), not the nonce.",
                   baseline: .assertions([1])) { scenario, _ in
            scenario.assertions[0].signedMessage = .authenticatorDataAndClientDataHash
        },
        Definition(variant: "wrong-key", rule: .appAttestAssertionSignature, importance: .critical,
                   description: "Another key signs the assertion.", baseline: .assertions([1])) { scenario, forge in
            scenario.assertions[0].signingKey = try forge.otherKey()
        },
        Definition(variant: "raw-signature", rule: .appAttestAssertionSignature, importance: .medium,
                   description: "The signature is raw r || s, not DER.", baseline: .assertions([1])) { scenario, _ in
            scenario.assertions[0].signatureForm = .raw
        },
        Definition(variant: "other-client-data", rule: .appAttestAssertionSignature, importance: .critical,
                   description: "The signature covers other client data than the data sent with it.",
                   baseline: .assertions([1])) { scenario, forge in
            scenario.assertions[0].signedClientData = Array("transfer 1000 EUR".utf8) + (try forge.challenge("assertion 0"))
        },
        Definition(variant: "other-app", rule: .appAttestAssertionRpIdHash, importance: .critical,
                   description: "The assertion's rpIdHash is another app's.", baseline: .assertions([1])) { scenario, _ in
            scenario.assertions[0].rpIdHash = sha256(Array("ZZZZZZZZZZ.com.example.other-app".utf8))
        },
        Definition(variant: "first-zero", rule: .appAttestAssertionCounter, importance: .high,
                   description: "The first assertion's counter is 0, not above the attestation's 0.",
                   baseline: .assertions([0])) { _, _ in },
        Definition(variant: "equal", rule: .appAttestAssertionCounter, importance: .critical,
                   description: "A second assertion repeats the counter of the first (replay).",
                   baseline: .assertions([1, 1])) { _, _ in },
        Definition(variant: "lower", rule: .appAttestAssertionCounter, importance: .critical,
                   description: "The counter goes from 2 down to 1.", baseline: .assertions([2, 1])) { _, _ in },
        Definition(variant: "reset-to-zero", rule: .appAttestAssertionCounter, importance: .critical,
                   description: "The counter goes from 5 back to 0 (a cloned key).", baseline: .assertions([5, 0])) { _, _ in },
        Definition(variant: "other-challenge", rule: .appAttestAssertionChallenge, importance: .critical,
                   description: "The client data carries another challenge than the one issued.",
                   baseline: .assertions([1])) { scenario, forge in
            scenario.assertions[0].clientData = try forge.challenge("stale assertion")
        },
    ]
}

public enum CatalogueError: Error, Hashable, CustomStringConvertible {
    case badParameter(String, String)
    /// A definition whose step repeats a step that is not an earlier step of the same kind.
    case badRepetition(step: Int, repeats: Int)

    public var description: String {
        switch self {
        case .badParameter(let name, let value): return "bad profile parameter \(name)=\"\(value)\""
        case .badRepetition(let step, let repeats): return "step \(step) repeats step \(repeats), which is not an earlier step of its kind"
        }
    }
}
