import Foundation
import Testing

/// attest-harness as other packages see it: the example consumer builds against it and finds exactly its planted
/// gaps through the testing product, and a consumer that also depends on packages with swift-crypto's,
/// swift-certificates', swift-asn1's, SwiftCBOR's, jwt-kit's and Vapor's module names and public names builds.
@Suite(.serialized) struct PackageConsumerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    /// A consumer's build compiles this whole package again: generous, but bounded.
    static let buildTimeout: TimeInterval = 900

    /// The names of each foreign module, from Fixtures/foreign-public-names.txt.
    static func foreignNames() throws -> [String: Set<String>] {
        let text = try String(contentsOf: fixtures.appendingPathComponent("foreign-public-names.txt"), encoding: .utf8)
        var names: [String: Set<String>] = [:]
        var module: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if line.hasPrefix("#") {
                // "# owner/repo sha module Name" opens a section; "# vapor re-exports: ..." names single declarations
                // (`AsyncHTTPClient.HTTPClient`) that a Vapor user sees too; other comment lines are notes.
                let words = line.split(separator: " ").map(String.init)
                if words.count == 5, words[3] == "module" { module = words[4] }
                if line.hasPrefix("# vapor re-exports:") {
                    for word in words where word.contains(".") { names["Vapor", default: []].insert(String(word.split(separator: ".").last ?? "")) }
                }
                continue
            }
            guard let module else { continue }
            names[module, default: []].insert(line.trimmingCharacters(in: .whitespaces))
        }
        return names
    }

    /// One public top-level declaration of ours.
    struct Declaration: Hashable {
        let name: String
        let kind: String
        let generic: Bool
        let file: String
    }

    /// Our public top-level declarations: lines at column 0 that declare a public or open type, function or value,
    /// in every Attest module.
    static func ourDeclarations() throws -> [Declaration] {
        let pattern = try Regex(#"^(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:(?:final|indirect|nonisolated)\s+)*(struct|enum|class|actor|protocol|typealias|func|let|var)\s+(\w+)(<)?"#)
        var found: [Declaration] = []
        let sources = repository.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = url.path.replacingOccurrences(of: sources.path + "/", with: "")
            guard relative.hasPrefix("Attest") || relative.hasPrefix("Fuzz/Attest") else { continue }
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                guard let match = try pattern.prefixMatch(in: line),
                      let kind = match.output[1].substring, let name = match.output[2].substring else { continue }
                found.append(Declaration(name: String(name), kind: String(kind), generic: match.output[3].substring != nil,
                                         file: relative))
            }
        }
        return found
    }

    @Test func noPublicTopLevelNameOfOursIsAForeignOne() throws {
        let foreign = try Self.foreignNames()
        #expect(foreign.keys.contains("Crypto") && foreign.keys.contains("X509") && foreign.keys.contains("SwiftASN1")
                && foreign.keys.contains("SwiftCBOR") && foreign.keys.contains("JWTKit") && foreign.keys.contains("Vapor"))
        let ours = try Self.ourDeclarations()
        #expect(ours.count > 100, "the scan found our public declarations")
        for declaration in ours {
            for (module, names) in foreign where names.contains(declaration.name) {
                Issue.record("\(declaration.file): public \(declaration.kind) \(declaration.name) clashes with \(module).\(declaration.name)")
            }
        }
    }

    @Test func aConsumerOfEveryForeignModuleNameBuilds() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("attest-clash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let foreign = try Self.foreignNames()
        let modules = foreign.keys.sorted()
        // The stand-ins: one package whose modules carry the foreign modules' names and declare their public names.
        let standIns = work.appendingPathComponent("stand-ins")
        for module in modules {
            let declarations = foreign[module, default: []].sorted().map { name in
                name.first?.isUppercase == true ? "public struct `\(name)` {}" : "public func `\(name)`() {}"
            }
            try write(declarations.joined(separator: "\n") + "\n", to: standIns.appendingPathComponent("Sources/\(module)/Names.swift"))
        }
        try write("""
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "stand-ins",
                products: [.library(name: "StandIns", targets: [\(modules.map { "\"\($0)\"" }.joined(separator: ", "))])],
                targets: [\(modules.map { ".target(name: \"\($0)\")" }.joined(separator: ", "))])
            """, to: standIns.appendingPathComponent("Package.swift"))

        // The consumer imports every library module of ours and every stand-in, and names each of our public
        // non-generic types unqualified in a type position, where an ambiguous name does not compile (in an
        // expression such as `Name.self` the type checker would quietly pick one).
        let ourModules = ["AttestConformance", "AttestEvidence", "AttestForge", "AttestCatalogue", "AttestReference",
                          "AttestVerifiers", "AttestAPIMap", "AttestTesting", "AttestDER", "AttestCBOR", "AttestCrypto"]
        let references = try Self.ourDeclarations().filter { !$0.generic && ["struct", "enum", "class", "actor", "protocol", "typealias"].contains($0.kind) }
            .filter { !$0.file.hasPrefix("Fuzz/") && !$0.file.hasPrefix("AttestServer/") && !$0.file.hasPrefix("AttestBenchmarks/") && !$0.file.hasPrefix("AttestCBORReference/") }
            .map { $0.kind == "protocol" ? "any \($0.name)" : $0.name }
        #expect(references.count > 60)
        let aliases = Set(references).sorted().enumerated().map { "typealias Ours\($0.offset) = \($0.element)" }
        let main = (ourModules + modules).map { "import \($0)" }.joined(separator: "\n") + "\n\n"
            + aliases.joined(separator: "\n") + "\nprint(\(aliases.count))\n"
        let consumer = work.appendingPathComponent("consumer")
        try write(main, to: consumer.appendingPathComponent("Sources/ClashConsumer/main.swift"))
        try write("""
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "clash-consumer", platforms: [.macOS(.v13)],
                dependencies: [.package(name: "attest-harness", path: "\(Self.repository.path)"), .package(path: "../stand-ins")],
                targets: [.executableTarget(name: "ClashConsumer", dependencies: [
                    .product(name: "AttestHarness", package: "attest-harness"),
                    .product(name: "AttestHarnessTesting", package: "attest-harness"),
                    .product(name: "AttestDER", package: "attest-harness"),
                    .product(name: "AttestCBOR", package: "attest-harness"),
                    .product(name: "AttestCrypto", package: "attest-harness"),
                    .product(name: "StandIns", package: "stand-ins"),
                ])])
            """, to: consumer.appendingPathComponent("Package.swift"))
        let result = try Self.swift(["build", "--package-path", consumer.path, "--scratch-path", work.appendingPathComponent("build").path],
                                    log: work.appendingPathComponent("build.log"))
        #expect(result.status == 0, "the clash consumer did not build:\n\(result.tail)")
    }

    @Test func theExampleConsumerFindsExactlyItsPlantedGaps() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("attest-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let example = Self.repository.appendingPathComponent("Examples/VerifierUnderTest")
        let result = try Self.swift(["test", "--package-path", example.path, "--scratch-path", scratch.appendingPathComponent("build").path],
                                    log: scratch.appendingPathComponent("test.log"))
        #expect(result.status == 0, "the example's tests failed:\n\(result.tail)")
        // Its two tests ran and passed (the findings test asserts the exact two case ids).
        #expect(result.output.contains("findsExactlyTheMissingChecks()") && result.output.contains("everyOtherRuleHolds()"))
        #expect(!result.output.contains("✘"), "\(result.tail)")
    }

    // MARK: Helpers

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    struct Result {
        let status: Int32
        let output: String
        var tail: String { String(output.suffix(4000)) }
    }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `swift ARGS` with its output in `log`, within `buildTimeout`; on timeout the whole process group is killed.
    static func swift(_ arguments: [String], log: URL) throws -> Result {
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(buildTimeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning {
            process.terminate()
            Thread.sleep(forTimeInterval: 2)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw Timeout(description: "swift \(arguments.joined(separator: " ")) did not finish within \(Int(buildTimeout)) s")
        }
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, output: output)
    }
}
