import AttestCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Derived RSA keys kept on disk between runs, so that a warm `list`, `forge --case` or `run` skips the prime search
/// (seconds for webauthn-l3's RSA-4096 roots) while every key stays the one the seed derives: the cache holds what
/// `PrivateKey.derive` returned, by (seed, algorithm, label), and vectors stay byte-identical.
///
/// Where: `$ATTEST_HARNESS_KEY_CACHE` (a directory; `off` turns the cache off), else
/// `$XDG_CACHE_HOME/attest-harness/keys`, else `~/.cache/attest-harness/keys`. The directory is made 0700 and used
/// only when it is a real directory (not a symbolic link) owned by this user. Each key is one file, named by a
/// SHA-256 of what it derives from, holding a checksum line and the key's PKCS#8 PEM: a file that is not a regular
/// file of this user, is larger than 16 KiB, fails its checksum or holds another kind of key is ignored and the key
/// derived again. Files are written to a fresh temporary name (O_EXCL, O_NOFOLLOW, 0600) and renamed into place, so
/// a concurrent run reads a whole file or none. The checksum catches corruption, not an attacker who can write to
/// the user's own cache (who could as well change the harness).
package enum DiskKeyCache {
    /// Only what is slow to derive is kept: RSA keys (EC and EdDSA derive in microseconds).
    static func wanted(_ algorithm: KeyAlgorithm) -> Bool {
        if case .rsa = algorithm { return true }
        return false
    }

    static let maximumFileSize = 16 << 10

    static let directory: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["ATTEST_HARNESS_KEY_CACHE"] {
            return chosen == "off" || chosen.isEmpty ? nil : chosen
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/attest-harness/keys" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.cache/attest-harness/keys"
    }()

    /// The cached key for (seed, algorithm, label), else `derive()`'s, stored for the next run.
    package static func key(seed: UInt64, algorithm: KeyAlgorithm, label: String, in directory: String? = Self.directory,
                            derive: () throws -> PrivateKey) throws -> PrivateKey {
        guard wanted(algorithm), let directory, usableDirectory(directory) else { return try derive() }
        let name = fileName(seed: seed, algorithm: algorithm, label: label)
        let path = directory + "/" + name
        if let key = load(path, name: name, algorithm: algorithm) { return key }
        let key = try derive()
        store(key, at: path, name: name, in: directory)
        return key
    }

    package static func fileName(seed: UInt64, algorithm: KeyAlgorithm, label: String) -> String {
        hex(sha256(Array("attest-harness derived key v1\n\(seed)\n\(algorithm)\n\(label)".utf8))) + ".pem"
    }

    static func checksum(name: String, pem: String) -> String { hex(sha256(Array((name + "\n" + pem).utf8))) }

    /// Makes `directory` (0700) if missing; true when it is a real directory owned by this user.
    static func usableDirectory(_ directory: String) -> Bool {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        var status = stat()
        guard lstat(directory, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFDIR && status.st_uid == getuid()
    }

    static func load(_ path: String, name: String, algorithm: KeyAlgorithm) -> PrivateKey? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == getuid(),
              status.st_size > 0, status.st_size <= maximumFileSize else { return nil }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: maximumFileSize + 1)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, maximumFileSize + 1) }
        guard count > 0, count <= maximumFileSize, let text = String(validating: bytes[..<count], as: UTF8.self),
              let newline = text.firstIndex(of: "\n") else { return nil }
        let pem = String(text[text.index(after: newline)...])
        guard text[..<newline] == "sha256:" + checksum(name: name, pem: pem),
              let key = try? PrivateKey(pem: pem), key.algorithm == algorithm else { return nil }
        return key
    }

    /// Best effort: a cache that cannot be written only costs the next run the derivation again.
    static func store(_ key: PrivateKey, at path: String, name: String, in directory: String) {
        let pem = key.pem
        let bytes = Array(("sha256:" + checksum(name: name, pem: pem) + "\n" + pem).utf8)
        let temporary = directory + "/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, bytes.count) }
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
    }
}
