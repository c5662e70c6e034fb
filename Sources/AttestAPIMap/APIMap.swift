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
    /// Exchanges around the ceremonies: once per run, and once per simulated session before its first step.
    public var setup: MapSetup
    /// Cookies every session's jar starts with (templates; `env.*` allowed: a session cookie of a login done elsewhere).
    public var cookies: [String: Template]
    /// Real accounts, one per simulated user of a case (`account.NAME` in templates).
    public var accounts: AccountMap?
    /// The relying party's own policy, stated or read from its options: the run's profile follows it.
    public var policy: SitePolicy?
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
        let json = try JSONValue.parse(data, limit: sizeLimit)
        if let pointer = JSONDuplicateMembers.first(in: data) { throw APIMapError(pointer, "this member is named twice in its object") }
        return try APIMap(json: json)
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
        setup = try reader.object("setup").map(MapSetup.init) ?? MapSetup()
        cookies = try (reader.object("cookies")?.members ?? [:]).reduce(into: [:]) { cookies, member in
            let pointer = "/cookies/\(escape(member.key))"
            guard MapCookie.isName(member.key) else { throw APIMapError(pointer, "not a cookie name") }
            cookies[member.key] = try Template(member.value, at: pointer)
        }
        accounts = try reader.object("accounts").map(AccountMap.init)
        policy = try reader.object("policy").map(SitePolicy.init)
        guard let stepsReader = try reader.object("steps"), !stepsReader.members.isEmpty else {
            throw APIMapError("/steps", "required: one entry per step kind the server takes")
        }
        steps = try stepsReader.members.reduce(into: [:]) { steps, member in
            steps[StepKind(member.key)] = try StepMap(ObjectReader(member.value, at: stepsReader.at(member.key)))
        }
        guard let verdictReader = try reader.object("verdict") else { throw APIMapError("/verdict", "required") }
        verdict = try VerdictMap(verdictReader)
        try reader.onlyKnown(["$schema", "format", "name", "description", "family", "clock", "sessions", "headers", "identities",
                              "fresh", "setup", "cookies", "accounts", "policy", "steps", "verdict"])
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

    /// True when some step's exchange says where its response holds the ceremony's options (`options`).
    public var observesOptions: Bool { steps.values.contains { $0.exchanges.contains { $0.optionsPointer != nil } } }

    /// Every exchange of the map with its pointer: setup first, then each step kind's.
    public var allExchanges: [(pointer: String, exchange: Exchange, setup: Bool)] {
        setup.run.enumerated().map { ("/setup/run/\($0.offset)", $0.element, true) }
            + setup.session.enumerated().map { ("/setup/session/\($0.offset)", $0.element, true) }
            + steps.sorted { $0.key < $1.key }.flatMap { kind, step in
                step.exchanges.enumerated().map { ("/steps/\(escape(kind.rawValue))/exchanges/\($0.offset)", $0.element, false) }
            }
    }

    /// Identities and account fields that templates use must be declared; `env.*` values go only where a secret
    /// belongs: headers, the cookie jar's seeds, and setup exchanges (a login form's password).
    func validateSources() throws {
        for (pointer, exchange, isSetup) in allExchanges {
            for source in exchange.request.sources + (exchange.session?.sources ?? []) {
                if case .identity(let name) = source, identities[name] == nil {
                    throw APIMapError(pointer, "identity.\(name) is used but not declared under /identities")
                }
                if case .account(let field) = source {
                    guard let accounts else { throw APIMapError(pointer, "account.\(field) is used but the map has no /accounts") }
                    if let pool = accounts.pool, !pool.allSatisfy({ $0[field] != nil }) {
                        throw APIMapError(pointer, "account.\(field) is used but not every account under /accounts/pool has \(field)")
                    }
                }
            }
            // Each use of a secret is checked where it is, not per exchange: a header reading env.X does not let
            // the same step exchange put env.X into its method, path or body.
            if !isSetup {
                for source in exchange.request.sourcesOutsideHeaders {
                    if case .environment(let name) = source {
                        throw APIMapError(pointer, "env.\(name) may only be used in a header, a cookie or a setup exchange (secrets never go into a ceremony's bodies or paths)")
                    }
                }
            }
        }
        for (pointer, exchange, isSetup) in allExchanges where isSetup {
            for capture in exchange.captures {
                if case .replaces = capture.target { throw APIMapError(pointer, "a setup exchange stores what it captures (store), it replaces no case input") }
            }
            for source in exchange.request.sources {
                if case .input = source { throw APIMapError(pointer, "a setup exchange runs outside any step: it cannot read input.*") }
                if case .derived = source { throw APIMapError(pointer, "a setup exchange runs outside any step: it cannot read derived.*") }
            }
        }
    }

    /// Header names whose values come from the environment (secrets): redacted wherever a request is shown.
    public var secretHeaders: Set<String> {
        var names = Set<String>()
        for (name, template) in headers where template.readsEnvironment { names.insert(name.lowercased()) }
        for (_, exchange, _) in allExchanges {
            for (name, template) in exchange.request.headers where template.readsEnvironment { names.insert(name.lowercased()) }
        }
        return names
    }

    /// The environment variables the map reads anywhere (secrets: their values are redacted from every report).
    public var environmentNames: Set<String> {
        var sources = headers.values.flatMap(\.sources) + cookies.values.flatMap(\.sources)
        for (_, exchange, _) in allExchanges { sources += exchange.request.sources }
        for account in accounts?.pool ?? [] { sources += account.values.flatMap(\.sources) }
        var names = Set<String>()
        for case .environment(let name) in sources { names.insert(name) }
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
    /// The statuses that let a setup or preparing exchange go on (`"2xx"`, the default, or a list: `[200, 302]` for
    /// a login that redirects). A step's last exchange is read by the verdict instead.
    public var expect: StatusExpectation
    /// `"options": {"at": "/publicKey"}`: this exchange's response holds the ceremony's options (WebAuthn's
    /// PublicKeyCredentialCreationOptions or RequestOptions in their JSON form) at that JSON pointer (`""` for the
    /// whole body), for the options checks every map run makes of what the server issues.
    public var optionsPointer: String?

    init(_ reader: ObjectReader) throws {
        name = try reader.optionalString("name") ?? "request"
        session = try reader.members["session"].map { try Template($0, at: reader.at("session")) }
        guard let request = try reader.object("request") else { throw APIMapError(reader.at("request"), "required") }
        self.request = try RequestMap(request)
        captures = try reader.array("capture").map { try Capture(ObjectReader($0, at: $1)) }
        expect = try reader.members["expect"].map { try StatusExpectation($0, at: reader.at("expect")) } ?? .success
        if let options = try reader.object("options") {
            let pointer = try options.optionalString("at") ?? ""
            guard pointer.isEmpty || pointer.hasPrefix("/") else { throw APIMapError(options.at("at"), "a JSON pointer (\"/publicKey\", or \"\" for the whole body)") }
            try options.onlyKnown(["at"])
            optionsPointer = pointer
        }
        try reader.onlyKnown(["name", "session", "request", "capture", "expect", "options"])
    }
}

