import Foundation
import AttestFuzzOracles

/// Writes the seed corpus: `fuzz-corpus OUT_DIR REAL_SAMPLES_DIR` fills OUT_DIR/<target>/ with forge output of
/// every family and the real samples (scripts/fuzz runs it when a target's corpus folder is empty).
@main
enum FuzzCorpus {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: fuzz-corpus OUT_DIR REAL_SAMPLES_DIR\n".utf8))
            exit(2)
        }
        let out = URL(fileURLWithPath: arguments[1], isDirectory: true)
        for (target, inputs) in try SeedCorpus.inputs(realSamples: URL(fileURLWithPath: arguments[2])) {
            let directory = out.appendingPathComponent(target.rawValue)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for input in inputs {
                try Data(input).write(to: directory.appendingPathComponent(SeedCorpus.fileName(input)))
            }
            FileHandle.standardError.write(Data("fuzz-corpus: \(inputs.count) inputs for \(target.rawValue)\n".utf8))
        }
    }
}
