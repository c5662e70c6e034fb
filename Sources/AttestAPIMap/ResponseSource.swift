/// Where a value is read from a server's response: `json:/challenge` (an RFC 6901 pointer into the JSON body),
/// `header:X-Challenge`, or `http-status`.
public enum ResponseSource: Hashable, Sendable, CustomStringConvertible {
    case json(String)
    case header(String)
    case httpStatus
    /// The whole body as text (its first `MapResponse.bodyTextLimit` bytes), for a regular expression to search.
    case body

    init(parsing text: String, at pointer: String) throws {
        if text == "http-status" {
            self = .httpStatus
        } else if text == "body" {
            self = .body
        } else if text.hasPrefix("json:"), text.dropFirst(5).isEmpty || text.dropFirst(5).hasPrefix("/") {
            self = .json(String(text.dropFirst(5)))
        } else if text.hasPrefix("header:"), !text.dropFirst(7).isEmpty {
            self = .header(String(text.dropFirst(7)))
        } else {
            throw APIMapError(pointer, "\"\(text)\" is not a response source (json:/POINTER, header:NAME, http-status or body)")
        }
    }

    /// The value in `response`, or nil.
    package func read(_ response: MapResponse) -> JSONValue? {
        switch self {
        case .json(let pointer): response.json?.at(pointer)
        case .header(let name): response.header(name).map(JSONValue.string)
        case .httpStatus: .integer(response.status)
        case .body: .string(response.bodyText)
        }
    }

    public var description: String {
        switch self {
        case .json(let pointer): "json:\(pointer)"
        case .header(let name): "header:\(name)"
        case .httpStatus: "http-status"
        case .body: "body"
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

    /// A printable excerpt of the body for reasons and errors.
    var excerpt: String { String(decoding: body.prefix(300), as: UTF8.self) }
}

import Foundation
