import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// Any server, black-box, from its API map (`run --verifier URL --api FILE`): each case's steps are sent as the
/// map's exchanges, through the live ceremony. Values the server issues (a challenge, a challenge id, a user id)
/// replace the forged ones and the case is forged again around them, once per new server value, never per step;
/// values the map declares fresh (user names, credential ids) are replaced before first use, since a deployed
/// server keeps every earlier case's users. The map's run setup is sent once, before the first case; each
/// simulated session (one set per simulated user when the map has accounts) starts from what it stored, with one
/// cookie jar, and sends the map's session setup (a login) before its first exchange. A step that replays an
/// earlier one sends that step's completing request again as it was sent. Requests carry the
/// step's time in the map's clock header. Against a server on real time (no clock header), a case whose steps are
/// more than `realTimeThreshold` apart (a lifetime case: a challenge used after it expired) is `unsupported`, with
/// the reason, unless `realTime` waits out the time between its steps; closer steps are sent at once, which keeps
/// within every lifetime. Cases run one at a time, as they share what the server stores, unless the map has
/// accounts: then each simulated user is an account no other running case holds (a fresh identity, or a pool
/// account leased for the case), and `--jobs` runs cases side by side (up to the pool's size over the most users a
/// case has).
public struct MapDriver: AttestationVerifier {
    public let map: APIMap
    public let transport: any MapTransport
    public let seed: UInt64
    /// Wait out the time between steps against a server without a clock header, instead of reporting `unsupported`.
    public var realTime: Bool
    /// Where `env.*` values come from.
    public var environment: [String: String]
    /// How long to wait for real time (injected by tests; `Task.sleep` by default).
    public var sleep: @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    /// Steps further apart than this need a clock header or `realTime`: every lifetime the catalogue tests is longer.
    public static let realTimeThreshold: TimeInterval = 60
    /// Told about every request sent (dry runs print them) and every wait (progress).
    public var observer: (@Sendable (Event) -> Void)?
    /// The wall clock cookies expire by (injected by tests).
    public var now: @Sendable () -> Date = { Date() }
    /// The map's run setup, sent once for every case this driver runs.
    let runSetup = MapRunSetup()
    /// What every options response this driver received said (the exchanges whose `options` say where they sit),
    /// for `OptionsCheck`.
    public let optionsLog = OptionsLog()

    /// What a driver tells its observer.
    public enum Event: Sendable {
        /// A request about to be sent, as a curl line with secrets redacted.
        case request(String)
        /// A real-time wait starting.
        case waiting(String)
    }

    public init(map: APIMap, transport: any MapTransport, seed: UInt64, realTime: Bool = false,
                environment: [String: String] = ProcessInfo.processInfo.environment, observer: (@Sendable (Event) -> Void)? = nil) {
        self.map = map
        self.transport = transport
        self.seed = seed
        self.realTime = realTime
        self.environment = environment
        self.observer = observer
    }

    public var name: String { "\(map.name)@\(transport.name)" }
    public var requiresSerialCases: Bool { map.accounts == nil }
    /// The most simulated users a catalogue case has (webauthn's owner and unique-id cases have two).
    static let usersPerCase = 2
    public var concurrentCaseLimit: Int? {
        guard let accounts = map.accounts else { return 1 }
        guard let pool = accounts.pool else { return nil }
        return max(1, pool.count / Self.usersPerCase)
    }
    /// The pool accounts running cases hold.
    let leases = AccountLeases()

    /// The relying party's policy as the map states it, with what the site's own options say where the map reads
    /// them (`policy.fromOptions`): the map's setup and `testCase`'s exchanges are sent up to the one whose response
    /// holds the options. Nil when the map states no policy.
    public func sitePolicy(using testCase: Case, profile: Profile) async throws -> RelyingPartyPolicy? {
        guard let policy = map.policy else { return nil }
        guard let source = policy.fromOptions else { return policy.stated }
        var run = try MapCaseRun(driver: self, testCase: testCase.request, profile: profile)
        defer { leases.release(run.accounts.values) }
        let response = try await run.response(of: source.step, exchange: source.exchange)
        guard let options = response.json?.at(source.pointer), options.objectValue != nil else {
            throw VerifierFailure.contract("the \(map.name) map reads the site's options at json:\(source.pointer) of \(source.step) exchange \(source.exchange), and the response has no object there (\(run.scrubbed(response).summary))")
        }
        return policy.stated.filling(from: SitePolicy.read(options: options))
    }

