import AttestCatalogue
import AttestDER
internal import CAttestOpenSSL
import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestReference
import AttestForge
import Foundation

/// Measurements for scripts/bench, as lines the script prices against `openssl speed` from the same run:
///
///     row NAME UNITS SECONDS                 a measured piece of work (UNITS attestations, chains, cases)
///     ops NAME KIND ALGORITHM COUNT          the public-key operations it asked OpenSSL for (sign, verify, keygen)
///     keygen ALGORITHM SECONDS               OpenSSL's key generation, timed here (openssl speed has no keygen)
///     floor NAME OF UNITS SECONDS            a floor for row OF measured here, not priced: OpenSSL doing the same
///                                            work on the same inputs (der.read's floors)
///     probe NAME SECONDS                     OpenSSL alone doing row NAME's operations right after each of its
///                                            rounds (`FloorProbe`), per round: its floor in the same moments
///     unprobed NAME KIND ALGORITHM           an operation the probe could not do (priced only)
///
/// Speed is measured here, never asserted in tests.
@main
enum Benchmarks {
    /// Runs `work`, printing its row and the operations it counted.
    /// `ATTEST_BENCH_ONLY=android.forge` (a prefix) measures only the rows it names, for profiling one of them.
    static let only = ProcessInfo.processInfo.environment["ATTEST_BENCH_ONLY"]

    /// With `rounds`, `work` runs again until a quarter of a second of it has passed (at most 1000 times), and the row
    /// and its operations are the means of one round. After each round OpenSSL alone does the operations the round
    /// counted (`FloorProbe`), outside the row's time: the row's floor, measured in the same moments.
    @MainActor static func measure(_ name: String, units: Int, rounds: Bool = false, _ work: () async throws -> Void) async rethrows {
        if let only, !name.hasPrefix(only) { return }
        let clock = ContinuousClock()
        var elapsed = Duration.zero, done = 0
        var ops: [String: Int] = [:], floor = GatheredFloor()
        var first: (time: Duration, ops: [String: Int])?
        repeat {
            CryptoOperations.counting(true)
            let start = clock.now
            try await work()
            let took = clock.now - start
            let roundOps = CryptoOperations.take()
            CryptoOperations.counting(false)
            floor.add(roundOps, after: took)
            elapsed += took
            ops.merge(roundOps, uniquingKeysWith: +)
            if first == nil { first = (took, roundOps) }
            done += 1
        } while rounds && done < 1000 && elapsed < .milliseconds(250)
        floor.flush()
        print("row \(name) \(units) \(seconds(elapsed) / Double(done))")
        printFloor(name, floor.seconds / Double(done), floor.unprobed)
        for (operation, count) in ops.sorted(by: { $0.key < $1.key }) {
            print("ops \(name) \(operation) \(done == 1 ? String(count) : String(Double(count) / Double(done)))")
        }
        if done > 1, let first {
            // The first round alone, as a run that forges or judges the profile once sees it (nothing remembered yet).
            print("rounds \(name) \(done)")
            print("row \(name).first \(units) \(seconds(first.time))")
            printFloor("\(name).first", floor.firstRound ?? 0, floor.unprobed)
            for (operation, count) in first.ops.sorted(by: { $0.key < $1.key }) { print("ops \(name).first \(operation) \(count)") }
        }
    }

    /// `probe ROW SECONDS`: OpenSSL's time for the row's operations, measured beside it; `unprobed ROW OPERATION`
    /// for what it could not do.
    static func printFloor(_ row: String, _ seconds: Double, _ unprobed: Set<String>) {
        print("probe \(row) \(seconds)")
        for operation in unprobed.sorted() where !operation.hasPrefix("keygen RSA") { print("unprobed \(row) \(operation)") }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, fraction) = duration.components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// Seconds `work` took.
    static func timed(_ work: () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        work()
        let (whole, fraction) = (clock.now - start).components
        return Double(whole) + Double(fraction) / 1e18
    }

