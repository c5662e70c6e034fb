import AttestCrypto
import AttestForge
import Foundation
import Testing

/// The on-disk key cache gives back exactly the key the seed derives, keeps its files private, and never trusts or
/// follows what it did not write: a corrupted file is derived again and replaced, a symbolic link is not read
/// through, and a directory that is a link is not used at all.
@Suite struct DiskKeyCacheTests {
    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("key-cache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let algorithm = KeyAlgorithm.rsa(bits: 2048)
    static func derived() throws -> PrivateKey { try PrivateKey.derive(algorithm, seed: Array("disk cache test".utf8), label: "key") }

    @Test func aWarmCacheGivesTheDerivedKeyFromAPrivateFile() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = root + "/keys"
        var derivations = 0
        let derive = { () throws -> PrivateKey in derivations += 1; return try Self.derived() }
        let cold = try DiskKeyCache.key(seed: 7, algorithm: Self.algorithm, label: "key", in: directory, derive: derive)
        let warm = try DiskKeyCache.key(seed: 7, algorithm: Self.algorithm, label: "key", in: directory, derive: derive)
        #expect(derivations == 1)
        let expected = try Self.derived().publicKey.spki
        #expect(warm.pem == cold.pem && warm.publicKey.spki == expected)
        let file = directory + "/" + DiskKeyCache.fileName(seed: 7, algorithm: Self.algorithm, label: "key")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [(file as NSString).lastPathComponent])
        // EC keys are not written: they derive in microseconds.
        _ = try DiskKeyCache.key(seed: 7, algorithm: .ec(.p256), label: "ec", in: directory) { try PrivateKey.generate(.ec(.p256)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
    }

    @Test func aCorruptedFileIsDerivedAgainAndALinkIsNotFollowed() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let directory = root + "/keys"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/" + DiskKeyCache.fileName(seed: 8, algorithm: Self.algorithm, label: "key")
        // A file whose checksum does not hold: ignored, derived again, replaced by a good one.
        let other = try PrivateKey.generate(Self.algorithm)
        try Data(("sha256:00\n" + other.pem).utf8).write(to: URL(fileURLWithPath: file))
        let key = try DiskKeyCache.key(seed: 8, algorithm: Self.algorithm, label: "key", in: directory) { try Self.derived() }
        let expected = try Self.derived()
        #expect(key.publicKey.spki == expected.publicKey.spki)
        let rewritten = try String(contentsOfFile: file, encoding: .utf8)
        #expect(rewritten.contains(expected.pem))
        // A symbolic link in the key's place is not read through; the file it names is left as it was.
        let target = root + "/target.pem"
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: target))
        let linked = directory + "/" + DiskKeyCache.fileName(seed: 9, algorithm: Self.algorithm, label: "key")
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: target)
        let again = try DiskKeyCache.key(seed: 9, algorithm: Self.algorithm, label: "key", in: directory) { try Self.derived() }
        #expect(again.publicKey.spki == expected.publicKey.spki)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "not a key")
        // A cache directory that is itself a link is not used: nothing is written where it points.
        let elsewhere = root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/linked-keys", withDestinationPath: elsewhere)
        _ = try DiskKeyCache.key(seed: 10, algorithm: Self.algorithm, label: "key", in: root + "/linked-keys") { try Self.derived() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}
