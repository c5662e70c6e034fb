/// Where a value is read from a server's response: `json:/challenge` (an RFC 6901 pointer into the JSON body),
/// `header:X-Challenge`, or `http-status`.
public enum ResponseSource: Hashable, Sendable, CustomStringConvertible {
    case json(String)
    case header(String)
    case httpStatus
    /// The whole body as text (its first `MapResponse.bodyTextLimit` bytes), for a regular expression to search.
    case body
    /// A cookie's value: set by this response, or else already in the session's jar (`cookie:csrftoken`).
    case cookie(String)

    init(parsing text: String, at pointer: String) throws {
        if text == "http-status" {
            self = .httpStatus
        } else if text == "body" {
            self = .body
        } else if text.hasPrefix("json:"), text.dropFirst(5).isEmpty || text.dropFirst(5).hasPrefix("/") {
            self = .json(String(text.dropFirst(5)))
        } else if text.hasPrefix("header:"), !text.dropFirst(7).isEmpty {
            self = .header(String(text.dropFirst(7)))
        } else if text.hasPrefix("cookie:"), MapCookie.isName(String(text.dropFirst(7))) {
            self = .cookie(String(text.dropFirst(7)))
        } else {
            throw APIMapError(pointer, "\"\(text)\" is not a response source (json:/POINTER, header:NAME, cookie:NAME, http-status or body)")
        }
    }

    /// The value in `response`, or nil.
    package func read(_ response: MapResponse) -> JSONValue? {
        switch self {
        case .json(let pointer): response.json?.at(pointer)
        case .header(let name): response.header(name).map(JSONValue.string)
        case .httpStatus: .integer(response.status)
        case .body: .string(response.bodyText)
        case .cookie(let name): response.setCookies.last { $0.name == name }.map { .string($0.value) }
        }
    }

    public var description: String {
        switch self {
        case .json(let pointer): "json:\(pointer)"
        case .header(let name): "header:\(name)"
        case .httpStatus: "http-status"
        case .body: "body"
        case .cookie(let name): "cookie:\(name)"
        }
    }
}

/// A server's answer as a map reads it.
public struct MapResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]
    /// The body as JSON, when it is JSON.
    public let json: JSONValue?

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
        json = try? JSONValue.parse(Data(body))
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// How much of a body a pattern searches: a refusal's explanation is near its start, and a regular expression
    /// over an unbounded body would cost unbounded time.
    public static let bodyTextLimit = 64 << 10

    /// The body's first `bodyTextLimit` bytes as text.
    public var bodyText: String { String(decoding: body.prefix(Self.bodyTextLimit), as: UTF8.self) }


    /// The cookies this response sets, in order.
    public var setCookies: [MapCookie] {
        headers.filter { $0.name.caseInsensitiveCompare("Set-Cookie") == .orderedSame }.compactMap { MapCookie(setCookie: $0.value) }
    }

    /// What a refused exchange shows: the status, where a redirect points, and the start of the body as plain text
    /// (an HTML page's tags and scripts removed, whitespace collapsed), so the reason is in view (a Django 403 page
    /// names "CSRF verification failed" well past its first 200 bytes of markup).
    public var summary: String {
        let plain = plainBody
        return plain.isEmpty ? statusLine : statusLine + ": " + plain
    }

    /// The status, and where a redirect points: `HTTP 302 (Location: /accounts/login/)`.
    public var statusLine: String {
        var text = "HTTP \(status)"
        if (300..<400).contains(status), let location = header("Location") { text += " (Location: \(location.prefix(200)))" }
        return text
    }

    /// The start of the body as plain text, at most 400 characters (an HTML page's markup removed).
    public var plainBody: String {
        // The first 8 KiB only: the markup patterns below backtrack, and a hostile body must not cost quadratic time.
        let plain = MapResponse.plainText(String(decoding: body.prefix(Self.summaryLimit), as: UTF8.self))
        return String(plain.prefix(400)) + (plain.count > 400 ? "..." : "")
    }

    /// How much of a body a refused exchange's summary reads.
    static let summaryLimit = 8 << 10

    /// `text` with HTML markup, styles and scripts removed and whitespace collapsed (text that is not HTML as it is,
    /// whitespace collapsed).
    static func plainText(_ text: String) -> String {
        var result = text
        if result.range(of: "<[a-zA-Z!/]", options: .regularExpression) != nil {
            for pattern in ["(?is)<(script|style)\\b.*?</\\1\\s*>", "(?s)<!--.*?-->", "(?s)<[^>]*>"] {
                result = result.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
            }
            for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&amp;", "&")] {
                result = result.replacingOccurrences(of: entity, with: character)
            }
        }
        return result.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

import Foundation
