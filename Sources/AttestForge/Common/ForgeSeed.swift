import AttestCrypto
import Foundation

/// The seed every forged artifact is derived from. The same seed gives the same keys, certificates, signatures
/// and therefore the same cases and vectors, on any machine.
public struct ForgeSeed: Hashable, Sendable {
    public let value: UInt64
    /// Derived bytes to replace by others: a live driver puts the challenge a server issued in place of the one
    /// the harness would have issued, and forges the rest of the case around it.
    public var substitutions: [[UInt8]: [UInt8]] = [:]
    /// The same for identifiers the forge writes as text (a challenge id the server issued).
    public var textSubstitutions: [String: String] = [:]

    public init(_ value: UInt64) { self.value = value }

    /// The seed `attest-harness` uses when none is given.
    public static let `default` = ForgeSeed(1)

    var bytes: [UInt8] { Array("attest-harness seed \(value)".utf8) }

    /// The key (`algorithm`, `label`) derives to under this seed. Derived once and kept (`KeyCache`, and RSA keys
    /// between runs in `DiskKeyCache`): an RSA-4096 derivation takes seconds, and every case of a family reuses its
    /// PKI's keys.
    public func key(_ algorithm: KeyAlgorithm, _ label: String) throws -> PrivateKey {
        try KeyCache.shared.key(KeyCache.Name(seed: value, algorithm: algorithm, label: label)) {
            try DiskKeyCache.key(seed: value, algorithm: algorithm, label: label) {
                try PrivateKey.derive(algorithm, seed: bytes, label: label)
            }
        }
    }

    /// `count` bytes that (`seed`, `label`) derive to: challenges, identifiers.
    public func bytes(_ label: String, count: Int) throws -> [UInt8] {
        // HKDF(seed, "attest-harness bytes", label) as extract, once per seed, then expand per label; every case of a
        // family derives its baseline's labels again, so each (seed, label, count) is expanded once per process.
        let derived = try expansions.value(for: Derivation(seed: value, label: label, count: count)) {
            let key = try pseudorandomKeys.value(for: value) {
                try hkdfSHA256Extract(secret: bytes, salt: Array("attest-harness bytes".utf8))
            }
            return try hkdfSHA256Expand(pseudorandomKey: key, info: Array(label.utf8), count: count)
        }
        return substitutions[derived] ?? derived
    }

    /// The time forged evidence is issued at and cases are verified at. Fixed, never the machine's clock.
    public static let referenceTime = Date(timeIntervalSince1970: 1_768_478_400)  // 2026-01-15T12:00:00Z
}

/// Derived keys by (seed, algorithm, label), shared by every thread of the process. A key is derived under the lock,
/// so two threads wanting the same RSA key wait for one derivation.
///
/// Bounded in two generations of at most `capacity` keys each: when the newer one fills, it becomes the older one
/// and the oldest keys go; a key found in the older generation moves to the newer. A run uses a few seeds of a few
/// dozen keys each and never reaches the bound; a benchmark or a long-lived process forging from many seeds drops
/// the keys of seeds it no longer uses, while the keys in use (a family's PKI) stay.
private final class KeyCache: @unchecked Sendable {
    struct Name: Hashable {
        let seed: UInt64
        let algorithm: KeyAlgorithm
        let label: String
    }

    static let shared = KeyCache()
    private let capacity = 512
    private var newer: [Name: PrivateKey] = [:]
    private var older: [Name: PrivateKey] = [:]
    private let lock = NSLock()

    func key(_ name: Name, derive: () throws -> PrivateKey) throws -> PrivateKey {
        lock.lock()
        defer { lock.unlock() }
        if let key = newer[name] { return key }
        let key = try older.removeValue(forKey: name) ?? derive()
        if newer.count >= capacity {
            older = newer
            newer = [:]
        }
        newer[name] = key
        return key
    }
}

/// The HKDF pseudorandom key of `ForgeSeed.bytes` by seed value (a few seeds per run; 32 bytes each), and the bytes
/// it expanded to by (seed, label, count), shared by every thread of the process.
private let pseudorandomKeys = Memo<UInt64, [UInt8]>(capacity: 1024)
private let expansions = Memo<Derivation, [UInt8]>(capacity: 16384)

private struct Derivation: Hashable, Sendable {
    let seed: UInt64
    let label: String
    let count: Int
}
