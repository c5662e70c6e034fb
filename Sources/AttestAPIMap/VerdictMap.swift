import AttestConformance

/// How a step's last response becomes a verdict. `accept`: the HTTP statuses (`"2xx"` or a list) and JSON members
/// (pointer to value) that together mean the server accepted; anything else is a refusal. `status`: the response
/// values whose texts, joined by a space, are the refusal's API status (`["json:/errorCode", "json:/step"]` gives
/// `100012 NONCE`; `["http-status"]` gives `403`), compared with the status a case documents. `reason`: where the
/// server explains a refusal. `rules`: API error codes (the status's first word) that name one rule.
/// `refusalStatus`: the HTTP status an emulation of this map answers refusals with when `status` does not read it.
public struct VerdictMap: Hashable, Sendable {
    public var acceptStatuses: ClosedRange<Int>?
    public var acceptStatusList: [Int]
    public var acceptMembers: [String: JSONValue]
    public var status: [ResponseSource]
    public var reason: ResponseSource?
    public var rules: [String: RuleID]
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
        refusalStatus = try reader.integer("refusalStatus") ?? 400
        guard (400...599).contains(refusalStatus) else { throw APIMapError(reader.at("refusalStatus"), "expected an HTTP error status, 400 to 599") }
        try reader.onlyKnown(["accept", "status", "reason", "rules", "refusalStatus"])
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
        let code = parts.first
        let reason = reason.flatMap { $0.read(response)?.text } ?? response.excerpt
        return Verdict(.reject, reason: "HTTP \(response.status): \(reason)", rule: code.flatMap { rules[$0] },
                       status: parts.isEmpty ? nil : parts.joined(separator: " "))
    }
}
