import AttestCatalogue
import Foundation

enum RootsCommand: Command {
    static let name = "roots"
    static let abstract = "Write the test trust anchors (PEM), the Android status list and the Play Integrity test keys, for configuring a verifier under test."
    static let usage = "--out DIR [--seed N]"
    static let options: [OptionSpec] = [
        .outDirectory,
        .seed,
        .quiet,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        let directory = try Output.directory(try arguments.required("out"))
        let seed = try arguments.seed()
        // Families share anchors (WebAuthn's android-key statements chain to the Android roots): each file once.
        var written = Set<String>()
        for family in BuiltinCatalogue.families {
            for (file, contents) in try family.trustAnchors(seed: seed).sorted(by: { $0.key < $1.key }) where written.insert(file).inserted {
                try Output.writeFile(Array(contents.utf8), to: directory.appendingPathComponent(file))
                Output.note("attest-harness roots: wrote \(directory.appendingPathComponent(file).path)\n")
            }
        }
        return 0
    }
}
