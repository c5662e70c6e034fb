import Foundation

/// What an API emulation remembers between requests (issued challenges, pending options, users), forgotten once it
/// is older than `lifetime`, so a long-running `serve` does not grow with every case it has seen. Times are the
/// requests' own (the `X-Attest-Harness-Time` test clock when sent).
/// At most `capacity` entries are kept: past it, the oldest goes (a client sending a fresh session each request
/// cannot grow it).
struct ExpiringStore<Value> {
    let lifetime: TimeInterval
    let capacity: Int
    private var entries: [String: (value: Value, stored: Date)] = [:]
    private var insertions = 0

    init(lifetime: TimeInterval, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    var count: Int { entries.count }

    subscript(key: String) -> Value? { entries[key]?.value }

    /// Stores `value` at `time`, first dropping what expired (every 64 insertions, so storing stays cheap).
    mutating func store(_ value: Value, for key: String, at time: Date) {
        insertions += 1
        if insertions % 64 == 0 { expire(before: time.addingTimeInterval(-lifetime)) }
        if entries[key] == nil, entries.count >= capacity, let oldest = entries.min(by: { $0.value.stored < $1.value.stored })?.key {
            entries.removeValue(forKey: oldest)
        }
        entries[key] = (value, time)
    }

    mutating func remove(_ key: String) -> Value? { entries.removeValue(forKey: key)?.value }

    /// Drops entries stored before `cutoff` or after `cutoff + 2 × lifetime` (a test clock moved backwards).
    mutating func expire(before cutoff: Date) {
        let latest = cutoff.addingTimeInterval(2 * lifetime)
        entries = entries.filter { $0.value.stored >= cutoff && $0.value.stored <= latest }
    }
}
