import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestReference
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation
import Testing

/// The 15 W3C WebAuthn L3 test vectors and the 2 real registrations py_webauthn ships: the reference verifier
/// accepts each at its recorded time (or refuses it under the rule the spec's own procedure breaks), and the
/// forge writes clientDataJSON and authenticator data byte for byte as the vectors do.
@Suite struct RealWebAuthnTests {
    /// Every COSE algorithm the vectors use, so that step 20 does not refuse their keys.
    static let allAlgorithms = COSEKey.Algorithm.allCases.map { String($0.rawValue) }.joined(separator: ",")
    static let user = Array("w3c test vector user".utf8)

    struct Vector: CustomTestStringConvertible, Sendable {
        let file: String
        let context: CaseContext
        let registration: Step
        let assertion: Step
        var testDescription: String { file }

        init(file: String) throws {
            self.file = file
            let json = try RealSamples.json("webauthn/\(file)")
            let registration = try #require(json["registration"] as? [String: Any])
            let authentication = try #require(json["authentication"] as? [String: Any])
            func field(_ object: [String: Any], _ key: String) throws -> [UInt8] {
                try #require(bytes(fromHex: object[key] as? String ?? ""), "\(file): \(key)")
            }
            let time = RealSamples.date(json["validationTime"] as? String ?? "") ?? RealSamples.date("2024-01-02T00:00:00Z")!
            context = CaseContext(
                time: time, trustAnchors: [try RealSamples.text("webauthn/w3c-attestation-ca.pem")],
                parameters: ["rpId": json["rpId"] as? String ?? "", "origins": json["origin"] as? String ?? "",
                             "topOrigins": json["topOrigin"] as? String ?? "", "allowCrossOrigin": "true",
                             "algorithms": RealWebAuthnTests.allAlgorithms, "userVerification": "preferred", "attestation": "none"])
            self.registration = Step(kind: StepKind.webAuthnRegistration, inputs: [
                .clientDataJSON: try field(registration, "clientDataJSON"),
                .attestationObject: try field(registration, "attestationObject"),
                .challenge: try field(registration, "challenge"), .user: RealWebAuthnTests.user,
            ])
            assertion = Step(kind: StepKind.webAuthnAssertion, inputs: [
                .credentialId: try field(registration, "credential_id"),
                .clientDataJSON: try field(authentication, "clientDataJSON"),
                .authenticatorData: try field(authentication, "authenticatorData"),
                .signature: try field(authentication, "signature"),
                .challenge: try field(authentication, "challenge"), .user: RealWebAuthnTests.user,
            ])
        }

        func verdicts() throws -> [Verdict] {
            var session = try ReferenceVerifier(profile: BuiltinCatalogue.profile(named: "webauthn-l3")!).startCase(context)
            return try [registration, assertion].map { try session.verify($0.request) }
        }
    }

