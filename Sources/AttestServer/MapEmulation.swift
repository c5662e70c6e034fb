import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestReference
import Foundation

/// Any API map served in front of the reference verifier (`serve --api FILE`), from the same description the
/// `MapDriver` sends requests with: a request is matched to its step kind and exchange by method and path, its
/// values are read back out of the map's templates, values the map captures are issued here (fresh challenges,
/// ids, tokens; one per `per` value when the map says so) and written where the map reads them, and a step's last
/// exchange is judged by the reference verifier and answered the way the map's verdict reads. Values issued by a
/// step's preparing exchanges wait, per client session (the cookie, when the map has cookie sessions), for that
/// step's last exchange (the newest ceremony of a kind first; answering one again is the reference's single-use
/// rule to judge, so an emulated profile without it lets the answer through); a last exchange with nothing waiting
/// is refused, as a server that binds its ceremonies to sessions does. One reference session holds the whole server's state, as a deployed server
/// keeps one. Its clock is the map's clock header when sent, else the wall clock.
final class MapEmulation: @unchecked Sendable {
    let map: APIMap
    /// What the emulated site's options say (written where the map's `policy.fromOptions` reads them).
    let options: JSONValue
    private var session: ReferenceSession
    private let lock = NSLock()
    /// Per client session: the values waiting for each step kind's last exchange.
    private var clients = ExpiringStore<[StepKind: [Pending]]>(lifetime: 600)
    /// Values issued once per `per` value (a user id per user name).
    private var issuedPer = ExpiringStore<[UInt8]>(lifetime: 24 * 3600)
    /// Per client session: the tokens its stored captures were issued, the newest last (checked when a request
    /// sends them back; an earlier one of the session still counts, as a replayed request carries it and a site's
    /// CSRF check accepts the cookie and token it set together).
    private var tokens = ExpiringStore<[String: [[UInt8]]]>(lifetime: 600)
    static let tokensKept = 8
    /// Per client session: who its setup exchanges signed in (the account and identity values they carried), which
    /// its later requests stand for, as a logged-in session stands for its user at a real site.
    private var signedIn = ExpiringStore<[ValueSource: [UInt8]]>(lifetime: 600)
    /// Per user id: the credentials registered for it, which registration options list in excludeCredentials (at
    /// most `excludedLimit`, the newest).
    private var credentialsOf = ExpiringStore<[[UInt8]]>(lifetime: 24 * 3600)
    static let excludedLimit = 16

    struct Pending {
        /// What the preparing requests carried (matched against the last request's values).
        var carried: [ValueSource: [UInt8]]
        /// What was issued for the step's inputs.
        var issued: [InputKey: [UInt8]]
    }

