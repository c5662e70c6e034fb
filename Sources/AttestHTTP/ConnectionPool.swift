import Foundation

/// Idle keep-alive connections of the verdict protocol, by host and port, for the next request to the same server:
/// one TCP handshake (and one server-side connection set-up) per `--jobs` slot instead of one per case.
///
/// Only a connection whose response was read whole, framed by Content-Length or chunked coding, with nothing after
/// it and no `Connection: close`, comes back here. A server may close an idle connection at any time; a request on
/// a pooled connection that ends before the first response byte is sent again once on a fresh connection
/// (`HTTPClient.exchange`). At most `capacity` idle connections are kept per server; the rest are closed.
final class ConnectionPool: @unchecked Sendable {
    static let shared = ConnectionPool(capacity: 64)

    private let capacity: Int
    private let lock = NSLock()
    private var idle: [String: [Connection]] = [:]

    init(capacity: Int) { self.capacity = capacity }

    func take(_ key: String) -> Connection? {
        lock.withLock { idle[key]?.popLast() }
    }

    func give(_ connection: Connection, _ key: String) {
        lock.withLock {
            guard idle[key, default: []].count < capacity else { return }
            idle[key, default: []].append(connection)
        }
    }
}