    /// Why the map cannot deliver `testCase` under `profile` (the reason a run reports it unsupported), or nil when it
    /// can: decided from the map and the case alone, nothing sent.
    public func undeliverable(_ testCase: Case, profile: Profile) throws -> String? {
        guard testCase.family == map.family else { return "the \(map.name) map drives the \(map.family) family" }
        do {
            try MapCaseRun(driver: self, testCase: testCase.request, profile: profile).requireDeliverable()
            return nil
        } catch VerifierFailure.unsupported(let reason) {
            return reason
        }
    }

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        guard testCase.family == map.family else {
            throw VerifierFailure.contract("the \(map.name) map drives the \(map.family) family; \(testCase.id) is a \(testCase.family) case")
        }
        var run = try MapCaseRun(driver: self, testCase: testCase, profile: profile)
        defer { leases.release(run.accounts.values) }
        return try await run.verdicts()
    }
}

/// Which accounts of a map's pool running cases hold: a case takes the lowest free ones, one per simulated user, and
/// gives them back when it ends, so cases side by side never share an account.
package final class AccountLeases: @unchecked Sendable {
    private let lock = NSLock()
    private var held = Set<Int>()

    /// The lowest free account number below `count`, now held; nil when all are held.
    package init() {}

    package func acquire(below count: Int) -> Int? {
        lock.withLock {
            guard let free = (0..<count).first(where: { !held.contains($0) }) else { return nil }
            held.insert(free)
            return free
        }
    }

    package func release<S: Sequence>(_ numbers: S) where S.Element == Int {
        lock.withLock { held.subtract(numbers) }
    }
}

/// The map's run setup, sent once: the session every case's sessions start from.
actor MapRunSetup {
    private var task: Task<MapSession, any Error>?

    func session(_ make: @escaping @Sendable () async throws -> MapSession) async throws -> MapSession {
        if let task { return try await task.value }
        let task = Task { try await make() }
        self.task = task
        return try await task.value
    }
}

/// One case through a map: the substitutions, identities and sessions it has so far.
struct MapCaseRun {
    let driver: MapDriver
    let testCase: VerifierCase
    let profile: Profile
    var forgeSeed: ForgeSeed
    var forged: Case
    var stale = false
    /// Forged value to the server's (or fresh) value replacing it; `targets` are the replacements.
    var substitutions: [[UInt8]: [UInt8]] = [:]
    var targets = Set<[UInt8]>()
    var identities: [String: [[UInt8]: String]] = [:]
    /// Sessions by key: the session's name, after the simulated user's key when the map has accounts.
    var sessions: [String: MapSession] = [:]
    /// The simulated users' account numbers (pool positions), by user key, in order of first appearance.
    var accounts: [[UInt8]: Int] = [:]
    /// Each finished step's completing request as it was sent (what a replay sends again), and the values its
    /// preparing exchanges stored (what an answer to its ceremony reuses).
    var completing: [Int: RenderedRequest] = [:]
    /// The credentials this case registered, by the user.id the registration's options gave (excludeCredentials).
    var registered: [[UInt8]: [[UInt8]]] = [:]
    var prepared: [Int: [String: [UInt8]]] = [:]
    /// Every cookie and stored value (8 characters or more) a session held when one of the case's requests went
    /// out: secrets still, after the site rotated them (a replay sends the CSRF token its first sending carried).
    var revealed = Set<String>()

    static let mainSession = "main"

    init(driver: MapDriver, testCase: VerifierCase, profile: Profile) throws {
        self.driver = driver
        self.testCase = testCase
        self.profile = profile
        forgeSeed = ForgeSeed(driver.seed)
        guard let forged = try BuiltinCatalogue.forge(testCase.id, family: testCase.family, parameters: profile.parameters, seed: forgeSeed),
              forged.steps.count == testCase.steps.count else {
            throw VerifierFailure.contract("\(testCase.id) is not a case of the \(testCase.family) family under seed \(driver.seed)")
        }
        self.forged = forged
    }