    static func vectorFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: RealSamples.directory.appendingPathComponent("webauthn").path)
            .filter { $0.hasPrefix("w3c-") && $0.hasSuffix(".json") }.sorted()
    }

    /// Vectors the spec's own procedure refuses, with the rule that refuses them.
    static let refused: [String: RuleID] = [
        // attestationVersion 300 with empty authorization lists: no origin, no purpose (WebAuthn L3 §8.4).
        "w3c-android-key-es256.json": .androidOrigin,
    ]

    @Test func thereAreFifteenVectors() throws { #expect(try Self.vectorFiles().count == 15) }

    @Test(arguments: try vectorFiles().map { try Vector(file: $0) })
    func referenceVerifierJudgesTheVector(vector: Vector) throws {
        let verdicts = try vector.verdicts()
        if let rule = Self.refused[vector.file] {
            #expect(verdicts[0].outcome == .reject && verdicts[0].rule == rule, "\(verdicts[0])")
        } else {
            #expect(verdicts == [.accept, .accept], "\(verdicts.map { "\($0.rule?.rawValue ?? "") \($0.reason ?? "")" })")
        }
    }

    /// Every vector is refused once its assertion signature or its registration's clientDataJSON changes.
    @Test(arguments: try vectorFiles().filter { Self.refused[$0] == nil }.map { try Vector(file: $0) })
    func tamperedVectorsAreRefused(vector: Vector) throws {
        var session = try ReferenceVerifier(profile: BuiltinCatalogue.profile(named: "webauthn-l3")!).startCase(vector.context)
        #expect(try session.verify(vector.registration.request) == .accept)
        var inputs = vector.assertion.inputs
        inputs[.signature]![inputs[.signature]!.count - 1] ^= 0x01
        let verdict = try session.verify(VerifierStep(kind: vector.assertion.kind, inputs: inputs))
        #expect(verdict.rule == .webAuthnAssertionSignature)

        var registration = vector.registration.inputs
        registration[.clientDataJSON]![10] ^= 0x01
        var fresh = try ReferenceVerifier(profile: BuiltinCatalogue.profile(named: "webauthn-l3")!).startCase(vector.context)
        #expect(try fresh.verify(VerifierStep(kind: vector.registration.kind, inputs: registration)).outcome == .reject)
    }

    // MARK: Real registrations

    @Test(arguments: ["pywebauthn-apple-passkey.json", "pywebauthn-android-key-pixel8a.json"])
    func acceptsTheRealRegistration(file: String) throws {
        let json = try RealSamples.json("webauthn/\(file)")
        let credential = try #require(json["credential"] as? [String: Any])
        let response = try #require(credential["response"] as? [String: Any])
        func field(_ key: String) throws -> [UInt8] { try #require(Base64URL.decode(response[key] as? String ?? ""), "\(key)") }
        let anchor = (json["trustAnchor"] as? String ?? "").split(separator: " ").first.map(String.init) ?? ""
        let context = CaseContext(
            time: try #require(RealSamples.date(json["validAt"] as? String ?? "")), trustAnchors: [try RealSamples.text(anchor)],
            parameters: ["rpId": json["expectedRpId"] as? String ?? "", "origins": json["expectedOrigin"] as? String ?? "",
                         "algorithms": Self.allAlgorithms, "userVerification": "preferred", "attestation": "direct"])
        let step = Step(kind: StepKind.webAuthnRegistration, inputs: [
            .clientDataJSON: try field("clientDataJSON"), .attestationObject: try field("attestationObject"),
            .challenge: try #require(Base64URL.decode(json["expectedChallenge_b64url"] as? String ?? "")), .user: Self.user,
        ])
        let profile = BuiltinCatalogue.profile(named: "webauthn-l3")!
        #expect(try ReferenceVerifier(profile: profile).verdict(for: step.request, context: context) == .accept)

        // A day after the credential certificate expired, the same registration fails on validity.
        let window = try #require(json["chainValidityWindow"] as? [String])
        var late = context
        late.time = try #require(RealSamples.date(window[1])) + 86_400
        #expect(try ReferenceVerifier(profile: profile).verdict(for: step.request, context: late).rule == .chainValidity)
    }

    // MARK: Forge structure against the vectors

    /// The W3C vector's P-256 credential key, from its private scalar (SEC 1 ECPrivateKey; OpenSSL derives the point).
    static func credentialKey(_ scalar: [UInt8]) throws -> PrivateKey {
        let der = DERElement.sequence([.integer(1), .octetString(scalar), .explicit(0, .oid("1.2.840.10045.3.1.7"))]).serialized
        return try PrivateKey(pem: PEMBlock(label: "EC PRIVATE KEY", der: der).text)
    }

    /// The forge, given a vector's inputs, writes its clientDataJSON and authenticator data byte for byte; for
    /// `none` the whole attestation object; for the others the statement's keys in the vector's order.
    @Test(arguments: ["w3c-none-es256.json", "w3c-packed-es256.json", "w3c-apple-es256.json", "w3c-android-key-es256.json"])
    func forgeWritesTheVectorsBytes(file: String) throws {
        let json = try RealSamples.json("webauthn/\(file)")
        let vector = try #require(json["registration"] as? [String: Any])
        func field(_ key: String) throws -> [UInt8] { try #require(bytes(fromHex: vector[key] as? String ?? ""), "\(key)") }
        let expectedObject = try CBORReader.decode(try field("attestationObject"))
        let expectedAuthData = try #require(expectedObject["authData"]?.bytesValue)
        let seed = ForgeSeed.default
        let pki = try WebAuthnPKI(seed: seed)
        let statement: AttestationStatementBlueprint
        switch json["attestationFormat"] as? String {
        case "none": statement = .none
        case "apple": statement = .apple(AppleStatement(intermediate: pki.appleIntermediate, validity: (Date(), Date() + 86_400)))
        case "android-key":
            let android = try AndroidForge(seed: seed, packageName: "org.example", signatureDigest: Array(repeating: 1, count: 32))
            statement = .androidKey(AndroidKeyStatement(android: try android.scenario(), pki: android.pki))
        default:
            statement = .packed(PackedStatement(issuer: pki.attestationRoot, attestationKey: pki.attestationKey,
                                                subject: PackedStatement.subject(vendor: "W3C"), validity: (Date(), Date() + 86_400)))
        }
        var blueprint = RegistrationBlueprint(
            user: Self.user, challenge: try field("challenge"), origin: json["origin"] as? String ?? "", rpId: json["rpId"] as? String ?? "",
            aaguid: try field("aaguid"), credentialId: try field("credential_id"),
            credentialKey: try Self.credentialKey(try field("credential_private_key")), statement: statement)
        blueprint.flags = AuthenticatorData.Flags(rawValue: expectedAuthData[32])
        if let extra = vector["extraData_random_b64url"] as? String,
           (try field("client_data_gen_flags"))[0] & 0x01 == 1 {
            blueprint.clientData.remainder = "\"extraData\":" + CollectedClientData.ccdString(
                "clientDataJSON may be extended with additional fields in the future, such as this: \(extra)")
        }
        let forged = try blueprint.render()
        #expect(forged.clientDataJSON == (try field("clientDataJSON")))
        #expect(try blueprint.authenticatorData() == expectedAuthData)
        let forgedObject = try CBORReader.decode(forged.attestationObject)
        #expect(forgedObject.mapEntries?.map(\.key) == expectedObject.mapEntries?.map(\.key))
        #expect(forgedObject["attStmt"]?.mapEntries?.map(\.key) == expectedObject["attStmt"]?.mapEntries?.map(\.key))
        if statement.format == WebAuthnFormat.none {
            #expect(forged.attestationObject == (try field("attestationObject")))
        }
    }

    /// The assertion the forge writes from the W3C none-es256 inputs has the vector's clientDataJSON and
    /// authenticator data, and a signature the vector's key verifies.
    @Test func forgeWritesTheVectorsAssertion() throws {
        let json = try RealSamples.json("webauthn/w3c-none-es256.json")
        let registration = try #require(json["registration"] as? [String: Any])
        let vector = try #require(json["authentication"] as? [String: Any])
        func field(_ object: [String: Any], _ key: String) throws -> [UInt8] { try #require(bytes(fromHex: object[key] as? String ?? ""), "\(key)") }
        let key = try Self.credentialKey(try field(registration, "credential_private_key"))
        let expectedAuthData = try field(vector, "authenticatorData")
        var blueprint = WebAuthnAssertionBlueprint(
            user: Self.user, credentialId: try field(registration, "credential_id"), challenge: try field(vector, "challenge"),
            origin: "https://example.org", rpId: "example.org", signCount: 0, userHandle: nil, signingKey: key)
        blueprint.flags = AuthenticatorData.Flags(rawValue: expectedAuthData[32])
        let forged = try blueprint.render()
        #expect(forged.clientDataJSON == (try field(vector, "clientDataJSON")))
        #expect(forged.authenticatorData == expectedAuthData)
        #expect(key.publicKey.verify(forged.signature, for: forged.authenticatorData + sha256(forged.clientDataJSON), digest: .sha256))
        #expect(key.publicKey.verify(try field(vector, "signature"), for: expectedAuthData + sha256(forged.clientDataJSON), digest: .sha256))
    }

    /// CCDToString escapes only `"`, `\` and control characters, with lowercase hex (§5.8.1.1).
    @Test func clientDataStringsAreEscapedAsBrowsersDo() {
        #expect(CollectedClientData.ccdString("a\"b\\c\u{1}\u{1f}é/<") == "\"a\\\"b\\\\c\\u0001\\u001fé/<\"")
    }
}