    static func main() async throws {
        let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200

        // Key generation floors: OpenSSL's own generation of each key type a forge makes, timed.
        for (algorithm, runs) in [(KeyAlgorithm.ec(.p256), 200), (.ec(.p384), 200), (.ed25519, 200), (.rsa(bits: 2048), 8), (.rsa(bits: 4096), 3)]
            where only == nil {
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<runs { _ = try PrivateKey.generate(algorithm) }
            let (whole, fraction) = (clock.now - start).components
            print("keygen \(algorithm) \((Double(whole) + Double(fraction) / 1e18) / Double(runs))")
        }

        // The strict DER reader alone, over the fuzz-der seed corpus, and two floors on the same inputs in the same
        // run: d2i_ASN1_TYPE (fuzz-der's baseline in scripts/bench fuzz; it reads one TLV and copies a constructed
        // element's content without looking inside) and a walk of every TLV with ASN1_get_object (the like-for-like
        // floor: it reads everything the reader reads, builds nothing). The three take turns for 15 rounds, each
        // reading every file max(1, iterations / 10) times, and each row is its fastest round: the rounds are
        // milliseconds long, so a busy moment of the machine shows as one slow round of one of them, which the
        // minimum leaves out, instead of as a ratio moved by tens of percent.
        let corpus = ProcessInfo.processInfo.environment["ATTEST_BENCH_DER_CORPUS"] ?? "corpus/fuzz-der"
        if only.map({ "der.read".hasPrefix($0) }) ?? true,
           let names = try? FileManager.default.contentsOfDirectory(atPath: corpus), !names.isEmpty {
            let inputs = names.sorted().compactMap { FileManager.default.contents(atPath: corpus + "/" + $0).map { [UInt8]($0) } }
            let passes = max(1, iterations / 10)
            let units = inputs.count * passes
            let readers: [(name: String, accepts: ([UInt8]) -> Bool)] = [
                ("der.read", { (try? DERReader.parse($0)) != nil }),
                ("d2i_ASN1_TYPE", { input in input.withUnsafeBufferPointer { copenssl_bench_d2i_type($0.baseAddress, $0.count) == 1 } }),
                ("ASN1_get_object-walk", { input in input.withUnsafeBufferPointer { copenssl_bench_walk($0.baseAddress, $0.count) == 1 } }),
            ]
            var fastest = [Double](repeating: .infinity, count: readers.count)
            var accepted = [Int](repeating: 0, count: readers.count)
            for _ in 0..<15 {
                for (index, reader) in readers.enumerated() {
                    var count = 0
                    let seconds = timed {
                        for _ in 0..<passes {
                            for input in inputs where reader.accepts(input) { count += 1 }
                        }
                    }
                    fastest[index] = min(fastest[index], seconds)
                    accepted[index] = count / passes
                }
            }
            print("row der.read \(units) \(fastest[0])")
            for index in 1..<readers.count { print("floor \(readers[index].name) der.read \(units) \(fastest[index])") }
            for (index, reader) in readers.enumerated() {
                print("accepted \(reader.name) \(accepted[index]) of \(inputs.count)")
            }
        }

        // App Attest forge: a fresh attestation (new challenge, new credential certificate) per iteration.
        let forge = try AppAttestForge(seed: .default, appId: "A1B2C3D4E5.dev.attest-harness.example", environment: .production)
        var blueprint = try forge.scenario(assertionCounters: []).attestation
        // Rounds of `iterations` until a quarter of a second has passed; every round's challenges are new.
        var round = 0
        try await measure("appattest.forge", units: iterations, rounds: true) {
            round += 1
            for index in 0..<iterations {
                blueprint.challenge = try forge.challenge("bench \(round) \(index)")
                blueprint.clientDataHash = blueprint.challenge
                _ = try blueprint.render()
            }
        }

        // Android: fresh chains (a new leaf and KeyDescription each) over one PKI, and whole PKIs.
        let android = try AndroidForge(seed: .default, packageName: "dev.attest_harness.example",
                                       signatureDigest: [UInt8](repeating: 0x5f, count: 32))
        var scenario = try android.scenario()
        round = 0
        try await measure("android.forge", units: iterations, rounds: true) {
            round += 1
            for index in 0..<iterations {
                scenario.attestation.keyDescription.attestationChallenge = Array("bench \(round) \(index)".utf8)
                _ = try scenario.render(pki: android.pki)
            }
        }
        let pkiRuns = max(1, iterations / 50)
        try await measure("android.pki", units: pkiRuns) {
            for run in 0..<pkiRuns { _ = try AndroidPKI(seed: ForgeSeed(UInt64(9000 + run))) }
        }

        // Every built-in profile: forge its cases from a fresh seed, then judge them with the reference verifier
        // on one core.
        // A profile whose cases take milliseconds is forged and judged again until a quarter of a second has passed,
        // so that one scheduler hiccup is not its ratio: each round from a seed of its own (new keys, certificates
        // and chains, nothing a memo remembers from an earlier round), its row the mean of the rounds, time and
        // operations alike; the first round alone is printed too.
        for (index, profile) in BuiltinCatalogue.profiles.enumerated() where only.map({ "profile.\(profile.name)".hasPrefix($0) || $0.hasPrefix("profile.\(profile.name)") }) ?? true {
            try await measureProfile(profile, seedBase: UInt64(1000 + index))
        }
    }

