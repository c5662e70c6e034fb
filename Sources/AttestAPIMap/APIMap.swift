import AttestConformance
import Foundation

/// A server's API described as data (`apis/*.json`, format `attest-harness-api-map/1`, schema
/// `apis/api-map.schema.json`, guide `docs/api-maps.md`): for each step kind of one family, the HTTP exchanges that
/// carry the step to the server, the values its responses issue (a challenge that replaces the forged one, a token
/// later requests carry), and how the last response reads as a verdict. `MapDriver` drives a deployed server from
/// it; `MapEmulation` serves the same API in front of the reference verifier, so one description serves both.
public struct APIMap: Sendable {
    public static let formatName = "attest-harness-api-map/1"
    /// Map documents larger than this are refused before parsing.
    public static let sizeLimit = 1 << 20

    public var name: String
    public var description: String
    public var family: FamilyName
    /// The header that carries the step's time to a server with a test clock (`X-Attest-Harness-Time`), or nil
    /// when the server keeps real time: then lifetime cases need `--real-time`.
    public var clockHeader: String?
    /// Each simulated session keeps its own cookie jar (`"sessions": "cookies"`), or none does.
    public var cookieSessions: Bool
    /// Headers of every request (an Authorization from the environment).
    public var headers: [String: Template]
    public var identities: [String: IdentityMap]
    /// Values replaced by fresh ones before any step that has them (a user id no earlier case used).
    public var fresh: [FreshValue]
    public var steps: [StepKind: StepMap]
    public var verdict: VerdictMap

    /// Reads and validates a map file (at most `sizeLimit` bytes).
    public static func load(contentsOf url: URL) throws -> APIMap {
        // Only a regular file (or a link to one): a FIFO would block the read, a directory is no map.
        guard (try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[.type] as? FileAttributeType) == .typeRegular else {
            throw APIMapError("", "\(url.path) is not a regular file")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw APIMapError("", "cannot read \(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: sizeLimit + 1)) ?? Data()
        guard data.count <= sizeLimit else { throw APIMapError("", "\(url.path) is over the \(sizeLimit)-byte cap for a map") }
        return try APIMap(json: try JSONValue.parse(data, limit: sizeLimit))
    }

    public init(json: JSONValue) throws {
        let reader = try ObjectReader(json, at: "")
        let format = try reader.string("format")
        guard format == Self.formatName else { throw APIMapError("/format", "expected \"\(Self.formatName)\", found \"\(format)\"") }
        name = try reader.string("name")
        description = try reader.optionalString("description") ?? ""
        family = FamilyName(try reader.string("family"))
        if let clock = try reader.object("clock") {
            clockHeader = try clock.optionalString("header")
            if let name = clockHeader, !Self.isHeaderName(name) { throw APIMapError(clock.at("header"), "not a header name") }
            try clock.onlyKnown(["header"])
        } else {
            clockHeader = nil
        }
        switch try reader.optionalString("sessions") ?? "none" {
        case "cookies": cookieSessions = true
        case "none": cookieSessions = false
        case let other: throw APIMapError("/sessions", "expected \"cookies\" or \"none\", found \"\(other)\"")
        }
        headers = try Self.headers(reader.object("headers"))
        identities = try (reader.object("identities")?.members ?? [:]).reduce(into: [:]) { identities, member in
            identities[member.key] = try IdentityMap(ObjectReader(member.value, at: "/identities/\(escape(member.key))"))
        }
        fresh = try reader.array("fresh").map { try FreshValue(ObjectReader($0, at: $1)) }
        guard let stepsReader = try reader.object("steps"), !stepsReader.members.isEmpty else {
            throw APIMapError("/steps", "required: one entry per step kind the server takes")
        }
        steps = try stepsReader.members.reduce(into: [:]) { steps, member in
            steps[StepKind(member.key)] = try StepMap(ObjectReader(member.value, at: stepsReader.at(member.key)))
        }
        guard let verdictReader = try reader.object("verdict") else { throw APIMapError("/verdict", "required") }
        verdict = try VerdictMap(verdictReader)
        try reader.onlyKnown(["$schema", "format", "name", "description", "family", "clock", "sessions", "headers", "identities",
                              "fresh", "steps", "verdict"])
        try validateSources()
    }

    static func headers(_ reader: ObjectReader?) throws -> [String: Template] {
        guard let reader else { return [:] }
        return try reader.members.reduce(into: [:]) { headers, member in
            guard isHeaderName(member.key) else {
                throw APIMapError(reader.at(member.key), "not a header name")
            }
            headers[member.key] = try Template(member.value, at: reader.at(member.key))
        }
    }

    /// An HTTP token: visible ASCII without separators that could end or split a header line.
    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256 && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }
    }

