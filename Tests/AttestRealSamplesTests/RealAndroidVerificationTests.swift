import AttestCatalogue
import AttestConformance
import AttestReference
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation
import Testing

/// The reference verifier on the real Android chains, with the real Google roots, the sample status list and each
/// chain's recorded time, under the evidence-integrity rules of android-key-attestation (chain, revocation,
/// encoding, challenge, key, app binding; the device-state policy rules are left out because most samples come
/// from unlocked test devices). The server is configured as the app that made each key would configure it.
@Suite struct RealAndroidVerificationTests {
    static let integrityRules: Set<RuleID> = [
        .chainTrustAnchor, .chainValidity, .chainBasicConstraints, .chainRevoked, .chainSuspended, .androidChainLength,
        .androidChainOrder, .androidKeyDescriptionEncoding, .androidKeyDescriptionPosition, .androidChallenge,
        .androidPublicKey, .androidPackage, .androidSigningDigest,
    ]

    /// The verdict for the chain at `path`, at `time`, under `rules` (by default the integrity rules).
    static func verdict(_ path: String, time: String, rules: Set<RuleID> = integrityRules) throws -> Verdict {
        let chain = try X509Certificate.parseChain(pem: RealSamples.text(path))
        var lenient = KeyDescription.Options.lenient
        lenient.der.allowUnsortedSets = true
        let description = try KeyDescription(der: try #require(chain[0].extension(KeyDescription.extensionOID)?.value),
                                             options: lenient)
        let application = description.softwareEnforced.attestationApplicationId ?? description.hardwareEnforced.attestationApplicationId
        let anchors = try RealAndroidChainTests.hardwareRoots.map { try RealSamples.text("roots/\($0).pem") }
        let profile = Profile(name: "android-integrity", description: "", families: [AndroidFamily.name],
                              rules: rules, parameters: [
            "packageName": String(decoding: application?.packages.first?.name ?? [], as: UTF8.self),
            "signatureDigest": hex(application?.signatureDigests.first ?? []),
            "attestationStatusList": try RealSamples.text("android/status-sample.json"),
        ])
        let context = CaseContext(time: try #require(RealSamples.date(time)), trustAnchors: anchors, parameters: profile.parameters)
        let step = Step(kind: StepKind.androidKeyAttestation, inputs: [
            .certificateChain: chain.flatMap(\.der), .publicKey: chain[0].subjectPublicKeyInfo,
            .challenge: description.attestationChallenge,
        ])
        return try ReferenceVerifier(profile: profile).verdict(for: step.request, context: context)
    }

    /// What the reference verifier must say of each chain: accept, or reject under this rule.
    static let expectations: [String: RuleID?] = [
        // OpenSSL 3.0 cannot load ML-DSA keys, so it cannot build these chains (chains.json records the same).
        "android/tokay/sdk37/TEE_MLDSA_FACTORY.pem": .chainTrustAnchor,
        "android/tokay/sdk37/TEE_MLDSA_RKP.pem": .chainTrustAnchor,
        // Software roots and a pre-production root are not Google hardware anchors.
        "android/marlin/sdk29/TEE_EC_NONE.pem": .chainTrustAnchor,
        "android/marlin/sdk29/TEE_RSA_NONE.pem": .chainTrustAnchor,
        "android/google-android-key-attestation/algorithm_RSA_SecurityLevel_StrongBox.pem": .chainTrustAnchor,
        // Its leaf's issuer is not the next certificate's subject (chains.json: broken name chaining).
        "android/google-android-key-attestation/algorithm_EC_SecurityLevel_StrongBox.pem": .androidChainOrder,
        // Keys of the system ("AndroidSystem") carry no signing digest to allow-list.
        "android/akita/sdk34/TEE_RSA_BASE+IMEI.pem": .androidSigningDigest,
        "android/blueline/sdk28/TEE_RSA_BASE+IMEI.pem": .androidSigningDigest,
        // A tampered leaf (its signature does not verify); malformed_rot_device_locked.pem, upstream's other
        // "invalid" sample, is a genuine device's chain and is accepted (below).
        "android/invalid/tags_not_in_ascending_order.pem": .chainTrustAnchor,
    ]

    @Test(arguments: try RealAndroidChainTests.entries().filter { !$0.path.contains("p256_sha384") })
    func verdictMatchesTheChain(entry: RealAndroidChainTests.Entry) throws {
        let verdict = try Self.verdict(entry.path, time: entry.validationTime)
        if let expected = Self.expectations[entry.path] {
            #expect(verdict.outcome == .reject && verdict.rule == expected, "\(verdict.rule?.rawValue ?? "-"): \(verdict.reason ?? "")")
        } else {
            #expect(verdict == .accept, "\(verdict.rule?.rawValue ?? "-"): \(verdict.reason ?? "")")
        }
    }
}

extension RealAndroidVerificationTests {
    /// Google's suspended sample certificate is rejected by the status-list check, under its rule.
    @Test func suspendedCertificateIsRejected() throws {
        let certificate = try #require(try X509Certificate.parseChain(pem: RealSamples.text("android/revocation/suspended-cert-cc66e9a9.pem")).first)
        let profile = Profile(name: "revocation", description: "", families: [AndroidFamily.name], rules: [.chainRevoked, .chainSuspended],
                              parameters: ["packageName": "", "signatureDigest": "",
                                           "attestationStatusList": try RealSamples.text("android/status-sample.json")])
        let context = CaseContext(time: certificate.notBefore, trustAnchors: [], parameters: profile.parameters)
        let step = Step(kind: StepKind.androidKeyAttestation, inputs: [
            .certificateChain: certificate.der, .publicKey: certificate.subjectPublicKeyInfo, .challenge: [],
        ])
        let verdict = try ReferenceVerifier(profile: profile).verdict(for: step.request, context: context)
        #expect(verdict.outcome == .reject && verdict.rule == .chainSuspended, "\(verdict)")
    }
}

/// Genuine Google-signed chains that a strict reading of a standard refuses, though devices emit them, so no
/// built-in profile may refuse them and only a profile that opts into the strict rule does:
/// - android/keyattestation's testdata/invalid/malformed_rot_device_locked.pem: RootOfTrust.deviceLocked is BOOLEAN
///   01 (Google's own test parses it with deviceLocked true); android.keyDescription.strictDer;
/// - testdata/sony-xperia10-iii/sdk33/TEE_EC.pem: the factory keybox's attestation key certificate is cA FALSE with
///   digitalSignature alone (RFC 5280 §6.1.4 (k), (n)); android.chain.attestationKeyIsCA.
@Suite struct GenuineDeviceChainTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        let path: String
        let time: String
        /// The opt-in rule that refuses it, and a word its reason must contain.
        let strictRule: RuleID
        let reasonMentions: String
        var testDescription: String { path }
    }

    static let samples = [
        Sample(path: "android/invalid/malformed_rot_device_locked.pem", time: "2026-02-13T15:08:20.000Z",
               strictRule: .androidKeyDescriptionStrictDER, reasonMentions: "invalidBoolean"),
        Sample(path: "android/sony-xperia10-iii/sdk33/TEE_EC.pem", time: "2021-05-25T16:53:56.000Z",
               strictRule: .androidChainAttestationKeyIsCA, reasonMentions: "at depth 1"),
    ]

    /// Every built-in profile that verifies Android chains, configured as the app that made the key would configure
    /// it. The passkey-import profile's key policy (a key that needs user authentication, P-256 only) is about which
    /// keys that API imports, not about the device, and these keys have noAuthRequired, so those five rules are
    /// left out.
    @Test(arguments: samples, BuiltinCatalogue.profiles.filter { $0.families.contains(AndroidFamily.name) }.map(\.name))
    func everyBuiltinProfileAcceptsIt(sample: Sample, profileName: String) throws {
        let profile = try #require(BuiltinCatalogue.profile(named: profileName))
        #expect(!profile.enforces(sample.strictRule))
        let rules = profile.rules.subtracting(AndroidRules.keyPolicy.map(\.id))
            .filter { $0.rawValue.hasPrefix("android.") || $0.rawValue.hasPrefix("chain.") }
        #expect(rules.contains(.androidKeyDescriptionEncoding) && rules.contains(.androidRootOfTrust)
                && rules.contains(.chainBasicConstraints))
        let verdict = try RealAndroidVerificationTests.verdict(sample.path, time: sample.time, rules: Set(rules))
        #expect(verdict == .accept, "\(verdict.rule?.rawValue ?? "-"): \(verdict.reason ?? "")")
    }

    /// A user's strict profile opts in and refuses it, naming the rule and what is wrong.
    @Test(arguments: samples)
    func aProfileThatOptsInRefusesIt(sample: Sample) throws {
        let rules = Profile.androidKeyAttestation.rules.union([sample.strictRule])
        let verdict = try RealAndroidVerificationTests.verdict(sample.path, time: sample.time, rules: rules)
        #expect(verdict.outcome == .reject && verdict.rule == sample.strictRule, "\(verdict)")
        #expect(verdict.reason?.contains(sample.reasonMentions) == true, "\(verdict.reason ?? "")")
    }
}

