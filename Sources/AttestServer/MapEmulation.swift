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
/// step's last exchange and are used once; a last exchange with nothing waiting is refused, as a server that binds
/// its ceremonies to sessions does. One reference session holds the whole server's state, as a deployed server
/// keeps one. Its clock is the map's clock header when sent, else the wall clock.
final class MapEmulation: @unchecked Sendable {
    let map: APIMap
    private var session: ReferenceSession
    private let lock = NSLock()
    /// Per client session: the values waiting for each step kind's last exchange.
    private var clients = ExpiringStore<[StepKind: [Pending]]>(lifetime: 600)
    /// Values issued once per `per` value (a user id per user name).
    private var issuedPer = ExpiringStore<[UInt8]>(lifetime: 24 * 3600)

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
        guard let (kind, stepMap, position, values) = route(method: method, target: target, headers: headers, json: json, body: body) else {
            return refusal(map.verdict, status: 404, reason: "no route \(method) \(target)", extraHeaders)
        }
        let exchange = stepMap.exchanges[position]
        let verdictMap = map.verdict(for: kind)
        for (name, template) in map.headers where template.sources.contains(where: { if case .environment = $0 { true } else { false } }) {
            if header(name)?.isEmpty ?? true { return refusal(verdictMap, status: 401, reason: "no \(name)", extraHeaders) }
        }
        lock.lock()
        defer { lock.unlock() }
        // What the emulation remembers expires on the wall clock: a client's test clock must not expire others'.
        let now = Date()
        var waiting = clients[client] ?? [:]
        // Values issued for this exchange's captures.
        var issued: [InputKey: [UInt8]] = [:]
        for capture in exchange.captures {
            guard case .replaces(let key) = capture.target else { continue }
            let fresh = capture.decode == .text ? Array(UUID().uuidString.lowercased().utf8) : secureRandomBytes(32)
            if let per = capture.per, let perValue = values[per] {
                let perKey = "\(key) \(Base64URL.encode(sha256(perValue)))"
                if issuedPer[perKey] == nil { issuedPer.store(fresh, for: perKey, at: now) }
                issued[key] = issuedPer[perKey]
            } else {
                issued[key] = fresh
            }
        }
        if position < stepMap.exchanges.count - 1 {
            // A preparing exchange: remember what was issued for the step's last exchange in this session.
            var pending = waiting[kind] ?? []
            if position == 0 { pending.removeAll() }
            // Only short values are kept to match on (user names, ids): a client cannot make the server hold its bodies.
            pending.append(Pending(carried: values.filter { $0.value.count <= 1024 }, issued: issued))
            waiting[kind] = Array(pending.suffix(8))
            clients.store(waiting, for: client, at: now)
            return accepted(verdictMap, exchange: exchange, issued: issued, extraHeaders)
        }
        var inputs: [InputKey: [UInt8]] = [:]
        for (source, value) in values { if case .input(let key) = source { inputs[key] = value } }
        if position > 0 {
            // The values the preparing exchanges issued in this session, matched by what both requests carry.
            guard let index = waiting[kind]?.lastIndex(where: { pending in
                pending.carried.allSatisfy { source, value in values[source].map { $0 == value } ?? true }
            }), let pending = waiting[kind]?.remove(at: index) else {
                clients.store(waiting, for: client, at: now)
                return refusal(verdictMap, status: nil, reason: "no \(kind) in progress in this session", extraHeaders)
            }
            clients.store(waiting, for: client, at: now)
            for (key, value) in pending.issued where inputs[key] == nil { inputs[key] = value }
            for (source, value) in pending.carried { if case .input(let key) = source, inputs[key] == nil { inputs[key] = value } }
        }
        for (key, value) in issued { inputs[key] = value }
        let verdict: Verdict
        do {
            verdict = try session.verify(VerifierStep(kind: kind, inputs: inputs, time: time))
        } catch {
            return refusal(verdictMap, status: nil, reason: "\(error)", extraHeaders)
        }
        guard verdict.outcome == .accept else {
            return refusal(verdictMap, status: nil, reason: verdict.reason ?? "refused", verdictStatus: verdict.status, extraHeaders)
        }
        return accepted(verdictMap, exchange: exchange, issued: issued, extraHeaders)
    }

    /// The step kind and exchange a request is, and the values it carries: fixed paths first, then paths that are
    /// a step input (a protected request to any route).
    func route(method: String, target: String, headers: [(name: String, value: String)], json: JSONValue?,
               body: Data) -> (StepKind, StepMap, Int, [ValueSource: [UInt8]])? {
        let candidates = map.steps.sorted { $0.key < $1.key }.flatMap { kind, step in
            step.exchanges.enumerated().map { (kind, step, $0.offset, $0.element) }
        }
        for catchAll in [false, true] {
            for (kind, step, position, exchange) in candidates where exchange.request.path.isCatchAll == catchAll {
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
                        let name = pair[0].removingPercentEncoding ?? pair[0]
                        fields[name]?.extract(from: (pair[1].removingPercentEncoding).map(JSONValue.string), into: &values)
                    }
                case nil: break
                }
                return (kind, step, position, values)
            }
        }
        return nil
    }

    func accepted(_ verdict: VerdictMap, exchange: Exchange, issued: [InputKey: [UInt8]], _ extraHeaders: String) -> (UInt32, Data, String) {
        var answer = JSONValue.object([:])
        for (pointer, value) in verdict.acceptMembers { answer = answer.setting(pointer, to: value) }
        var headers = extraHeaders
        for capture in exchange.captures {
            guard case .replaces(let key) = capture.target, let bytes = issued[key],
                  let value = try? capture.decode.render(bytes) else { continue }
            switch capture.from {
            case .json(let pointer): answer = answer.setting(pointer, to: value)
            case .header(let name): headers += "\(name): \(value.text ?? "")\n"
            case .httpStatus, .body: break
            }
        }
        let status = verdict.acceptStatuses.map { _ in 200 } ?? verdict.acceptStatusList.first ?? 200
        return (UInt32(status), answer.serialized, headers)
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
            case .header, .body: break
            }
        }
        if case .json(let pointer)? = verdict.reason { answer = answer.setting(pointer, to: .string(reason)) }
        if !(400...599).contains(httpStatus) || verdict.accepts(MapResponse(status: httpStatus, headers: [], body: Array(answer.serialized))) {
            httpStatus = 400
        }
        return (UInt32(httpStatus), answer.serialized, extraHeaders)
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