    /// Identities and stored values that templates use must be declared; env values only in headers.
    func validateSources() throws {
        for (kind, step) in steps {
            for (index, exchange) in step.exchanges.enumerated() {
                let pointer = "/steps/\(escape(kind.rawValue))/exchanges/\(index)"
                for source in exchange.request.sources {
                    if case .identity(let name) = source, identities[name] == nil {
                        throw APIMapError(pointer, "identity.\(name) is used but not declared under /identities")
                    }
                }
                // Each use of a secret is checked where it is, not per exchange: a header reading env.X does not let
                // the same exchange put env.X into its method, path or body.
                for source in exchange.request.sourcesOutsideHeaders {
                    if case .environment(let name) = source {
                        throw APIMapError(pointer, "env.\(name) may only be used in a header (secrets never go into bodies or paths)")
                    }
                }
            }
        }
    }

    /// Header names whose values come from the environment (secrets): redacted wherever a request is shown.
    public var secretHeaders: Set<String> {
        var names = Set<String>()
        for (name, template) in headers where template.sources.contains(where: { if case .environment = $0 { true } else { false } }) {
            names.insert(name.lowercased())
        }
        for step in steps.values {
            for exchange in step.exchanges {
                for (name, template) in exchange.request.headers
                where template.sources.contains(where: { if case .environment = $0 { true } else { false } }) {
                    names.insert(name.lowercased())
                }
            }
        }
        return names
    }

    /// The environment variables the map's headers read (secrets: their values are redacted from every report).
    public var environmentNames: Set<String> {
        var templates = Array(headers.values)
        for step in steps.values { for exchange in step.exchanges { templates += exchange.request.headers.values } }
        var names = Set<String>()
        for template in templates { for case .environment(let name) in template.sources { names.insert(name) } }
        return names
    }

    /// The verdict map of `kind` (its own, or the map's).
    public func verdict(for kind: StepKind) -> VerdictMap { steps[kind]?.verdict ?? verdict }
}

/// `{"prefix": "attest-harness-", "per": "input.user"}`: a fresh name (prefix and a random UUID) per case, and
/// per distinct value of `per` within the case when given (one user name per simulated user).
public struct IdentityMap: Hashable, Sendable {
    public var prefix: String
    public var per: ValueSource?

    init(_ reader: ObjectReader) throws {
        prefix = try reader.optionalString("prefix") ?? ""
        per = try reader.optionalString("per").map { try ValueSource(parsing: $0, at: reader.at("per")) }
        switch per {
        case nil, .input?, .derived?: break
        default: throw APIMapError(reader.at("per"), "an identity is kept per input.* or derived.* value")
        }
        try reader.onlyKnown(["prefix", "per"])
    }
}

/// `{"value": "input.credentialId", "as": "random"}`: before a step that has this value, replace it (and re-forge
/// the case around it) by random bytes of the same length or a random UUID, so a deployed server that keeps every
/// earlier case's users and credentials sees new ones. A value already replaced in the case keeps its replacement.
public struct FreshValue: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case random, uuid }
    public var value: ValueSource
    public var kind: Kind

    init(_ reader: ObjectReader) throws {
        value = try ValueSource(parsing: try reader.string("value"), at: reader.at("value"))
        switch value {
        case .input, .derived: break
        default: throw APIMapError(reader.at("value"), "only input.* and derived.* values can be made fresh")
        }
        guard let kind = Kind(rawValue: try reader.string("as")) else { throw APIMapError(reader.at("as"), "expected \"random\" or \"uuid\"") }
        self.kind = kind
        try reader.onlyKnown(["value", "as"])
    }
}

/// One step kind: values made fresh first, then the exchanges in order. Every exchange but the last prepares the
/// step (asks for options, a challenge) and must answer a 2xx status with its captures; the last one's response
/// is the step's verdict.
public struct StepMap: Sendable {
    public var fresh: [FreshValue]
    public var exchanges: [Exchange]
    public var verdict: VerdictMap?

    init(_ reader: ObjectReader) throws {
        fresh = try reader.array("fresh").map { try FreshValue(ObjectReader($0, at: $1)) }
        exchanges = try reader.array("exchanges").map { try Exchange(ObjectReader($0, at: $1)) }
        guard !exchanges.isEmpty else { throw APIMapError(reader.at("exchanges"), "required: at least one exchange") }
        verdict = try reader.object("verdict").map(VerdictMap.init)
        try reader.onlyKnown(["fresh", "exchanges", "verdict"])
    }
}

/// One HTTP request and response of a step: the request written as templates, the session it is sent in (a
/// template naming it; absent: the case's main session), and the values captured from its response.
public struct Exchange: Sendable {
    public var name: String
    public var session: Template?
    public var request: RequestMap
    public var captures: [Capture]