/// The HTTP statuses an exchange may answer with and go on.
public enum StatusExpectation: Hashable, Sendable, CustomStringConvertible {
    /// Any 2xx.
    case success
    case list([Int])

    init(_ json: JSONValue, at pointer: String) throws {
        switch json {
        case .string("2xx"): self = .success
        case .array(let items) where !items.isEmpty:
            self = .list(try items.enumerated().map { index, item in
                guard case .integer(let code) = item, (100...599).contains(code) else { throw APIMapError("\(pointer)/\(index)", "expected an HTTP status") }
                return code
            })
        default: throw APIMapError(pointer, "expected \"2xx\" or a non-empty list of HTTP statuses")
        }
    }

    public func allows(_ status: Int) -> Bool {
        switch self {
        case .success: (200..<300).contains(status)
        case .list(let codes): codes.contains(status)
        }
    }

    public var description: String {
        switch self {
        case .success: "2xx"
        case .list(let codes): codes.map(String.init).joined(separator: " or ")
        }
    }
}

/// `{"run": [...], "session": [...]}`: exchanges sent once per run before the first case (create a test account,
/// fetch a site-wide token), and once per simulated session before its first exchange (fetch the login form, log
/// in). What a run setup stores and the cookies it receives start every session; what a session setup stores and
/// receives stays in that session. Setup exchanges may read `env.*` in their bodies (a password in a login form,
/// redacted wherever a request is shown) and may not read a step's `input.*`.
public struct MapSetup: Sendable {
    public var run: [Exchange] = []
    public var session: [Exchange] = []

    init() {}

