import Foundation
import AttestConformance

/// How a step's last response becomes a verdict. `accept`: the HTTP statuses (`"2xx"` or a list) and JSON members
/// (pointer to value) that together mean the server accepted; anything else is a refusal. `status`: the response
/// values whose texts, joined by a space, are the refusal's API status (`["json:/errorCode", "json:/step"]` gives
/// `100012 NONCE`; `["http-status"]` gives `403`), compared with the status a case documents. `reason`: where the
/// server explains a refusal. `rules`: API error codes that name one rule, read from `ruleCode` (a response source,
/// e.g. `json:/error/code`) or else the status's first word. `rulePatterns`: regular expressions searched in a
/// response source (`body`, `json:/detail`, ...), in order, each naming the rule a matching refusal is under (for
/// servers that explain refusals in words only). A refusal names no rule when neither matches: it can then be
/// proven by its control, not by its reason. `refusalStatus`: the HTTP status an emulation of this map answers
/// refusals with when `status` does not read it. An HTTP 5xx that is not an accept status or the map's
/// `refusalStatus` is the server's crash on the step, never a refusal.
public struct VerdictMap: Hashable, Sendable {
    /// A regular expression that names the rule of a refusal whose `source` matches it.
    public struct RulePattern: Hashable, Sendable {
        public let source: ResponseSource
        public let pattern: String
        public let rule: RuleID
        let expression: Expression

        /// A compiled expression, compared by its pattern.
        public struct Expression: Hashable, @unchecked Sendable {
            /// `NSRegularExpression` is immutable once made and documented as safe to use from several threads.
            package let regex: NSRegularExpression
            public static func == (lhs: Expression, rhs: Expression) -> Bool { lhs.regex.pattern == rhs.regex.pattern }
            public func hash(into hasher: inout Hasher) { hasher.combine(regex.pattern) }
        }

        func matches(_ response: MapResponse) -> Bool {
            guard let text = source.read(response)?.text else { return false }
            let bounded = String(text.utf8.prefix(MapResponse.bodyTextLimit)) ?? text
            return expression.regex.firstMatch(in: bounded, range: NSRange(bounded.startIndex..., in: bounded)) != nil
        }
    }

    public var acceptStatuses: ClosedRange<Int>?
    public var acceptStatusList: [Int]
    public var acceptMembers: [String: JSONValue]
    public var status: [ResponseSource]
    public var reason: ResponseSource?
    public var rules: [String: RuleID]
    public var ruleCode: ResponseSource?
    public var rulePatterns: [RulePattern]
    public var refusalStatus: Int

    init(_ reader: ObjectReader) throws {
        let accept = try reader.object("accept") ?? ObjectReader([:], at: reader.at("accept"))
        acceptStatusList = []
        switch accept.members["status"] {
        case nil, .string("2xx"): acceptStatuses = 200...299
        case .array(let items):
            acceptStatuses = nil
            acceptStatusList = try items.enumerated().map { index, item in
                guard case .integer(let code) = item, (100...599).contains(code) else {
                    throw APIMapError("\(accept.at("status"))/\(index)", "expected an HTTP status")
                }
                return code
            }
        default: throw APIMapError(accept.at("status"), "expected \"2xx\" or a list of HTTP statuses")
        }
        acceptMembers = try accept.object("json")?.members ?? [:]
        for pointer in acceptMembers.keys where !pointer.hasPrefix("/") {
            throw APIMapError(accept.at("json") + "/" + escape(pointer), "a member is named by a JSON pointer starting with /")
        }
        try accept.onlyKnown(["status", "json"])
        status = try reader.array("status").map { item, pointer in
            guard let text = item.stringValue else { throw APIMapError(pointer, "expected a response source") }
            return try ResponseSource(parsing: text, at: pointer)
        }
        reason = try reader.optionalString("reason").map { try ResponseSource(parsing: $0, at: reader.at("reason")) }
        rules = try (reader.object("rules")?.members ?? [:]).mapValues { value in
            guard let rule = value.stringValue else { throw APIMapError(reader.at("rules"), "each code names a rule id") }
            return RuleID(rule)
        }
        ruleCode = try reader.optionalString("ruleCode").map { try ResponseSource(parsing: $0, at: reader.at("ruleCode")) }
        rulePatterns = try reader.array("rulePatterns").map { item, pointer in
            guard case .object(let members) = item else { throw APIMapError(pointer, "expected {\"source\", \"regex\", \"rule\"}") }
            let entry = ObjectReader(members, at: pointer)
            guard let text = try entry.optionalString("regex"), !text.isEmpty, text.utf8.count <= 1024 else {
                throw APIMapError(entry.at("regex"), "expected a regular expression of 1 to 1024 bytes")
            }
            guard let rule = try entry.optionalString("rule") else { throw APIMapError(entry.at("rule"), "expected a rule id") }
            let source = try ResponseSource(parsing: try entry.optionalString("source") ?? "body", at: entry.at("source"))
            let regex: NSRegularExpression
            do {
                regex = try NSRegularExpression(pattern: text)
            } catch {
                throw APIMapError(entry.at("regex"), "not a regular expression: \(error.localizedDescription)")
            }
            try entry.onlyKnown(["source", "regex", "rule"])
            return RulePattern(source: source, pattern: text, rule: RuleID(rule), expression: .init(regex: regex))
        }
        refusalStatus = try reader.integer("refusalStatus") ?? 400
        guard (400...599).contains(refusalStatus) else { throw APIMapError(reader.at("refusalStatus"), "expected an HTTP error status, 400 to 599") }
        try reader.onlyKnown(["accept", "status", "reason", "rules", "ruleCode", "rulePatterns", "refusalStatus"])
    }

    /// Whether `response` is an acceptance.
    public func accepts(_ response: MapResponse) -> Bool {
        let statusMatches = acceptStatuses.map { $0.contains(response.status) } ?? acceptStatusList.contains(response.status)
        return statusMatches && acceptMembers.allSatisfy { response.json?.at($0.key) == $0.value }
    }

    /// The verdict `response` stands for.
    public func verdict(_ response: MapResponse) -> Verdict {
        if accepts(response) { return .accept }
        let parts = status.compactMap { $0.read(response)?.text }.filter { !$0.isEmpty }
        // A member or header the map names is the reason as the server wrote it; the body (named, or by default) is
        // shown as a refused exchange is: its start as plain text, an HTML error page's markup removed.
        let named = reason.flatMap { $0 == .body ? nil : $0.read(response)?.text }.map { String($0.prefix(1000)) }
        let explanation = named ?? response.plainBody
        let text = explanation.isEmpty ? response.statusLine : response.statusLine + ": " + explanation
        let statusText = parts.isEmpty ? nil : parts.joined(separator: " ")
        if (500...599).contains(response.status), response.status != refusalStatus {
            return Verdict(.crash, reason: text, status: statusText)
        }
        return Verdict(.reject, reason: text, rule: rule(of: response, code: parts.first), status: statusText)
    }

    /// The rule a refusal names: its code's (from `ruleCode`, else the status's first word), else the first
    /// pattern that matches.
    func rule(of response: MapResponse, code statusCode: String?) -> RuleID? {
        let code = ruleCode.map { $0.read(response)?.text } ?? statusCode
        if let code, let rule = rules[code] { return rule }
        return rulePatterns.first { $0.matches(response) }?.rule
    }
}