    static let sessionCookie = "attest_harness_session"
    /// Headers of the transport, never step inputs.
    /// Whether `value` has the form of an id `handle` issues: 24 base64url characters (18 random bytes).
    static func isIssuedSessionId(_ value: Substring) -> Bool {
        value.utf8.count == 24 && value.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte) || byte == 0x2d || byte == 0x5f
        }
    }

    static let transportHeaders: Set<String> = ["host", "content-length", "content-type", "connection", "cookie", "user-agent",
                                                "accept", "accept-encoding", "transfer-encoding", "expect"]

    init(map: APIMap, profile: Profile, seed: UInt64) throws {
        guard let family = BuiltinCatalogue.families.first(where: { $0.name == map.family }) else {
            throw HarnessError("the \(map.name) map names family \(map.family), which the catalogue does not have")
        }
        guard let context = try family.cases(parameters: profile.parameters, seed: seed).first?.context else {
            throw HarnessError("the \(map.family) family has no case to take the server's configuration from")
        }
        self.map = map
        options = Self.options(for: profile)
        session = try ReferenceVerifier(profile: profile, name: "\(map.name) emulation").startCase(context)
    }

    /// The answer to one request: status, body, and extra response headers ("Name: value" lines).
    func handle(method: String, target: String, headers: [(name: String, value: String)], body: Data) -> (UInt32, Data, String) {
        func header(_ name: String) -> String? { headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        let time = map.clockHeader.flatMap(header).flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date()
        // The client's session: its cookie, or a new one (announced in the answer).
        var extraHeaders = ""
        var client = "shared"
        if map.cookieSessions {
            let cookies = header("Cookie")?.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            // Only a session id of the form this emulation issues keys the store: a client cannot make it hold a key of
            // any length (30 kB cookies from 10,000 clients), and another value gets a new session, as a server's would.
            if let cookie = cookies.first(where: { $0.hasPrefix(Self.sessionCookie + "=") }),
               case let value = cookie.dropFirst(Self.sessionCookie.count + 1), Self.isIssuedSessionId(value) {
                client = String(value)
            } else {
                client = Base64URL.encode(secureRandomBytes(18))
                extraHeaders = "Set-Cookie: \(Self.sessionCookie)=\(client); Path=/; HttpOnly\n"
            }
        }
        let json = try? JSONValue.parse(body)
        guard let routed = route(method: method, target: target, headers: headers, json: json, body: body) else {
            return refusal(map.verdict, status: 404, reason: "no route \(method) \(target)", extraHeaders)
        }
        lock.lock()
        defer { lock.unlock() }
        // What the emulation remembers expires on the wall clock: a client's test clock must not expire others'.
        let now = Date()
        var values = routed.values
        let exchange = routed.exchange
        guard case .step(let kind, let stepMap, let position) = routed.role else {
            // A setup exchange (a login form, a sign-up): answered with the first status it expects, with the tokens
            // it captures issued to this client session.
            for case .environment(let name) in exchange.request.sources where values[.environment(name)]?.isEmpty ?? true {
                return refusal(map.verdict, status: 401, reason: "no \(name) in \(exchange.name)", extraHeaders)
            }
            // A login form's token must come back as issued to this session, as a site's CSRF check wants it.
            if let mismatch = mismatchedToken(exchange, values: values, client: client) {
                return refusal(map.verdict, status: 403, reason: mismatch, extraHeaders)
            }
            var user = signedIn[client] ?? [:]
            for (source, value) in values where value.count <= 256 {
                switch source {
                case .account, .identity: user[source] = value
                default: break
                }
            }
            if !user.isEmpty { signedIn.store(user, for: client, at: now) }
            let stored = issueStored(exchange, client: client, at: now)
            return accepted(map.verdict, exchange: exchange, issued: [:], stored: stored, status: Self.status(exchange.expect), extraHeaders)
        }
        for (source, value) in signedIn[client] ?? [:] where values[source] == nil { values[source] = value }
        let verdictMap = map.verdict(for: kind)
        for (name, template) in map.headers where template.readsEnvironment {
            if header(name)?.isEmpty ?? true { return refusal(verdictMap, status: 401, reason: "no \(name)", extraHeaders) }
        }
        // Tokens a map sends back (a CSRF token, a session token) must be the ones this client session was issued.
        if let mismatch = mismatchedToken(exchange, values: values, client: client) {
            return refusal(verdictMap, status: 403, reason: mismatch, extraHeaders)
        }
        // Where this step's pending values wait: the cookie session, or the state token the client holds.
        var pendingKey = client
        if let state = Self.stateCapture(stepMap), let token = values[.session(state)] { pendingKey = "state " + Base64URL.encode(token) }
        var waiting = clients[pendingKey] ?? [:]
        // Values issued for this exchange's captures.
        var issued: [InputKey: [UInt8]] = [:]
        for capture in exchange.captures {
            guard case .replaces(let key) = capture.target else { continue }
            let fresh = capture.regex != nil && capture.decode == .text ? Self.regexFriendlyText()
                : capture.decode == .text ? Array(UUID().uuidString.lowercased().utf8) : secureRandomBytes(32)
            if let per = capture.per, let perValue = values[per] {
                let perKey = "\(key) \(Base64URL.encode(sha256(perValue)))"
                if issuedPer[perKey] == nil { issuedPer.store(fresh, for: perKey, at: now) }
                issued[key] = issuedPer[perKey]
            } else {
                issued[key] = fresh
            }
        }
        if position < stepMap.exchanges.count - 1 {
            // A preparing exchange: remember what was issued for the step's last exchange in this session (or under
            // the state token it hands out).
            let stored = issueStored(exchange, client: client, at: now)
            if let state = Self.stateCapture(stepMap), let token = stored[state] {
                pendingKey = "state " + Base64URL.encode(token)
                waiting = clients[pendingKey] ?? [:]
            }
            var pending = waiting[kind] ?? []
            if position == 0 { pending.removeAll() }
            // Only short values are kept to match on (user names, ids): a client cannot make the server hold its bodies.
            pending.append(Pending(carried: values.filter { $0.value.count <= 1024 }, issued: issued))
            waiting[kind] = Array(pending.suffix(8))
            clients.store(waiting, for: pendingKey, at: now)
            return accepted(verdictMap, exchange: exchange, issued: issued, stored: stored, status: Self.status(exchange.expect), extraHeaders,
                            options: optionsAnswer(exchange, kind: kind, issued: issued, request: json))
        }
        Self.unpackCredentialJSON(&values)
        var inputs: [InputKey: [UInt8]] = [:]
        var pendingCarried: [ValueSource: [UInt8]] = [:]
        for (source, value) in values { if case .input(let key) = source { inputs[key] = value } }
        if position > 0 {
            // The values the preparing exchanges issued in this session, matched by what both requests carry.
            // The ceremony stays: whether its challenge may be answered again is the reference's to judge under the
            // profile (its single-use rule), not this store's, so an emulation without that rule lets it through.
            guard let pending = waiting[kind]?.last(where: { pending in
                pending.carried.allSatisfy { source, value in
                    if case .session = source { return true }
                    return values[source].map { $0 == value } ?? true
                }
            }) else {
                return refusal(verdictMap, status: nil, reason: "no \(kind) in progress in this session", extraHeaders)
            }
            pendingCarried = pending.carried
            for (key, value) in pending.issued where inputs[key] == nil { inputs[key] = value }
            for (source, value) in pending.carried { if case .input(let key) = source, inputs[key] == nil { inputs[key] = value } }
        }
        for (key, value) in issued { inputs[key] = value }
        // A value the site issued once per name (a user id per user name, at registration) is the one a later step
        // of that name goes with, when neither the step's requests nor its preparing exchanges carry it.
        var carried = values
        for (source, value) in pendingCarried where carried[source] == nil { carried[source] = value }
        for (key, per) in perIssued where inputs[key] == nil {
            if let perValue = carried[per], let value = issuedPer["\(key) \(Base64URL.encode(sha256(perValue)))"] { inputs[key] = value }
        }
        let verdict: Verdict
        do {
            verdict = try session.verify(VerifierStep(kind: kind, inputs: inputs, time: time))
        } catch {
            return refusal(verdictMap, status: nil, reason: "\(error)", extraHeaders)
        }
        guard verdict.outcome == .accept else {
            return refusal(verdictMap, status: nil, reason: verdict.reason ?? "refused", verdictStatus: verdict.status, extraHeaders)
        }
        if kind == StepKind.webAuthnRegistration, let user = inputs[.user], user.count <= 64,
           let credential = inputs[.credentialId] ?? DerivedValue.attestedCredentialId.value(in: inputs), credential.count <= 1023 {
            let key = Base64URL.encode(user)
            credentialsOf.store(Array(((credentialsOf[key] ?? []) + [credential]).suffix(Self.excludedLimit)), for: key, at: now)
        }
        return accepted(verdictMap, exchange: exchange, issued: issued, stored: issueStored(exchange, client: client, at: now), extraHeaders)
    }

    /// A registration's options as the emulated site states its policy: rp id, algorithms, attestation, user
    /// verification (the members `SitePolicy.read(options:)` reads).
    static func options(for profile: Profile) -> JSONValue {
        var options = JSONValue.object([:])
        if let rpId = profile.parameters["rpId"] { options = options.setting("/rp", to: .object(["id": .string(rpId)])) }
        let algorithms = (profile.parameters["algorithms"] ?? "").split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        options = options.setting("/pubKeyCredParams", to: .array(algorithms.map { .object(["type": .string("public-key"), "alg": .integer($0)]) }))
        options = options.setting("/attestation", to: .string(profile.parameters["attestation"] == "direct" ? "direct" : "none"))
        options = options.setting("/authenticatorSelection", to: .object(["userVerification": .string(profile.parameters["userVerification"] ?? "preferred")]))
        return options
    }

    /// Inputs the map says the site issues once per value of a source (`"per"`), with that source.
    var perIssued: [(InputKey, ValueSource)] {
        var pairs: [(InputKey, ValueSource)] = []
        for (_, exchange, _) in map.allExchanges {
            for capture in exchange.captures {
                if case .replaces(let key) = capture.target, let per = capture.per, !pairs.contains(where: { $0.0 == key }) { pairs.append((key, per)) }
            }
        }
        return pairs
    }

    /// The stored name of the step's state-token capture, when the map keeps the ceremony in one.
    static func stateCapture(_ step: StepMap) -> String? {
        for exchange in step.exchanges {
            for capture in exchange.captures where capture.sessionState { if case .store(let name) = capture.target { return name } }
        }
        return nil
    }

    /// The first status an exchange expects (a login's 302), 200 for any 2xx.
    static func status(_ expect: StatusExpectation) -> Int {
        switch expect {
        case .success: 200
        case .list(let codes): codes.first ?? 200
        }
    }

    /// A text value for a capture that reads it with a regular expression: 32 lower-case hex digits, which the
    /// classes such patterns use for a token (`[^"]+`, `\\w+`, `[a-zA-Z0-9]+`, `[0-9a-f]{32}`) all match.
    static func regexFriendlyText() -> [UInt8] {
        Array(secureRandomBytes(16).map { String(format: "%02x", $0) }.joined().utf8)
    }

    /// Issues the values `exchange` stores (tokens), remembered per client session to check when they come back.
    func issueStored(_ exchange: Exchange, client: String, at now: Date) -> [String: [UInt8]] {
        var stored: [String: [UInt8]] = [:]
        for capture in exchange.captures {
            guard case .store(let name) = capture.target else { continue }
            stored[name] = capture.regex != nil && capture.decode == .text ? Self.regexFriendlyText()
                : capture.decode == .text ? Array(Base64URL.encode(secureRandomBytes(18)).utf8) : secureRandomBytes(24)
        }
        guard !stored.isEmpty else { return stored }
        var issued = tokens[client] ?? [:]
        for (name, value) in stored { issued[name] = Array(((issued[name] ?? []) + [value]).suffix(Self.tokensKept)) }
        tokens.store(issued, for: client, at: now)
        return stored
    }

    /// Why a request's `session.*` values are not what this client session was issued, or nil when they are (or the
    /// emulation issued none of that name).
    func mismatchedToken(_ exchange: Exchange, values: [ValueSource: [UInt8]], client: String) -> String? {
        let issued = tokens[client] ?? [:]
        for case .session(let name) in exchange.request.sources {
            guard let expected = issued[name] else { continue }
            if !expected.contains(where: { $0 == values[.session(name)] }) { return "session.\(name) is not a value this session was issued" }
        }
        return nil
    }

    /// A WebAuthn credential sent whole (`input.credentialJSON`, L3 `toJSON()`): its base64url members become the
    /// inputs the request did not carry one by one, as a server reads them (what does not decode is left out, for
    /// the reference to refuse).
    static func unpackCredentialJSON(_ values: inout [ValueSource: [UInt8]]) {
        guard let bytes = values[.input(.credentialJSON)], let json = try? JSONValue.parse(Data(bytes), limit: 1 << 20) else { return }
        let members: [(InputKey, String)] = [(.clientDataJSON, "/response/clientDataJSON"), (.attestationObject, "/response/attestationObject"),
                                             (.authenticatorData, "/response/authenticatorData"), (.signature, "/response/signature"),
                                             (.userHandle, "/response/userHandle"), (.credentialId, "/rawId")]
        for (key, pointer) in members where values[.input(key)] == nil {
            if let text = json.at(pointer)?.stringValue, let decoded = Base64URL.decode(text) { values[.input(key)] = decoded }
        }
    }

    /// What a request is: a setup exchange, or an exchange of a step kind.
    enum Role {
        case setup
        case step(StepKind, StepMap, Int)
    }

    struct Routed {
        let role: Role
        let exchange: Exchange
        let values: [ValueSource: [UInt8]]
    }

    /// The exchange a request is, and the values it carries: setup exchanges first, then fixed paths, then paths
    /// that are a step input (a protected request to any route).
    func route(method: String, target: String, headers: [(name: String, value: String)], json: JSONValue?, body: Data) -> Routed? {
        let setup = (map.setup.run + map.setup.session).map { (Role.setup, $0) }
        let steps = map.steps.sorted { $0.key < $1.key }.flatMap { kind, step in
            step.exchanges.enumerated().map { (Role.step(kind, step, $0.offset), $0.element) }
        }
        for catchAll in [false, true] {
            for (role, exchange) in setup + steps where exchange.request.path.isCatchAll == catchAll {
                guard var values = exchange.request.path.match(target) else { continue }
                switch exchange.request.method {
                case .literal(.string(let fixed)): guard fixed == method else { continue }
                case let template: template.extract(from: .string(method), into: &values)
                }
                for (name, template) in exchange.request.headers {
                    template.extract(from: headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map { .string($0.value) },
                                     into: &values)
                }
                if exchange.request.stepHeaders {
                    let own = Set(map.headers.keys.map { $0.lowercased() } + [map.clockHeader?.lowercased()].compactMap { $0 })
                    for (name, value) in headers where !Self.transportHeaders.contains(name.lowercased()) && !own.contains(name.lowercased()) {
                        values[ValueSource.input(InputKey.header(name))] = Array(value.utf8)
                    }
                }
                switch exchange.request.body {
                case .json(let template): template.extract(from: json, into: &values)
                case .raw(let template):
                    if case .value(let expression) = template { values[expression.source] = Array(body) }
                case .form(let fields):
                    let pairs = String(decoding: body, as: UTF8.self).split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
                    for pair in pairs where pair.count == 2 {
                        let name = (pair[0].replacingOccurrences(of: "+", with: " ")).removingPercentEncoding ?? pair[0]
                        fields[name]?.extract(from: (pair[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding).map(JSONValue.string), into: &values)
                    }
                case nil: break
                }
                return Routed(role: role, exchange: exchange, values: values)
            }
        }
        return nil
    }

    /// What an exchange that answers with options (`options`) says beside the values its captures read: the user
    /// verification requirement the request asked for, and in a registration's the attestation preference it asked
    /// for and the user's credentials in excludeCredentials, as the options checks (`OptionsCheck`) expect of a site.
    func optionsAnswer(_ exchange: Exchange, kind: StepKind, issued: [InputKey: [UInt8]], request: JSONValue?) -> [(String, JSONValue)] {
        guard let at = exchange.optionsPointer else { return [] }
        let uvPointer = kind == StepKind.webAuthnRegistration ? "/authenticatorSelection/userVerification" : "/userVerification"
        var members: [(String, JSONValue)] = []
        if let requirement = request?.at(uvPointer)?.stringValue, RelyingPartyPolicy.userVerificationValues.contains(requirement) {
            members.append((at + uvPointer, .string(requirement)))
        }
        guard kind == StepKind.webAuthnRegistration else { return members }
        if let attestation = request?.at("/attestation")?.stringValue, RelyingPartyPolicy.attestationValues.contains(attestation) {
            members.append((at + "/attestation", .string(attestation)))
        }
        if let user = issued[.user] {
            let listed = (credentialsOf[Base64URL.encode(user)] ?? []).map { id in
                JSONValue.object(["type": .string("public-key"), "id": .string(Base64URL.encode(id))])
            }
            members.append((at + "/excludeCredentials", .array(listed)))
        }
        return members
    }

    func accepted(_ verdict: VerdictMap, exchange: Exchange, issued: [InputKey: [UInt8]], stored: [String: [UInt8]] = [:],
                  status: Int? = nil, _ extraHeaders: String, options extra: [(String, JSONValue)] = []) -> (UInt32, Data, String) {
        var answer = JSONValue.object([:])
        for (pointer, value) in verdict.acceptMembers { answer = answer.setting(pointer, to: value) }
        for (pointer, value) in extra { answer = answer.setting(pointer, to: value) }
        var headers = extraHeaders
        // Texts of captures that read the whole body: the body is then this page, not JSON (a login form).
        var page: [String] = []
        for capture in exchange.captures {
            let bytes: [UInt8]?
            switch capture.target {
            case .replaces(let key): bytes = issued[key]
            case .store(let name): bytes = stored[name]
            }
            guard let bytes, var value = try? capture.decode.render(bytes) else { continue }
            // A capture with a regular expression reads the value out of a text around it (a form's hidden field).
            if let regex = capture.regex {
                guard let text = value.text, let witness = RegexWitness.text(for: regex.regex, finding: text) else { continue }
                value = .string(witness)
            }
            switch capture.from {
            case .json(let pointer): answer = answer.setting(pointer, to: value)
            case .header(let name):
                if let text = value.text, Self.fitsAHeader(text) { headers += "\(name): \(text)\n" }
            case .cookie(let name):
                if let text = value.text, Self.fitsACookie(text) { headers += "Set-Cookie: \(name)=\(text); Path=/\n" }
            case .body: if let text = value.text { page.append(text) }
            case .httpStatus: break
            }
        }
        if let source = map.policy?.fromOptions, let step = map.steps[source.step], step.exchanges.indices.contains(source.exchange),
           step.exchanges[source.exchange].request.path == exchange.request.path,
           step.exchanges[source.exchange].request.method == exchange.request.method, let members = options.objectValue {
            for (name, value) in members.sorted(by: { $0.key < $1.key }) where answer.at(source.pointer + "/" + name) == nil {
                answer = answer.setting(source.pointer + "/" + name, to: value)
            }
        }
        let status = status ?? verdict.acceptStatuses.map { _ in 200 } ?? verdict.acceptStatusList.first ?? 200
        if (300..<400).contains(status) { headers += "Location: /\n" }
        if !page.isEmpty, answer.objectValue?.isEmpty ?? false {
            return (UInt32(status), Data(page.joined(separator: "\n").utf8), headers)
        }
        return (UInt32(status), answer.serialized, headers)
    }

    /// Whether `text` can be a header value as written (no line break, which would start another header).
    static func fitsAHeader(_ text: String) -> Bool { !text.utf8.contains { $0 == 0x0a || $0 == 0x0d || $0 == 0 } }

    /// Whether `text` can be a cookie value as written (RFC 6265 §4.1.1 cookie-octets).
    static func fitsACookie(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x21 || (0x23...0x2b).contains($0) || (0x2d...0x3a).contains($0) || (0x3c...0x5b).contains($0) || (0x5d...0x7e).contains($0) }
    }

    /// A refusal the map's verdict reads as one: the verifier's status written where the map reads the status
    /// (its HTTP status when the map reads `http-status`), the reason where it reads the reason.
    func refusal(_ verdict: VerdictMap, status: Int?, reason: String, verdictStatus: String? = nil, _ extraHeaders: String) -> (UInt32, Data, String) {
        var answer = JSONValue.object([:])
        var httpStatus = status ?? verdict.refusalStatus
        var parts = (verdictStatus ?? "").split(separator: " ", maxSplits: max(0, verdict.status.count - 1)).map(String.init)
        for source in verdict.status where !parts.isEmpty {
            let part = parts.removeFirst()
            switch source {
            case .json(let pointer): answer = answer.setting(pointer, to: .string(part))
            case .httpStatus: if status == nil, let code = Int(part), (400...599).contains(code) { httpStatus = code }
            case .header, .body, .cookie: break
            }
        }
        if case .json(let pointer)? = verdict.reason { answer = answer.setting(pointer, to: .string(reason)) }
        // A map that reads its reason from the whole body gets the reason as the body (a JSON string, as a site's
        // framework writes one error message).
        var body = answer.serialized
        if case .body? = verdict.reason, answer.objectValue?.isEmpty ?? false { body = JSONValue.string(reason).serialized }
        if !(400...599).contains(httpStatus) || verdict.accepts(MapResponse(status: httpStatus, headers: [], body: Array(body))) {
            httpStatus = 400
        }
        return (UInt32(httpStatus), body, extraHeaders)
    }
}

/// A map's emulation as a transport, in-process: what `run --api MAP --dry-run` answers its requests with, so the
/// whole ceremony (server-issued values included) can be shown without sending anything.
public struct InProcessMapServer: MapTransport {
    private let emulation: MapEmulation
    /// The base URL shown in requests (the server a real run would reach).
    public let name: String

    public init(map: APIMap, profile: Profile, seed: UInt64, name: String) throws {
        emulation = try MapEmulation(map: map, profile: profile, seed: seed)
        self.name = name
    }

    public func send(_ request: RenderedRequest) async throws -> MapResponse {
        let (status, body, headerText) = emulation.handle(method: request.method, target: request.target, headers: request.headers,
                                                          body: Data(request.body))
        let headers = headerText.split(separator: "\n").compactMap { line -> (name: String, value: String)? in
            guard let separator = line.range(of: ": ") else { return nil }
            return (String(line[..<separator.lowerBound]), String(line[separator.upperBound...]))
        }
        return MapResponse(status: Int(status), headers: headers, body: Array(body))
    }
}