    /// A case whose fault lives only in inputs the map never sends for that step kind (the credential's JSON
    /// envelope, to a map that builds its own JSON from the other inputs) cannot be delivered: unsupported.
    func requireCarriersSent() throws {
        let rules = Dictionary(BuiltinCatalogue.rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for step in forged.steps {
            guard let rule = step.breaks, let carriers = rules[rule]?.carriedBy, !carriers.isEmpty else { continue }
            let sent = Set((driver.map.steps[step.kind]?.exchanges ?? []).flatMap(\.request.sources).compactMap { source -> InputKey? in
                if case .input(let key) = source { return key }
                return nil
            })
            if sent.isDisjoint(with: carriers) {
                throw VerifierFailure.unsupported("its fault is carried by \(carriers.map(\.rawValue).joined(separator: " or ")), which the \(driver.map.name) map never sends for \(step.kind)")
            }
        }
    }

    /// Cases the site cannot be asked: a session-binding case where the ceremony's state is a token the client
    /// holds (the token is the session), and evidence from the relying party's Android app at a site whose policy
    /// has no app origin.
    func requireApplicable() throws {
        for step in forged.steps where step.inputs[.challengeSession] != nil {
            let state = driver.map.steps[step.kind]?.exchanges.flatMap(\.captures).contains(where: \.sessionState) ?? false
            if state {
                throw VerifierFailure.unsupported("the \(driver.map.name) map keeps \(step.kind)'s ceremony in a state token the client holds: that token is the session, so which session answers does not apply")
            }
        }
        if forged.steps.contains(where: { $0.inputs[.allowCredentials] != nil }) {
            throw VerifierFailure.unsupported("its assertion options list the credentials to allow, and a deployed server writes its own options")
        }
        let appOrigins = (profile.parameters["origins"] ?? "").split(separator: ",").contains { $0.hasPrefix(WebAuthnFormat.androidOriginPrefix) }
        if !appOrigins {
            for step in forged.steps {
                guard let clientData = step.inputs[.clientDataJSON], let json = try? JSONValue.parse(Data(clientData), limit: 1 << 16),
                      let origin = json.at("/origin")?.stringValue, origin.hasPrefix(WebAuthnFormat.androidOriginPrefix) else { continue }
                throw VerifierFailure.unsupported("its client data comes from the relying party's Android app (origin \(origin.prefix(40))...), and the site's policy has no app origin")
            }
        }
    }

    /// Everything that decides, before a request is sent, whether the map can deliver the case at all: a route for
    /// every step kind, the fault's carriers sent, a case the site can be asked, no relying-party configuration of
    /// its own, and steps close enough in time for a server that keeps real time. Throws `unsupported` with why not.
    func requireDeliverable() throws {
        if let missing = forged.steps.first(where: { driver.map.steps[$0.kind] == nil }) {
            throw VerifierFailure.unsupported("it has a \(missing.kind) step, and the \(driver.map.name) map has no route for that step kind")
        }
        try requireCarriersSent()
        try requireApplicable()
        let configuration = BuiltinCatalogue.perCaseConfiguration(family: testCase.family, parameters: testCase.context.parameters,
                                                                   profile: profile.parameters)
        if !configuration.isEmpty {
            throw VerifierFailure.unsupported("the case configures the relying party itself (\(configuration.joined(separator: ", "))), and a deployed server is configured outside the harness")
        }
        let times = testCase.steps.map { $0.time ?? testCase.context.time }
        let gap = zip(times.dropFirst(), times).map { $0.timeIntervalSince($1) }.max() ?? 0
        if driver.map.clockHeader == nil, gap > MapDriver.realTimeThreshold, !driver.realTime {
            throw VerifierFailure.unsupported("two of its steps are \(Int(gap)) s apart and the \(driver.map.name) map's server keeps real time (no clock header); --real-time waits instead")
        }
    }

    mutating func verdicts() async throws -> [Verdict] {
        try requireDeliverable()
        let times = testCase.steps.map { $0.time ?? testCase.context.time }
        var verdicts: [Verdict] = []
        for index in testCase.steps.indices {
            if driver.map.clockHeader == nil, driver.realTime, index > 0 {
                let wait = times[index].timeIntervalSince(times[index - 1])
                if wait > 0 {
                    driver.observer?(.waiting("\(testCase.id): waiting \(Int(wait.rounded(.up))) s before step \(index) (real time)"))
                    try await driver.sleep(wait)
                }
            }
            verdicts.append(try await send(step: index))
        }
        return verdicts
    }

    // MARK: - Forging

    mutating func step(_ index: Int) throws -> Step {
        if stale {
            guard let again = try BuiltinCatalogue.forge(testCase.id, family: testCase.family, parameters: profile.parameters, seed: forgeSeed),
                  again.steps.count == testCase.steps.count else {
                throw VerifierFailure.contract("\(testCase.id) could not be forged again around the server's values")
            }
            forged = again
            stale = false
        }
        return forged.steps[index]
    }

    /// Records that `new` replaces `old` from now on, unless `old` is itself a replacement (a case that reuses a
    /// server's value on purpose keeps reusing it) or was replaced already.
    mutating func replace(_ old: [UInt8], with new: [UInt8]) {
        guard !old.isEmpty, substitutions[old] == nil, !targets.contains(old), old != new else { return }
        substitutions[old] = new
        targets.insert(new)
        forgeSeed.substitutions[old] = new
        if let oldText = String(validating: old, as: UTF8.self), let newText = String(validating: new, as: UTF8.self) {
            forgeSeed.textSubstitutions[oldText] = newText
        }
        stale = true
    }

    // MARK: - Sessions and accounts

    /// The simulated user `step` belongs to, as first forged (a user id the server replaced still names that user),
    /// when the map has accounts; else one user.
    func userKey(_ step: Step) throws -> [UInt8] {
        guard let per = driver.map.accounts?.per else { return [] }
        let value = try values(step, session: nil).value(per) ?? []
        return substitutions.first { $0.value == value }?.key ?? value
    }

    /// The key of session `name` of `step`'s simulated user.
    func sessionKey(_ name: String, step: Step) throws -> String {
        guard driver.map.accounts != nil else { return name }
        return Base64URL.encode(try userKey(step)) + "|" + name
    }

    /// Gives `step`'s simulated user an account (the next in the pool), or reports the case unsupported when the
    /// pool has too few.
    mutating func assignAccount(for step: Step) throws {
        guard let accountMap = driver.map.accounts else { return }
        let key = try userKey(step)
        guard accounts[key] == nil else { return }
        guard let pool = accountMap.pool else {
            accounts[key] = accounts.count
            return
        }
        if accounts.count >= pool.count {
            throw VerifierFailure.unsupported("it has \(accounts.count + 1) simulated users and the \(driver.map.name) map's account pool has \(pool.count)")
        }
        guard let number = driver.leases.acquire(below: pool.count) else {
            throw VerifierFailure.contract("every account of the \(driver.map.name) map's pool is held by another running case")
        }
        accounts[key] = number
    }

    /// Opens session `key` on first use: the run setup's values and cookies, the map's cookie seeds, then the
    /// map's session setup sent in it (with `step`'s values: its user's account and identities).
    mutating func openSession(_ key: String, step: Step) async throws {
        guard sessions[key] == nil else { return }
        let driver = self.driver
        sessions[key] = try await driver.runSetup.session {
            var run = try MapCaseRun(setupFor: driver)
            return try await run.sendRunSetup()
        }
        try seedCookies(key, step: step)
        for (position, exchange) in driver.map.setup.session.enumerated() {
            try makeIdentities(for: exchange.request, step: step)
            let (response, _) = try await exchangeOnce(exchange, at: "/setup/session/\(position)", step: step, session: key)
            try requireExpected(exchange, response, what: "session setup \(exchange.name)")
            try capture(exchange, from: response, step: step, session: key)
        }
    }

    /// A run with no case, for the run setup.
    init(setupFor driver: MapDriver) throws {
        self.driver = driver
        testCase = VerifierCase(id: "setup", family: driver.map.family, context: CaseContext(time: driver.now(), trustAnchors: [], parameters: [:]), steps: [])
        profile = Profile(name: "setup", description: "", families: [driver.map.family], rules: [], parameters: [:])
        forgeSeed = ForgeSeed(driver.seed)
        forged = Case(id: "setup", family: driver.map.family, rule: nil, description: "", importance: .low,
                      context: testCase.context, steps: [])
    }

    /// Writes the map's cookie seeds into session `key`'s jar, with `step`'s values; `sharedOnly`: only the seeds
    /// that read nothing of a simulated user (literals and `env.*`), for the run setup's session.
    mutating func seedCookies(_ key: String, step: Step, sharedOnly: Bool = false) throws {
        for (name, template) in driver.map.cookies.sorted(by: { $0.key < $1.key }) {
            if sharedOnly, template.sources.contains(where: { if case .environment = $0 { false } else { true } }) { continue }
            let rendered: String?
            do {
                rendered = try template.render(values(step, session: key), at: "/cookies/\(name)")?.text
            } catch let error as APIMapError {
                throw VerifierFailure.contract("the \(driver.map.name) map cannot write its cookie \(name): \(error)")
            }
            if let rendered { sessions[key]?.jar.set(name, rendered) }
        }
    }

    /// Sends the map's run setup in a session of its own, its jar seeded with the map's cookies, and returns that
    /// session.
    mutating func sendRunSetup() async throws -> MapSession {
        let key = "run"
        sessions[key] = MapSession()
        let step = Step(kind: StepKind("setup"), inputs: [:])
        try seedCookies(key, step: step, sharedOnly: true)
        for (position, exchange) in driver.map.setup.run.enumerated() {
            try makeIdentities(for: exchange.request, step: step)
            let (response, _) = try await exchangeOnce(exchange, at: "/setup/run/\(position)", step: step, session: key)
            try requireExpected(exchange, response, what: "run setup \(exchange.name)")
            try capture(exchange, from: response, step: step, session: key)
        }
        return sessions[key] ?? MapSession()
    }

    /// A 5xx is the server's crash; any other status the exchange does not expect stops the case (a login refused,
    /// a CSRF token missing), with what the response says.
    func requireExpected(_ exchange: Exchange, _ response: MapResponse, what: String) throws {
        guard !exchange.expect.allows(response.status) else { return }
        let shown = scrubbed(response)
        if (500..<600).contains(response.status) {
            throw VerifierFailure.crash("the server failed on \(what) (\(shown.summary))")
        }
        throw VerifierFailure.contract("the server refused \(what), expected \(exchange.expect) (\(shown.summary))")
    }

    // MARK: - Sending

    /// Renders `exchange` with `step`'s values in session `key` and sends it with the session's one Cookie header
    /// (its jar, with any cookies the request writes itself), the clock header and the map's headers; takes the
    /// cookies the response sets. Returns the response and the request as sent.
    mutating func exchangeOnce(_ exchange: Exchange, at pointer: String, step: Step, session key: String) async throws -> (MapResponse, RenderedRequest) {
        var request: RenderedRequest
        do {
            request = try exchange.request.render(values(step, session: key), common: driver.map.headers, stepHeaders: stepHeaders(step),
                                                  at: pointer + "/request")
        } catch let error as APIMapError {
            throw VerifierFailure.contract("the \(driver.map.name) map cannot write \(exchange.name)\(step.kind.rawValue == "setup" ? "" : " for \(step.kind)"): \(error)")
        }
        if let clock = driver.map.clockHeader {
            // The value type's ISO 8601 style, the same text as ISO8601DateFormatter's default, without making a
            // formatter per request.
            request.headers.append((clock, (step.time ?? testCase.context.time).formatted(.iso8601)))
        }
        // One Cookie header: cookies the request writes itself join the session's jar.
        var jar = sessions[key]?.jar ?? CookieJar()
        for header in request.headers where header.name.caseInsensitiveCompare("Cookie") == .orderedSame { jar.merge(header: header.value) }
        request.headers.removeAll { $0.name.caseInsensitiveCompare("Cookie") == .orderedSame }
        sessions[key, default: MapSession()].jar = jar
        if let cookies = jar.header(at: driver.now()) { request.headers.append(("Cookie", cookies)) }
        rememberSecrets()
        let response = try await transmit(request)
        // Cookies the server sets are kept when the map keeps sessions in cookies.
        if driver.map.cookieSessions { sessions[key, default: MapSession()].jar.take(response, at: driver.now()) }
        return (response, request)
    }

    /// Sends `request` as it is, told to the observer with secrets redacted.
    func transmit(_ request: RenderedRequest) async throws -> MapResponse {
        driver.observer?(.request(redacted(request.curl(baseURL: URL(string: driver.transport.name) ?? URL(fileURLWithPath: "/"),
                                                        secretHeaders: driver.map.secretHeaders.union(["cookie"])))))
        return try await driver.transport.send(request)
    }

    /// The response to exchange `position` of the case's first `kind` step, the step's earlier exchanges (and the
    /// map's setup) sent before it as in a run: what a site's options are read from.
    mutating func response(of kind: StepKind, exchange position: Int) async throws -> MapResponse {
        guard let index = testCase.steps.firstIndex(where: { $0.kind == kind }), let stepMap = driver.map.steps[kind],
              stepMap.exchanges.indices.contains(position) else {
            throw VerifierFailure.contract("the \(driver.map.name) map has no exchange \(position) of \(kind) in \(testCase.id)")
        }
        var current = try step(index)
        try assignAccount(for: current)
        for (offset, exchange) in stepMap.exchanges.enumerated() where offset <= position {
            let name = try exchange.session.flatMap { try $0.render(values(current, session: nil), at: "/steps/\(kind)/exchanges/\(offset)/session")?.text }
                ?? Self.mainSession
            let key = try sessionKey(name, step: current)
            try await openSession(key, step: current)
            try makeIdentities(for: exchange.request, step: current)
            let (response, _) = try await exchangeOnce(exchange, at: "/steps/\(kind)/exchanges/\(offset)", step: current, session: key)
            try requireExpected(exchange, response, what: "\(exchange.name) of \(kind)")
            if offset == position { return response }
            try capture(exchange, from: response, step: current, session: key)
            current = try step(index)
        }
        throw VerifierFailure.contract("the \(driver.map.name) map has no exchange \(position) of \(kind)")
    }

    mutating func send(step index: Int) async throws -> Verdict {
        var current = try step(index)
        guard let stepMap = driver.map.steps[current.kind] else {
            throw VerifierFailure.contract("the \(driver.map.name) map has no entry for step kind \(current.kind)")
        }
        let verdictMap = driver.map.verdict(for: current.kind)
        if let repetition = current.repeats, repetition.kind == .replay {
            // The earlier step's completing request, byte for byte: same body, same cookies, same state token.
            guard let recorded = completing[repetition.step] else {
                throw VerifierFailure.contract("step \(index) replays step \(repetition.step), which sent no completing request")
            }
            let response = try await transmit(recorded)
            return verdictMap.verdict(scrubbed(response))
        }
        for fresh in driver.map.fresh + stepMap.fresh {
            let value: [UInt8]?
            switch fresh.value {
            case .input(let key): value = current.inputs[key]
            case .derived(let derived): value = derived.value(in: current.inputs)
            default: value = nil
            }
            guard let value, !value.isEmpty else { continue }
            switch fresh.kind {
            case .random: replace(value, with: secureRandomBytes(value.count))
            case .uuid: replace(value, with: Array(UUID().uuidString.lowercased().utf8))
            }
        }
        current = try step(index)
        try assignAccount(for: current)
        let pointer = "/steps/\(current.kind.rawValue)/exchanges"
        // An answer to an earlier step's ceremony asks for no new one: it goes straight to the completing exchange,
        // with what that step's preparing exchanges stored (a state token) back in the session.
        let answering = current.repeats.flatMap { $0.kind == .answer ? $0.step : nil }
        var storedHere: [String: [UInt8]] = [:]
        var optionsUser: [UInt8]?
        for (position, exchange) in stepMap.exchanges.enumerated() {
            let last = position == stepMap.exchanges.count - 1
            if answering != nil, !last { continue }
            let name = try exchange.session.flatMap { try $0.render(values(current, session: nil), at: "\(pointer)/\(position)/session")?.text }
                ?? Self.mainSession
            let key = try sessionKey(name, step: current)
            try await openSession(key, step: current)
            if last, let answering {
                for (stored, value) in prepared[answering] ?? [:] { sessions[key]?.store[stored] = value }
            }
            try makeIdentities(for: exchange.request, step: current)
            let (response, sent) = try await exchangeOnce(exchange, at: "\(pointer)/\(position)", step: current, session: key)
            // What a report may show of the response: secrets the server echoed are gone before anything is cut.
            let shown = scrubbed(response)
            if !last {
                try requireExpected(exchange, response, what: "\(exchange.name) of \(current.kind)")
                if let at = exchange.optionsPointer, let options = response.json?.at(at), options.objectValue != nil {
                    let userId = options.at("/user/id")?.stringValue.flatMap(Base64URL.decode)
                    if current.kind == StepKind.webAuthnRegistration, let userId { optionsUser = userId }
                    driver.optionsLog.record(OptionsObservation(
                        caseId: testCase.id, session: "\(testCase.id) \(key)", step: index, kind: current.kind, exchange: exchange.name, options: options, requestBody: sent.body,
                        registered: userId.flatMap { registered[$0] } ?? []))
                }
                let before = sessions[key]?.store ?? [:]
                try capture(exchange, from: response, step: current, session: key)
                for (stored, value) in sessions[key]?.store ?? [:] where before[stored] != value { storedHere[stored] = value }
                current = try step(index)
                continue
            }
            prepared[index] = storedHere
            completing[index] = sent
            let verdict = verdictMap.verdict(shown)
            if verdict.outcome == .accept { try capture(exchange, from: response, step: current, session: key, required: false) }
            if verdict.outcome == .accept, let optionsUser,
               let credential = current.inputs[.credentialId] ?? DerivedValue.attestedCredentialId.value(in: current.inputs) {
                registered[optionsUser, default: []].append(credential)
            }
            return verdict
        }
        throw VerifierFailure.contract("the \(driver.map.name) map has no exchange for \(current.kind)")
    }

    mutating func capture(_ exchange: Exchange, from response: MapResponse, step: Step, session: String, required: Bool = true) throws {
        for capture in exchange.captures {
            var value = capture.value(in: response)
            if value == nil, case .cookie(let name) = capture.from, let kept = sessions[session]?.jar.value(name, at: driver.now()) {
                value = .string(kept)
            }
            guard let value, let bytes = capture.decode.read(value) else {
                if capture.optional || !required { continue }
                throw VerifierFailure.contract("\(exchange.name)\(step.kind.rawValue == "setup" ? "" : " of \(step.kind)"): the response has no \(capture.decode.rawValue) value at \(capture.from)\(capture.regex == nil ? "" : " matching its regex") (\(scrubbed(response).summary))")
            }
            switch capture.target {
            case .replaces(let key): if let forged = step.inputs[key] { replace(forged, with: bytes) }
            case .store(let name): sessions[session, default: MapSession()].store[name] = bytes
            }
        }
    }

    /// The texts of 8 characters or more that the sessions hold now: their cookies and what captures stored (a
    /// CSRF token, a session or state token).
    var sessionSecrets: [String] {
        sessions.values.flatMap { session in
            session.jar.values + session.store.values.compactMap { String(validating: $0, as: UTF8.self) }
        }.filter { $0.count >= 8 }
    }

    /// Adds what the sessions hold now to `revealed`.
    mutating func rememberSecrets() {
        revealed.formUnion(sessionSecrets)
    }

    /// Values a report must never show: the environment values the map reads (each word too, as a server may
    /// echo only the credential of "Bearer ..."), every session cookie, and what captures stored (a CSRF token, a
    /// session token), now or when an earlier request of the case went out, as written and JSON-escaped.
    var secrets: [String] {
        var values: [String] = []
        for name in driver.map.environmentNames.sorted() {
            guard let value = driver.environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { continue }
            values.append(value)
            values += value.split(separator: " ").map(String.init).filter { $0.count >= 8 }
        }
        values += sessionSecrets + revealed
        let escaped = values.flatMap(Self.jsonEscapedForms)
        let encoded = values.compactMap { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) }.filter { !values.contains($0) }
        return Array(Set(values + escaped + encoded)).sorted { $0.count > $1.count }
    }

