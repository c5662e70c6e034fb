import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import AttestForge
import Foundation

/// Measurements for scripts/bench, printed as `name value` lines (seconds and counts) for the script to compare
/// with `openssl speed`. Speed is measured here, never asserted in tests.
@main
enum Benchmarks {
    static func main() async throws {
        let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200
        let profile = Profile.appleAppAttest

        // Forge throughput: a fresh attestation (new challenge, new credential certificate) per iteration.
        let forge = try AppAttestForge(seed: .default, appId: "A1B2C3D4E5.dev.attest-harness.example", environment: .production)
        var blueprint = try forge.scenario(assertionCounters: []).attestation
        let forgeStart = Date()
        for index in 0..<iterations {
            blueprint.challenge = try forge.challenge("bench \(index)")
            blueprint.clientDataHash = blueprint.challenge
            _ = try blueprint.render()
        }
        let forgeSeconds = Date().timeIntervalSince(forgeStart)

        // Android: fresh chains (a new leaf and KeyDescription each) over one PKI, and whole PKIs.
        let android = try AndroidForge(seed: .default, packageName: "dev.attest_harness.example",
                                       signatureDigest: [UInt8](repeating: 0x5f, count: 32))
        var scenario = try android.scenario()
        let chainStart = Date()
        for index in 0..<iterations {
            scenario.attestation.keyDescription.attestationChallenge = Array("bench \(index)".utf8)
            _ = try scenario.render(pki: android.pki)
        }
        let chainSeconds = Date().timeIntervalSince(chainStart)
        let pkiRuns = max(1, iterations / 20)
        let pkiStart = Date()
        for _ in 0..<pkiRuns { _ = try AndroidPKI(seed: .default) }
        let pkiSeconds = Date().timeIntervalSince(pkiStart)

        // Catalogue: forge every case from scratch, then run it against the reference verifier on one core.
        let catalogueStart = Date()
        let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
        let forgedAt = Date()
        let report = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(cases, seed: 1, jobs: 1)
        let end = Date()
        precondition(report.exitCode == 0, "the reference verifier must be conformant while benchmarking")

        let attestationSteps = cases.flatMap(\.steps).filter { $0.kind == StepKind.appAttestAttestation }.count
        let assertionSteps = cases.flatMap(\.steps).filter { $0.kind == StepKind.appAttestAssertion }.count
        print("android.chains \(iterations)")
        print("android.chains.seconds \(chainSeconds)")
        print("android.pki \(pkiRuns)")
        print("android.pki.seconds \(pkiSeconds)")
        print("forge.iterations \(iterations)")
        print("forge.seconds \(forgeSeconds)")
        print("catalogue.cases \(cases.count)")
        print("catalogue.forge.seconds \(forgedAt.timeIntervalSince(catalogueStart))")
        print("catalogue.run.seconds \(end.timeIntervalSince(forgedAt))")
        // The signature operations the catalogue cannot avoid: per attestation a P-384 credential certificate
        // signature and two P-384 chain verifications; per assertion a P-256 signature and a P-256 verification.
        print("catalogue.p384.sign \(attestationSteps)")
        print("catalogue.p384.verify \(2 * attestationSteps)")
        print("catalogue.p256.sign \(assertionSteps)")
        print("catalogue.p256.verify \(assertionSteps)")

        // Every built-in profile: forge its cases, then judge them with the reference verifier on one core.
        for builtin in BuiltinCatalogue.profiles {
            let start = Date()
            let cases = try BuiltinCatalogue.cases(for: builtin, seed: 1)
            let forged = Date()
            let report = await Runner(profile: builtin, verifier: ReferenceVerifier(profile: builtin)).run(cases, seed: 1, jobs: 1)
            precondition(report.exitCode == 0, "the reference verifier must be conformant while benchmarking")
            print("profile \(builtin.name) \(cases.count) \(cases.flatMap(\.steps).count) \(forged.timeIntervalSince(start)) \(Date().timeIntervalSince(forged))")
        }
    }
}