/// The BOOLEAN 01 sample, read as Google reads it.
@Suite struct GenuineNonCanonicalBooleanTests {
    static let path = "android/invalid/malformed_rot_device_locked.pem"

    /// The lenient reading is Google's: deviceLocked TRUE.
    @Test func itReadsAsLocked() throws {
        let chain = try X509Certificate.parseChain(pem: RealSamples.text(Self.path))
        var options = KeyDescription.Options.default
        options.der.allowNonCanonicalBooleans = true
        let description = try KeyDescription(der: try #require(chain[0].extension(KeyDescription.extensionOID)?.value), options: options)
        #expect(description.hardwareEnforced.rootOfTrust?.deviceLocked == true)
        #expect(throws: DERError.self) { try KeyDescription(der: chain[0].extension(KeyDescription.extensionOID)?.value ?? [], options: .default) }
    }
}

/// The Sony factory chain judged at a date after its intermediates and root expired (2026-05-24). android/keyattestation
/// accepts it: it waives expiry in a factory-provisioned chain, one whose certificate below the root is named by a
/// serialNumber ("Ignore validity on factory-provisioned certificate chains because it is not possible to safely
/// rotate the keys", KeyAttestationCertPathValidator.kt, since commit 31fbda4). So the Google-style profile accepts it,
/// and every profile that follows the documentation (RFC 5280 exempts no certificate) refuses it under
/// android.chain.factoryExpiry, the rule that says why, and not under chain.validity.
@Suite struct ExpiredFactoryChainTests {
    static let today = "2026-12-03T12:00:00.000Z"