    /// `value` as a JSON string's contents may spell it when a server echoes it: quotes, backslashes and control
    /// characters escaped, `/` as itself or `\/`, text past ASCII as itself or as `\uXXXX` (Python's `json.dumps`
    /// default).
    static func jsonEscapedForms(_ value: String) -> [String] {
        func escaped(slash: Bool, ascii: Bool) -> String {
            var out = ""
            func unit(_ code: UInt16) {
                let hex = String(code, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
            for scalar in value.unicodeScalars {
                switch scalar.value {
                case 0x22: out += "\\\""
                case 0x5c: out += "\\\\"
                case 0x2f: out += slash ? "\\/" : "/"
                case 0x0a: out += "\\n"
                case 0x0d: out += "\\r"
                case 0x09: out += "\\t"
                case 0x00..<0x20: unit(UInt16(scalar.value))
                case 0x80...: if ascii { String(scalar).utf16.forEach(unit) } else { out.unicodeScalars.append(scalar) }
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        let forms = [false, true].flatMap { slash in [false, true].map { ascii in escaped(slash: slash, ascii: ascii) } }
        return Array(Set(forms.filter { $0 != value }))
    }

    /// `response` with every secret replaced by `[redacted]`, for verdicts and errors.
    func scrubbed(_ response: MapResponse) -> MapResponse {
        let secrets = self.secrets
        guard !secrets.isEmpty else { return response }
        var text = String(decoding: response.body, as: UTF8.self)
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "[redacted]") }
        return MapResponse(status: response.status, headers: response.headers, body: Array(text.utf8))
    }

    /// `text` (a request shown as curl) with every secret replaced by `<redacted>`: a password in a login form.
    func redacted(_ text: String) -> String {
        var text = text
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "<redacted>") }
        return text
    }

    /// The step's `header.*` inputs, replacements applied.
    func stepHeaders(_ step: Step) -> [(String, [UInt8])] {
        step.inputs.compactMap { key, value in key.headerName.map { ($0, substitutions[value] ?? value) } }.sorted { $0.0 < $1.0 }
    }

    mutating func makeIdentities(for request: RequestMap, step: Step) throws {
        for case .identity(let name) in request.sources {
            guard let identity = driver.map.identities[name] else { continue }
            let key = try identityKey(identity, step: step)
            if identities[name]?[key] == nil {
                identities[name, default: [:]][key] = identity.prefix + UUID().uuidString.lowercased()
            }
        }
    }

    /// The value an identity is kept per, as first forged (a user id the server replaced still names the same user).
    func identityKey(_ identity: IdentityMap, step: Step) throws -> [UInt8] {
        guard let per = identity.per else { return [] }
        let value = try values(step, session: nil).value(per) ?? []
        return substitutions.first { $0.value == value }?.key ?? value
    }

    /// The values templates read for `step` in session `key` (nil: no session's stored values).
    func values(_ step: Step, session key: String?) -> MapCaseValues {
        MapCaseValues(step: step, parameters: testCase.context.parameters, substitutions: substitutions, identities: identities,
                      session: key.flatMap { sessions[$0] } ?? MapSession(), environment: driver.environment, run: self)
    }
}

/// One simulated client session: its cookie jar and the values captures stored in it.
struct MapSession: Sendable {
    var jar = CookieJar()
    var store: [String: [UInt8]] = [:]
}

/// The values templates read for one step of a case.
struct MapCaseValues: TemplateValues {
    let step: Step
    let parameters: [String: String]
    let substitutions: [[UInt8]: [UInt8]]
    let identities: [String: [[UInt8]: String]]
    let session: MapSession
    let environment: [String: String]
    let run: MapCaseRun