    /// The reference verifier's run over `cases` on one core, and the time it took, measured on the executor the
    /// runner runs on: this function is not isolated to the main actor, like the runner, so its clock starts and stops
    /// there and leaves out the hop from the benchmark's main actor to that executor and back (tens of microseconds,
    /// paid once per call whatever the number of cases: the CLI pays it once per run, but it was a fifth of a
    /// nine-case round here). What it times is `Runner.run` at one job with no progress callback: a lower bound on
    /// a CLI run, which also starts a child task per case at more jobs, reports progress, and renders its report.
    nonisolated static func judge(_ cases: [Case], profile: Profile, seed: UInt64) async -> (exitCode: Int32, time: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let report = await Runner(profile: profile, verifier: ReferenceVerifier(profile: profile)).run(cases, seed: seed, jobs: 1)
        return (report.exitCode, clock.now - start)
    }

    /// Rounds of forging and judging `profile`, round r from seed `seedBase + 100 r`, until a quarter of a second
    /// has passed (at most 200); prints the forge and judge rows (means), their first rounds, and the case count.
    @MainActor static func measureProfile(_ profile: Profile, seedBase: UInt64) async throws {
        let clock = ContinuousClock()
        var forgeTime = Duration.zero, judgeTime = Duration.zero
        var forgeFloor = GatheredFloor(), judgeFloor = GatheredFloor()
        var forgeOps: [String: Int] = [:], judgeOps: [String: Int] = [:]
        var first: (forge: Duration, judge: Duration, forgeOps: [String: Int], judgeOps: [String: Int])?
        var cases: [Case] = []
        var rounds = 0
        repeat {
            let seed = seedBase + 100 * UInt64(rounds)
            CryptoOperations.counting(true)
            let forgeStart = clock.now
            cases = try BuiltinCatalogue.cases(for: profile, seed: seed)
            let forged = clock.now - forgeStart
            let forgedOps = CryptoOperations.take()
            let (exitCode, judged) = await judge(cases, profile: profile, seed: seed)
            let judgedOps = CryptoOperations.take()
            CryptoOperations.counting(false)
            precondition(exitCode == 0, "the reference verifier must be conformant while benchmarking")
            // OpenSSL alone doing the rounds' operations, beside them and outside their time (`GatheredFloor`).
            forgeFloor.add(forgedOps, after: forged)
            judgeFloor.add(judgedOps, after: judged)
            forgeTime += forged
            judgeTime += judged
            forgeOps.merge(forgedOps, uniquingKeysWith: +)
            judgeOps.merge(judgedOps, uniquingKeysWith: +)
            if first == nil { first = (forged, judged, forgedOps, judgedOps) }
            rounds += 1
        } while rounds < 200 && forgeTime + judgeTime < .milliseconds(250)
        forgeFloor.flush()
        judgeFloor.flush()
        let unprobed = forgeFloor.unprobed.union(judgeFloor.unprobed)
        func row(_ name: String, units: Int, _ time: Duration, _ ops: [String: Int], floor: Double, rounds: Int) {
            print("row \(name) \(units) \(seconds(time) / Double(rounds))")
            printFloor(name, floor / Double(rounds), unprobed)
            for (operation, count) in ops.sorted(by: { $0.key < $1.key }) {
                print("ops \(name) \(operation) \(rounds == 1 ? String(count) : String(Double(count) / Double(rounds)))")
            }
        }
        let name = "profile.\(profile.name)"
        row("\(name).forge", units: 0, forgeTime, forgeOps, floor: forgeFloor.seconds, rounds: rounds)
        row("\(name).judge", units: cases.count, judgeTime, judgeOps, floor: judgeFloor.seconds, rounds: rounds)
        if rounds > 1, let first {
            print("rounds \(name).forge \(rounds)")
            print("rounds \(name).judge \(rounds)")
            row("\(name).forge.first", units: 0, first.forge, first.forgeOps, floor: forgeFloor.firstRound ?? 0, rounds: 1)
            row("\(name).judge.first", units: cases.count, first.judge, first.judgeOps, floor: judgeFloor.firstRound ?? 0, rounds: 1)
        }
        print("cases \(name) \(cases.count) \(cases.flatMap(\.steps).count)")
    }
}
