import Foundation

/// One `Set-Cookie` as a jar keeps it (RFC 6265 §5.2): its name and value, and when it ends (`Max-Age` wins over
/// `Expires`; zero or a date past means "delete"). Other attributes (`Path`, `Domain`, `Secure`) are not
/// interpreted: a run talks to one site.
public struct MapCookie: Hashable, Sendable {
    public var name: String
    public var value: String
    /// Seconds to live from receipt (RFC 6265 §5.2.2), when given.
    public var maxAge: Int?
    /// The `Expires` date, when given and readable.
    public var expires: Date?

    /// The longest cookie value a jar keeps (a server cannot make the harness hold or send megabytes).
    public static let valueLimit = 4096

    public init(name: String, value: String, maxAge: Int? = nil, expires: Date? = nil) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.expires = expires
    }

    /// Reads a `Set-Cookie` value, or nil when it has no `name=value` pair with a cookie name.
    public init?(setCookie line: String) {
        let parts = line.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        var value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        guard Self.isName(name), value.utf8.count <= Self.valueLimit else { return nil }
        self.init(name: name, value: value)
        for attribute in parts.dropFirst() {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let key = pieces.first?.lowercased(), pieces.count == 2 else { continue }
            switch key {
            case "max-age":
                // RFC 6265 §5.2.2: a leading "-" or a digit, then digits; anything else is ignored.
                if let seconds = Int(pieces[1].prefix(12)), pieces[1].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) { maxAge = seconds }
            case "expires": expires = Self.httpDate(pieces[1])
            default: continue
            }
        }
    }

    /// A cookie name: an RFC 7230 token of at most 256 bytes.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256
            && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && !"()<>@,;:\\\"/[]?={}".utf8.contains($0) }
    }

    /// The dates servers write in `Expires`: IMF-fixdate, and the RFC 850 form with dashes.
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

/// The cookies of one simulated client session: what the map seeds and what the server sets, in one jar, sent as
/// one `Cookie` header (two headers are merged into garbage by some frameworks). `Set-Cookie` with `Max-Age=0` or
/// a past `Expires` deletes; a cookie past its end is no longer sent. At most `limit` cookies are kept.
public struct CookieJar: Hashable, Sendable {
    struct Entry: Hashable, Sendable {
        var value: String
        var end: Date?
    }

    private var entries: [String: Entry] = [:]
    public static let limit = 64

    public init() {}

    /// Sets `name` to `value` until `end` (a seed from the map, a cookie a request's own `Cookie` header names).
    public mutating func set(_ name: String, _ value: String, until end: Date? = nil) {
        guard MapCookie.isName(name), value.utf8.count <= MapCookie.valueLimit else { return }
        guard entries[name] != nil || entries.count < Self.limit else { return }
        entries[name] = Entry(value: value, end: end)
    }

    /// Takes every `Set-Cookie` of `response`, received at `now`.
    public mutating func take(_ response: MapResponse, at now: Date) {
        for cookie in response.setCookies {
            let end: Date? = cookie.maxAge.map { now.addingTimeInterval(TimeInterval($0)) } ?? cookie.expires
            if let end, end <= now {
                entries[cookie.name] = nil
            } else {
                set(cookie.name, cookie.value, until: end)
            }
        }
    }

    /// Adds the pairs of a `Cookie` header value (`a=1; b=2`) a request of the map writes itself.
    public mutating func merge(header: String) {
        for pair in header.split(separator: ";") {
            let pieces = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pieces.count == 2 { set(pieces[0], pieces[1]) }
        }
    }

    /// The cookie's value, unless it has ended by `now`.
    public func value(_ name: String, at now: Date) -> String? {
        guard let entry = entries[name], entry.end.map({ $0 > now }) ?? true else { return nil }
        return entry.value
    }

    /// The `Cookie` header for a request at `now`, in name order, or nil when nothing is live.
    public func header(at now: Date) -> String? {
        let live = entries.filter { $0.value.end.map { $0 > now } ?? true }.sorted { $0.key < $1.key }
        return live.isEmpty ? nil : live.map { "\($0.key)=\($0.value.value)" }.joined(separator: "; ")
    }

    /// Every value in the jar (secrets to scrub from what a report shows).
    public var values: [String] { entries.values.map(\.value) }
}