    func value(_ source: ValueSource) throws -> [UInt8]? {
        switch source {
        case .input(let key): return step.inputs[key].map { substitutions[$0] ?? $0 }
        case .parameter(let name): return parameters[name].map { Array($0.utf8) }
        case .identity(let name):
            guard let identity = run.driver.map.identities[name] else { return nil }
            return identities[name]?[try run.identityKey(identity, step: step)].map { Array($0.utf8) }
        case .session(let name): return session.store[name]
        case .derived(let derived): return derived.value(in: step.inputs).map { substitutions[$0] ?? $0 }
        case .environment(let name): return environment[name].map { Array($0.utf8) }
        case .account(let field):
            guard let pool = run.driver.map.accounts?.pool, let number = run.accounts[try run.userKey(step)],
                  pool.indices.contains(number), let template = pool[number][field] else { return nil }
            return try template.render(self, at: "/accounts/pool/\(number)/\(field)")?.text.map { Array($0.utf8) }
        }
    }
}

extension MapDriver {
    /// Checks the map's sources against the cases a run judges, before any of them runs: every `input.KEY` an
    /// exchange, a capture or an identity of a step kind reads is an input some case gives that kind, and every
    /// `parameter.NAME` a parameter some case's context has. A typo is one error naming its pointer, never a
    /// request that fails case by case or an optional value that is silently never sent.
    public static func validate(_ map: APIMap, against cases: [Case]) throws {
        var inputs: [StepKind: Set<InputKey>] = [:]
        var parameters = Set<String>()
        for testCase in cases where testCase.family == map.family {
            parameters.formUnion(testCase.context.parameters.keys)
            for step in testCase.steps { inputs[step.kind, default: []].formUnion(step.inputs.keys) }
        }
        guard !inputs.isEmpty else { return }
        func check(_ source: ValueSource?, kind: StepKind, at pointer: String) throws {
            switch source {
            case .input(let key)?:
                guard inputs[kind]?.contains(key) == true else {
                    throw APIMapError(pointer, "\(kind) has no input \(key); its inputs: " + (inputs[kind] ?? []).sorted().map(\.rawValue).joined(separator: ", "))
                }
            case .parameter(let name)?:
                guard parameters.contains(name) else {
                    throw APIMapError(pointer, "no parameter \(name) in the profile's cases; they have: " + parameters.sorted().joined(separator: ", "))
                }
            default: break
            }
        }
        for (name, identity) in map.identities.sorted(by: { $0.key < $1.key }) {
            for kind in map.steps.keys.sorted() { try check(identity.per, kind: kind, at: "/identities/\(name)/per") }
        }
        for (kind, step) in map.steps.sorted(by: { $0.key < $1.key }) {
            for (index, exchange) in step.exchanges.enumerated() {
                let pointer = "/steps/\(kind.rawValue)/exchanges/\(index)"
                for source in exchange.request.sources + map.headers.values.flatMap(\.sources) { try check(source, kind: kind, at: pointer) }
                for (position, capture) in exchange.captures.enumerated() {
                    if case .replaces(let key) = capture.target { try check(.input(key), kind: kind, at: "\(pointer)/capture/\(position)/replaces") }
                    try check(capture.per, kind: kind, at: "\(pointer)/capture/\(position)/per")
                }
            }
            for (index, fresh) in step.fresh.enumerated() { try check(fresh.value, kind: kind, at: "/steps/\(kind.rawValue)/fresh/\(index)/value") }
        }
    }

