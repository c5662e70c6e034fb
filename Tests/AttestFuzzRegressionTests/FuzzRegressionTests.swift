import AttestDER
import AttestCrypto
import AttestConformance
import AttestReference
import AttestForge
import AttestCatalogue
import AttestEvidence
import Foundation
import AttestFuzzOracles
import Testing

/// Replays, without fuzzer instrumentation, every crash reproducer in corpus/regressions/<target>/ and every seed
/// in corpus/<target>/ through the same properties the libFuzzer entry points check.
@Suite struct FuzzRegressionTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../corpus").standardizedFileURL

    static func files(_ folder: String) -> [URL] {
        let directory = corpus.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { directory.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionsStayFixed(target: FuzzTarget) throws {
        for file in Self.files("regressions/\(target.rawValue)") {
            let violation = target.check(Array(try Data(contentsOf: file)))
            #expect(violation == nil, "\(file.lastPathComponent): \(violation ?? "")")
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedCorpusHoldsTheProperty(target: FuzzTarget) throws {
        let seeds = Self.files(target.rawValue)
        #expect(!seeds.isEmpty, "corpus/\(target.rawValue) is empty")
        for file in seeds {
            let violation = target.check(Array(try Data(contentsOf: file)))
            #expect(violation == nil, "\(file.lastPathComponent): \(violation ?? "")")
        }
    }

    /// fuzz-differential's seeds name their choices (a script value is the index it picks): together they make a
    /// mutant of every mutation of every family in every profile the target fuzzes.
    @Test func differentialSeedsReachEveryMutation() {
        let reach = DifferentialOracle.seedReach()
        #expect(reach.mutations > 600)
        #expect(reach.reached == reach.mutations)
    }

    @Test func theRegressionFolderIsNotEmpty() {
        #expect(!Self.files("regressions/fuzz-cbor").isEmpty)
    }

    @Test func attestationMutatorChangesOneFieldAndKeepsTheFrame() throws {
        // A genuine forged attestation, not a corpus file: minimization may keep only mutated ones.
        let valid = try #require(try BuiltinCatalogue.allCases(seed: 1).first { $0.rule == nil && $0.family == .appAttest })
        let original = try #require(valid.steps[0].inputs[.attestationObject])
        var changed = 0
        for seed in UInt32(1)..<64 where seed % 8 != 0 {
            let mutated = AttestationMutator.mutate(original, maxSize: 1 << 16, seed: seed) { bytes, _ in
                bytes.append(0xaa)
            }
            #expect(mutated.first == original.first, "still a map of the same size")
            if mutated != original { changed += 1 }
        }
        #expect(changed == 63 - 7)
        // Every eighth call, and undecodable input, goes to the byte mutator whole.
        let raw = AttestationMutator.mutate(original, maxSize: 1 << 16, seed: 8) { bytes, _ in bytes = [1] }
        #expect(raw == [1])
    }

    /// The libcbor empty-container crash the fuzzer found first, pinned.
    @Test func emptyIndefiniteMapKeyIsHandled() {
        #expect(FuzzTarget.cbor.check([0xa2, 0xbf, 0xff, 0x07, 0x63, 0x33, 0x39, 0x35, 0x35]) == nil)
    }

    /// The remote crash of issue 15: an App Attest credential certificate with an extension OID that OpenSSL reads
    /// but 64-bit arcs cannot hold (an arc of 2^64), or whose dotted text is over 127 characters, trapped in
    /// `X509Certificate.extensions` before chain validation. The reference verifier now answers a verdict.
    @Test(arguments: [
        [0x2a, 0x82] + [UInt8](repeating: 0x80, count: 8) + [0x00],
        [0x2a] + Array([[UInt8]](repeating: [0x87, 0xc4, 0x40], count: 40).joined()),
    ] as [[UInt8]])
    func oddExtensionOIDsInTheCredentialCertificateGetAVerdict(oid content: [UInt8]) throws {
        let valid = try #require(try BuiltinCatalogue.cases(for: .appleAppAttest, seed: 1).first { $0.rule == nil })
        let forge = try AppAttestForge(seed: ForgeSeed(1), appId: "A1B2C3D4E5.dev.attest-harness.example", environment: .production)
        var blueprint = try forge.scenario(assertionCounters: []).attestation
        let oid = try #require(DERObjectIdentifier(contentBytes: content))
        blueprint.extraCredentialExtensions = [CertificateExtension(oid: oid, critical: false, value: [0x05, 0x00])]
        let output = try blueprint.render()
        #expect(output.credentialCertificate.extensions.contains { $0.oid == oid })
        let step = VerifierStep(kind: .appAttestAttestation, inputs: [
            .attestationObject: output.attestationObject, .keyId: output.keyId, .challenge: output.challenge,
        ])
        let verdict = try ReferenceVerifier(profile: .appleAppAttest).verdict(for: step, context: valid.context)
        // Apple's checks do not look at unknown non-critical extensions: the attestation stands.
        #expect(verdict == .accept, "\(verdict)")
    }
}

/// fuzz-certificates' mutator reaches inside certificates, and its property holds on what it produces.
@Suite struct CertificateMutatorTests {
    @Test func mutationsChangeTheCertificateAndTheVerifierRefusesThem() throws {
        let seeds = CertificateOracle.seeds
        #expect(seeds.count == 6)
        var changed = 0, judged = 0
        for (index, seed) in seeds.enumerated() {
            #expect(FuzzTarget.certificates.check(seed) == nil, "the genuine certificate of slot \(index)")
            for round in UInt32(1)...12 {
                let mutated = CertificateMutator.mutate(seed, maxSize: 1 << 16, seed: round &* 7919 &+ UInt32(index)) { bytes, _ in
                    if !bytes.isEmpty { bytes[bytes.count / 2] ^= 0x01 }
                }
                if mutated != seed { changed += 1 }
                // The property runs the reference verifier on every mutant and holds: no changed certificate accepted.
                #expect(FuzzTarget.certificates.check(mutated) == nil, "slot \(index) round \(round)")
                judged += 1
            }
        }
        #expect(changed > judged * 3 / 4)
    }
}

/// Certificate-path verification is remembered by the exact bytes it depends on (fuzzing throughput), so a
/// mutation inside the chain must still reach OpenSSL: the verdict on a chain whose intermediate's signature has
/// one bit flipped is a refusal even right after the genuine chain was verified and remembered.
@Suite struct RememberedChainTests {
    @Test func aMutationInsideARememberedChainIsStillRefused() throws {
        let profile = Profile.androidKeyAttestation
        let valid = try #require(try BuiltinCatalogue.cases(for: profile, seed: 1).first { $0.rule == nil })
        let chain = try #require(valid.steps[0].inputs[.certificateChain])
        let verifier = ReferenceVerifier(profile: profile)
        func verdict(_ bytes: [UInt8]) throws -> Verdict {
            var inputs = valid.steps[0].inputs
            inputs[.certificateChain] = bytes
            return try verifier.verdict(for: Step(kind: valid.steps[0].kind, inputs: inputs).request, context: valid.context)
        }
        #expect(try verdict(chain) == .accept)
        #expect(try verdict(chain) == .accept, "a remembered answer is the same answer")
        // The last byte of a certificate is inside its signature (the BIT STRING ends the certificate): flipped in the
        // second (the device's attestation key certificate, which the memo key also names for its own rule) and in
        // the third (an intermediate only the list of intermediates names).
        let certificates = try DERReader.parseSequence(chain)
        #expect(certificates.count >= 4)
        for index in [1, 2] {
            let end = certificates[0...index].reduce(0) { $0 + $1.serialized.count }
            for flip: UInt8 in [0x01, 0x80] {
                var mutated = chain
                mutated[end - 1] ^= flip
                let refused = try verdict(mutated)
                #expect(refused.outcome == .reject && refused.rule == .chainTrustAnchor, "certificate \(index): \(refused)")
            }
        }
        #expect(try verdict(chain) == .accept)
    }
}