    init(_ reader: ObjectReader) throws {
        run = try reader.array("run").map { try Exchange(ObjectReader($0, at: $1)) }
        session = try reader.array("session").map { try Exchange(ObjectReader($0, at: $1)) }
        for (index, exchange) in run.enumerated() where exchange.session != nil {
            throw APIMapError(reader.at("run") + "/\(index)/session", "a run setup exchange is sent once, in no simulated session")
        }
        try reader.onlyKnown(["run", "session"])
    }
}

/// `{"per": "input.user", "pool": [{"username": "alice", "password": {"$": "env.SITE_PASSWORD"}}, ...]}`: each
/// distinct value of `per` within a case is one simulated user with its own sessions (and so its own logins). With
/// a `pool`, the case's first user is the pool's first account, the second the second (a case with more users than
/// the pool is `unsupported`); templates read the account's fields as `account.NAME`. Without one, each simulated
/// user is a fresh identity the map's setup makes an account for (a sign-up exchange).
public struct AccountMap: Sendable {
    public var per: ValueSource
    public var pool: [[String: Template]]?

    init(_ reader: ObjectReader) throws {
        per = try ValueSource(parsing: try reader.string("per"), at: reader.at("per"))
        switch per {
        case .input, .derived: break
        default: throw APIMapError(reader.at("per"), "accounts are kept per input.* or derived.* value")
        }
        if reader.members["pool"] != nil {
            pool = try reader.array("pool").map { item, pointer in
                let account = try ObjectReader(item, at: pointer)
                guard !account.members.isEmpty else { throw APIMapError(pointer, "an account has at least one field") }
                return try account.members.reduce(into: [:]) { fields, member in
                    let template = try Template(member.value, at: account.at(member.key))
                    // An account's field is the account's own value: reading another field would read itself without end.
                    for source in template.sources {
                        if case .account = source { throw APIMapError(account.at(member.key), "an account field cannot read account.*") }
                    }
                    fields[member.key] = template
                }
            }
            if pool?.isEmpty == true { throw APIMapError(reader.at("pool"), "a pool has at least one account") }
        }
        try reader.onlyKnown(["per", "pool"])
    }
}

extension Template {
    package var readsEnvironment: Bool { sources.contains { if case .environment = $0 { true } else { false } } }
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
    /// A regular expression searched in the source's text (the body's first 64 KiB, a header): its first group,
    /// or the whole match without one (a hidden form field: `name="csrfmiddlewaretoken" value="([^"]+)"`).
    public var regex: VerdictMap.RulePattern.Expression?
    public var decode: ValueEncoding
    public var target: Target
    public var optional: Bool
    public var per: ValueSource?
    /// The value is the ceremony's state, held by the client (a signed token the server hands out with the options
    /// and reads back with the response): the token is the session, so a case about which session answers a
    /// ceremony does not apply to this step kind.
    public var sessionState: Bool

    init(_ reader: ObjectReader) throws {
        from = try ResponseSource(parsing: try reader.string("from"), at: reader.at("from"))
        if let pattern = try reader.optionalString("regex") {
            guard !pattern.isEmpty, pattern.utf8.count <= 1024 else { throw APIMapError(reader.at("regex"), "expected a regular expression of 1 to 1024 bytes") }
            do {
                regex = .init(regex: try NSRegularExpression(pattern: pattern))
            } catch {
                throw APIMapError(reader.at("regex"), "not a regular expression: \(error.localizedDescription)")
            }
        } else {
            regex = nil
        }
        sessionState = try reader.bool("sessionState") ?? false
        decode = try reader.encoding("decode") ?? .text
        switch (try reader.optionalString("replaces"), try reader.optionalString("store")) {
        case (let input?, nil): target = .replaces(InputKey(input))
        case (nil, let name?): target = .store(name)
        default: throw APIMapError(reader.pointer, "a capture has exactly one of replaces (an input key) or store (a name)")
        }
        optional = try reader.bool("optional") ?? false
        per = try reader.optionalString("per").map { try ValueSource(parsing: $0, at: reader.at("per")) }
        if sessionState, case .replaces = target { throw APIMapError(reader.at("sessionState"), "a state token is stored (store), not a case input") }
        try reader.onlyKnown(["from", "regex", "decode", "replaces", "store", "optional", "per", "sessionState"])
    }

    /// The text or JSON value this capture takes from `response`, before decoding: the source's value, narrowed by
    /// the regular expression when there is one.
    package func value(in response: MapResponse) -> JSONValue? {
        guard let value = from.read(response) else { return nil }
        guard let regex else { return value }
        guard let text = value.text else { return nil }
        let bounded = String(text.utf8.prefix(MapResponse.bodyTextLimit)) ?? text
        guard let match = regex.regex.firstMatch(in: bounded, range: NSRange(bounded.startIndex..., in: bounded)) else { return nil }
        let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard range.location != NSNotFound, let found = Range(range, in: bounded) else { return nil }
        return .string(String(bounded[found]))
    }
}