    init(_ reader: ObjectReader) throws {
        name = try reader.optionalString("name") ?? "request"
        session = try reader.members["session"].map { try Template($0, at: reader.at("session")) }
        guard let request = try reader.object("request") else { throw APIMapError(reader.at("request"), "required") }
        self.request = try RequestMap(request)
        captures = try reader.array("capture").map { try Capture(ObjectReader($0, at: $1)) }
        try reader.onlyKnown(["name", "session", "request", "capture"])
    }
}

/// The request of an exchange. Its body is one of `json` (a template), `form` (fields, each a template,
/// form-urlencoded) or `body` (a template of the raw bytes); `stepHeaders` also sends every `header.*` input of the
/// step as that header.
public struct RequestMap: Sendable {
    public enum Body: Sendable {
        case json(Template)
        case form([String: Template])
        case raw(Template)
    }

    public var method: Template
    public var path: PathTemplate
    public var headers: [String: Template]
    public var stepHeaders: Bool
    public var body: Body?

    init(_ reader: ObjectReader) throws {
        method = try Template(reader.members["method"] ?? .string("GET"), at: reader.at("method"))
        if case .literal(let literal) = method {
            guard let name = literal.stringValue, !name.isEmpty, name.utf8.allSatisfy({ (65...90).contains($0) }) else {
                throw APIMapError(reader.at("method"), "an HTTP method in capitals (GET, POST, ...)")
            }
        }
        guard let path = reader.members["path"] else { throw APIMapError(reader.at("path"), "required") }
        self.path = try PathTemplate(path, at: reader.at("path"))
        headers = try APIMap.headers(reader.object("headers"))
        stepHeaders = try reader.bool("stepHeaders") ?? false
        let bodies = ["json", "form", "body"].filter { reader.members[$0] != nil }
        guard bodies.count <= 1 else { throw APIMapError(reader.pointer, "a request has one of json, form or body, not \(bodies.joined(separator: " and "))") }
        if let json = reader.members["json"] {
            body = .json(try Template(json, at: reader.at("json")))
        } else if let form = try reader.object("form") {
            body = .form(try form.members.reduce(into: [:]) { $0[$1.key] = try Template($1.value, at: form.at($1.key)) })
        } else if let raw = reader.members["body"] {
            body = .raw(try Template(raw, at: reader.at("body")))
        } else {
            body = nil
        }
        try reader.onlyKnown(["method", "path", "headers", "stepHeaders", "json", "form", "body"])
    }

    var headerSources: [ValueSource] { headers.values.flatMap(\.sources) }

    package var sources: [ValueSource] { headerSources + sourcesOutsideHeaders }

    /// What the method, the path and the body read: where a secret never goes.
    var sourcesOutsideHeaders: [ValueSource] {
        var sources = method.sources
        switch path {
        case .whole(let expression): sources.append(expression.source)
        case .parts(let parts): for case .value(let expression) in parts { sources.append(expression.source) }
        }
        switch body {
        case .json(let template), .raw(let template): sources += template.sources
        case .form(let fields): sources += fields.sorted { $0.key < $1.key }.flatMap(\.value.sources)
        case nil: break
        }
        return sources
    }
}

/// A value taken from a response. `replaces`: the server issued it in place of a forged input (its challenge,
/// challenge id, user id, session token): the case is re-forged around it and later requests carry it. `store`:
/// kept in the session as `session.NAME`. `per`: (for emulations) the server issues one such value per value of
/// that source, not a new one each time. Captures of a step's last exchange are taken only when it was accepted.
public struct Capture: Hashable, Sendable {
    public enum Target: Hashable, Sendable {
        case replaces(InputKey)
        case store(String)
    }

    public var from: ResponseSource
    public var decode: ValueEncoding
    public var target: Target
    public var optional: Bool
    public var per: ValueSource?

    init(_ reader: ObjectReader) throws {
        from = try ResponseSource(parsing: try reader.string("from"), at: reader.at("from"))
        decode = try reader.encoding("decode") ?? .text
        switch (try reader.optionalString("replaces"), try reader.optionalString("store")) {
        case (let input?, nil): target = .replaces(InputKey(input))
        case (nil, let name?): target = .store(name)
        default: throw APIMapError(reader.pointer, "a capture has exactly one of replaces (an input key) or store (a name)")
        }
        optional = try reader.bool("optional") ?? false
        per = try reader.optionalString("per").map { try ValueSource(parsing: $0, at: reader.at("per")) }
        try reader.onlyKnown(["from", "decode", "replaces", "store", "optional", "per"])
    }
}