    static func rules(of profile: Profile) -> Set<RuleID> {
        profile.rules.subtracting(AndroidRules.keyPolicy.map(\.id))
            .filter { $0.rawValue.hasPrefix("android.") || $0.rawValue.hasPrefix("chain.") }
    }

    @Test func theGoogleStyleProfileAcceptsItToday() throws {
        let rules = Self.rules(of: .androidKeyAttestationGoogle)
        #expect(rules.contains(.chainValidity) && !rules.contains(.androidChainFactoryExpiry))
        let verdict = try RealAndroidVerificationTests.verdict("android/sony-xperia10-iii/sdk33/TEE_EC.pem", time: Self.today, rules: rules)
        #expect(verdict == .accept, "\(verdict)")
    }

    @Test(arguments: BuiltinCatalogue.profiles.filter { $0.families.contains(AndroidFamily.name) && $0.enforces(.androidChainFactoryExpiry) }.map(\.name))
    func aDocumentationProfileRefusesItUnderTheRuleThatSaysWhy(profileName: String) throws {
        let profile = try #require(BuiltinCatalogue.profile(named: profileName))
        let rules = Self.rules(of: profile)
        #expect(rules.contains(.chainValidity))
        let verdict = try RealAndroidVerificationTests.verdict("android/sony-xperia10-iii/sdk33/TEE_EC.pem", time: Self.today, rules: rules)
        #expect(verdict.outcome == .reject && verdict.rule == .androidChainFactoryExpiry, "\(verdict)")
        #expect(verdict.reason?.contains("expired") == true, "\(verdict.reason ?? "")")
        // Without that one rule nothing else refuses it, chain.validity included: the expiry is all that is wrong.
        let waived = try RealAndroidVerificationTests.verdict("android/sony-xperia10-iii/sdk33/TEE_EC.pem", time: Self.today,
                                                              rules: rules.subtracting([.androidChainFactoryExpiry]))
        #expect(waived == .accept, "\(waived)")
        // At a date inside every certificate's validity the same profile accepts it.
        let then = try RealAndroidVerificationTests.verdict("android/sony-xperia10-iii/sdk33/TEE_EC.pem",
                                                            time: "2021-05-25T16:53:56.000Z", rules: rules)
        #expect(then == .accept, "\(then)")
    }

    /// Not-yet-valid is not waived: a factory chain judged before its intermediates were issued is refused by both.
    @Test func notYetValidStaysUnderChainValidity() throws {
        for profile in [Profile.androidKeyAttestationGoogle, .androidKeyAttestation] {
            let verdict = try RealAndroidVerificationTests.verdict("android/sony-xperia10-iii/sdk33/TEE_EC.pem",
                                                                   time: "2016-01-01T00:00:00.000Z", rules: Self.rules(of: profile))
            #expect(verdict.outcome == .reject && verdict.rule == .chainValidity, "\(profile.name): \(verdict)")
        }
    }
}
