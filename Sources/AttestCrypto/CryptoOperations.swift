import Foundation

/// Counts of the public-key operations this process asked OpenSSL for, by kind and key (`sign P-256`,
/// `verify RSA-2048`, `keygen RSA-2048`), for scripts/bench to price each profile at `openssl speed`'s rates from the
/// same run. Off unless `counting` is set, so ordinary runs take one process-wide lock per operation (held for a flag
/// check); counting adds a dictionary update, named only when the counts are taken.
package enum CryptoOperations {
    /// One kind of operation on one kind of key; its name (`sign P-256`) is made only when the counts are taken.
    private struct Tally: Hashable {
        let kind: String
        let algorithm: KeyAlgorithm
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var enabled = false
    nonisolated(unsafe) private static var counts: [Tally: Int] = [:]

    /// Starts counting from zero (`true`) or stops (`false`).
    package static func counting(_ on: Bool) {
        lock.withLock {
            enabled = on
            counts = [:]
        }
    }

    /// Adds `amount` (by default one operation) to `kind` for `algorithm`.
    package static func record(_ kind: String, _ algorithm: KeyAlgorithm, amount: Int = 1) {
        lock.withLock {
            guard enabled else { return }
            counts[Tally(kind: kind, algorithm: algorithm), default: 0] += amount
        }
    }

    /// CPU time this thread has used, in microseconds (what a key generation cost, whatever else the machine ran).
    package static func threadCPUMicroseconds() -> Int {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Int(time.tv_sec) * 1_000_000 + Int(time.tv_nsec) / 1_000
    }

    /// The counts so far, by name (`sign P-256`), and zero again.
    package static func take() -> [String: Int] {
        let taken = lock.withLock {
            defer { counts = [:] }
            return counts
        }
        return Dictionary(taken.map { ("\($0.key.kind) \($0.key.algorithm)", $0.value) }, uniquingKeysWith: +)
    }
}