/// `"policy"`: the relying party's choices (`RelyingPartyPolicy`), stated in the map, and/or `fromOptions`: where a
/// registration's options (PublicKeyCredentialCreationOptions) sit in the response of one exchange, to read
/// `rp.id`, `pubKeyCredParams[].alg`, `attestation` and `authenticatorSelection.userVerification` from the site
/// itself. What the map states wins over what the options say.
public struct SitePolicy: Sendable {
    public struct OptionsSource: Sendable {
        public var step: StepKind
        /// The index of the exchange whose response holds the options.
        public var exchange: Int
        /// A JSON pointer into that response (`/publicKey`, or `` for the whole body).
        public var pointer: String
    }

    public var stated: RelyingPartyPolicy
    public var fromOptions: OptionsSource?

    init(_ reader: ObjectReader) throws {
        var stated = RelyingPartyPolicy()
        stated.rpId = try reader.optionalString("rpId")
        if reader.members["origins"] != nil {
            stated.origins = try reader.array("origins").map { item, pointer in
                guard let origin = item.stringValue, origin.contains("://") else { throw APIMapError(pointer, "expected an origin (scheme://host[:port])") }
                return origin
            }
        }
        stated.appOrigins = try reader.bool("appOrigins")
        if let value = try reader.optionalString("attestation") {
            guard RelyingPartyPolicy.attestationValues.contains(value) else {
                throw APIMapError(reader.at("attestation"), "expected one of " + RelyingPartyPolicy.attestationValues.joined(separator: ", "))
            }
            stated.attestation = value
        }
        if let value = try reader.optionalString("userVerification") {
            guard RelyingPartyPolicy.userVerificationValues.contains(value) else {
                throw APIMapError(reader.at("userVerification"), "expected one of " + RelyingPartyPolicy.userVerificationValues.joined(separator: ", "))
            }
            stated.userVerification = value
        }
        if reader.members["algorithms"] != nil {
            stated.algorithms = try reader.array("algorithms").map { item, pointer in
                guard case .integer(let value) = item else { throw APIMapError(pointer, "expected a COSE algorithm identifier") }
                return value
            }
        }
        if let value = try reader.optionalString("trust") {
            guard let trust = RelyingPartyPolicy.Trust(rawValue: value) else {
                throw APIMapError(reader.at("trust"), "expected one of " + RelyingPartyPolicy.Trust.allCases.map(\.rawValue).joined(separator: ", "))
            }
            stated.trust = trust
        }
        self.stated = stated
        if let options = try reader.object("fromOptions") {
            let pointer = try options.optionalString("at") ?? ""
            guard pointer.isEmpty || pointer.hasPrefix("/") else { throw APIMapError(options.at("at"), "a JSON pointer (\"/publicKey\", or \"\" for the whole body)") }
            fromOptions = OptionsSource(step: StepKind(try options.string("step")), exchange: try options.integer("exchange") ?? 0, pointer: pointer)
            try options.onlyKnown(["step", "exchange", "at"])
        } else {
            fromOptions = nil
        }
        try reader.onlyKnown(["rpId", "origins", "appOrigins", "attestation", "userVerification", "algorithms", "trust", "fromOptions"])
    }

    /// The policy a registration's options state (the members the options have).
    public static func read(options json: JSONValue) -> RelyingPartyPolicy {
        var policy = RelyingPartyPolicy()
        policy.rpId = json.at("/rp/id")?.stringValue
        if let params = json.at("/pubKeyCredParams")?.arrayValue {
            let algorithms = params.compactMap { item -> Int? in if case .integer(let value)? = item.at("/alg") { value } else { nil } }
            if !algorithms.isEmpty { policy.algorithms = algorithms }
        }
        // §5.4: attestation defaults to "none", authenticatorSelection.userVerification to "preferred".
        let attestation = json.at("/attestation")?.stringValue ?? "none"
        policy.attestation = RelyingPartyPolicy.attestationValues.contains(attestation) ? attestation : "none"
        let userVerification = json.at("/authenticatorSelection/userVerification")?.stringValue ?? "preferred"
        policy.userVerification = RelyingPartyPolicy.userVerificationValues.contains(userVerification) ? userVerification : "preferred"
        return policy
    }
}
