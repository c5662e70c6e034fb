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
}