    /// Checks a map against the catalogue: its family exists, and its step kinds and rule ids are the family's.
    public static func validate(_ map: APIMap) throws {
        var stepKinds: [StepKind: String]?
        for family in BuiltinCatalogue.families where family.name == map.family { stepKinds = family.stepKinds }
        guard let stepKinds else {
            throw APIMapError("/family", "unknown family \"\(map.family)\"; known: " + BuiltinCatalogue.families.map { $0.name.rawValue }.joined(separator: ", "))
        }
        for kind in map.steps.keys.sorted() where stepKinds[kind] == nil {
            throw APIMapError("/steps/\(kind.rawValue)", "the \(map.family) family has no step kind \(kind); its kinds: "
                              + stepKinds.keys.sorted().map(\.rawValue).joined(separator: ", "))
        }
        let rules = Set(BuiltinCatalogue.rules.map(\.id))
        var verdicts: [(String, VerdictMap)] = [("", map.verdict)]
        for (kind, step) in map.steps { if let verdict = step.verdict { verdicts.append(("/steps/\(kind.rawValue)", verdict)) } }
        for (pointer, verdict) in verdicts {
            for (code, rule) in verdict.rules.sorted(by: { $0.key < $1.key }) where !rules.contains(rule) {
                throw APIMapError("\(pointer)/verdict/rules/\(code)", "no rule \(rule) in the catalogue")
            }
            for (index, pattern) in verdict.rulePatterns.enumerated() where !rules.contains(pattern.rule) {
                throw APIMapError("\(pointer)/verdict/rulePatterns/\(index)/rule", "no rule \(pattern.rule) in the catalogue")
            }
        }
    }
}
