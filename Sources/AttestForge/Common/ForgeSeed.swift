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

    /// The key (`algorithm`, `label`) derives to under this seed. Derived once per process and kept: an RSA-4096
    /// derivation takes seconds, and every case of a family reuses its PKI's keys.
    public func key(_ algorithm: KeyAlgorithm, _ label: String) throws -> PrivateKey {
        try KeyCache.shared.key("\(value) \(algorithm) \(label)") {
            try PrivateKey.derive(algorithm, seed: bytes, label: label)
        }
    }

    /// `count` bytes that (`seed`, `label`) derive to: challenges, identifiers.
    public func bytes(_ label: String, count: Int) throws -> [UInt8] {
        // HKDF(seed, "attest-harness bytes", label) as extract, once per seed, then expand per label; every case of a
        // family derives its baseline's labels again, so each (seed, label, count) is expanded once per process.
        let derived = try PseudorandomKeyCache.shared.derived(value, label, count) {
            let key = try PseudorandomKeyCache.shared.key(value) {
                try hkdfSHA256Extract(secret: bytes, salt: Array("attest-harness bytes".utf8))
            }
            return try hkdfSHA256Expand(pseudorandomKey: key, info: Array(label.utf8), count: count)
        }
        return substitutions[derived] ?? derived
    }

    /// The time forged evidence is issued at and cases are verified at. Fixed, never the machine's clock.
    public static let referenceTime = Date(timeIntervalSince1970: 1_768_478_400)  // 2026-01-15T12:00:00Z
}

/// Derived keys by (seed, algorithm, label), shared by every thread of the process.
private final class KeyCache: @unchecked Sendable {
    static let shared = KeyCache()
    private var keys: [String: PrivateKey] = [:]
    private let lock = NSLock()

    func key(_ name: String, derive: () throws -> PrivateKey) throws -> PrivateKey {
        lock.lock()
        defer { lock.unlock() }
        if let key = keys[name] { return key }
        let key = try derive()
        keys[name] = key
        return key
    }
}

/// The HKDF pseudorandom key of `ForgeSeed.bytes` by seed value (a few seeds per run; 32 bytes each), and the
/// bytes it expanded to by (seed, label, count), shared by every thread of the process; each table empties when
/// it reaches its bound.
private final class PseudorandomKeyCache: @unchecked Sendable {
    static let shared = PseudorandomKeyCache()
    private var keys: [UInt64: [UInt8]] = [:]
    private var expanded: [DerivationKey: [UInt8]] = [:]
    private let lock = NSLock()

    struct DerivationKey: Hashable {
        let seed: UInt64
        let label: String
        let count: Int
    }

    func derived(_ seed: UInt64, _ label: String, _ count: Int, expand: () throws -> [UInt8]) throws -> [UInt8] {
        let key = DerivationKey(seed: seed, label: label, count: count)
        if let known = lock.withLock({ expanded[key] }) { return known }
        let bytes = try expand()
        lock.withLock {
            if expanded.count >= 16384 { expanded.removeAll(keepingCapacity: true) }
            expanded[key] = bytes
        }
        return bytes
    }

    func key(_ seed: UInt64, extract: () throws -> [UInt8]) throws -> [UInt8] {
        if let key = lock.withLock({ keys[seed] }) { return key }
        let key = try extract()
        lock.withLock {
            if keys.count >= 1024 { keys.removeAll() }
            keys[seed] = key
        }
        return key
    }
}
