import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestForge
import Foundation

/// Any server, black-box, from its API map (`run --verifier URL --api FILE`): each case's steps are sent as the
/// map's exchanges, through the live ceremony. Values the server issues (a challenge, a challenge id, a user id)
/// replace the forged ones and the case is forged again around them, once per new server value, never per step;
/// values the map declares fresh (user names, credential ids) are replaced before first use, since a deployed
/// server keeps every earlier case's users. Each simulated session has its own cookie jar. Requests carry the
/// step's time in the map's clock header. Against a server on real time (no clock header), a case whose steps are
/// more than `realTimeThreshold` apart (a lifetime case: a challenge used after it expired) is `unsupported`, with
/// the reason, unless `realTime` waits out the time between its steps; closer steps are sent at once, which keeps
/// within every lifetime. Cases run one at a time: they share what the server stores.
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
    public var requiresSerialCases: Bool { true }

    public func verdicts(for testCase: VerifierCase, profile: Profile) async throws -> [Verdict] {
        guard testCase.family == map.family else {
            throw VerifierFailure.contract("the \(map.name) map drives the \(map.family) family; \(testCase.id) is a \(testCase.family) case")
        }
        var run = try MapCaseRun(driver: self, testCase: testCase, profile: profile)
        return try await run.verdicts()
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
    var sessions: [String: MapSession] = [:]

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

    mutating func verdicts() async throws -> [Verdict] {
        try requireCarriersSent()
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

    // MARK: - Sending a step

    mutating func send(step index: Int) async throws -> Verdict {
        var current = try step(index)
        guard let stepMap = driver.map.steps[current.kind] else {
            throw VerifierFailure.contract("the \(driver.map.name) map has no entry for step kind \(current.kind)")
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
        let pointer = "/steps/\(current.kind.rawValue)/exchanges"
        for (position, exchange) in stepMap.exchanges.enumerated() {
            let last = position == stepMap.exchanges.count - 1
            let mainValues = values(current, session: Self.mainSession)
            let sessionName = try exchange.session.flatMap { try $0.render(mainValues, at: "\(pointer)/\(position)/session")?.text }
                ?? Self.mainSession
            try makeIdentities(for: exchange.request, step: current)
            let stepValues = values(current, session: sessionName)
            var request: RenderedRequest
            do {
                request = try exchange.request.render(stepValues, common: driver.map.headers, stepHeaders: stepHeaders(current),
                                                      at: "\(pointer)/\(position)/request")
            } catch let error as APIMapError {
                throw VerifierFailure.contract("the \(driver.map.name) map cannot write \(exchange.name) for \(current.kind): \(error)")
            }
            if let clock = driver.map.clockHeader {
                request.headers.append((clock, ISO8601DateFormatter().string(from: current.time ?? testCase.context.time)))
            }
            if let cookies = sessions[sessionName]?.cookieHeader { request.headers.append(("Cookie", cookies)) }
            driver.observer?(.request(request.curl(baseURL: URL(string: driver.transport.name) ?? URL(fileURLWithPath: "/"),
                                                   secretHeaders: driver.map.secretHeaders.union(["cookie"]))))
            let response = try await driver.transport.send(request)
            if driver.map.cookieSessions { sessions[sessionName, default: MapSession()].takeCookies(from: response) }
            let verdictMap = driver.map.verdict(for: current.kind)
            // What a report may show of the response: secrets the server echoed are gone before anything is cut.
            let shown = scrubbed(response)
            if !last {
                // A preparing exchange succeeds with any 2xx (the verdict reads only a step's last response).
                if (500..<600).contains(response.status) {
                    throw VerifierFailure.crash("the server failed on \(exchange.name) of \(current.kind) (HTTP \(response.status): \(String(decoding: shown.body.prefix(200), as: UTF8.self)))")
                }
                guard (200..<300).contains(response.status) else {
                    throw VerifierFailure.contract("the server refused \(exchange.name) of \(current.kind) (HTTP \(response.status): \(String(decoding: shown.body.prefix(200), as: UTF8.self)))")
                }
                try capture(exchange, from: response, step: current, session: sessionName, required: true)
                current = try step(index)
                continue
            }
            let verdict = verdictMap.verdict(shown)
            if verdict.outcome == .accept { try capture(exchange, from: response, step: current, session: sessionName, required: false) }
            return verdict
        }
        throw VerifierFailure.contract("the \(driver.map.name) map has no exchange for \(current.kind)")
    }

    mutating func capture(_ exchange: Exchange, from response: MapResponse, step: Step, session: String, required: Bool) throws {
        for capture in exchange.captures {
            guard let value = capture.from.read(response), let bytes = capture.decode.read(value) else {
                if capture.optional { continue }
                throw VerifierFailure.contract("\(exchange.name) of \(step.kind): the response has no \(capture.decode.rawValue) value at \(capture.from)")
            }
            switch capture.target {
            case .replaces(let key): if let forged = step.inputs[key] { replace(forged, with: bytes) }
            case .store(let name): sessions[session, default: MapSession()].store[name] = bytes
            }
        }
    }

    /// Values a report must never show: the environment values the map's headers send (each word too, as a
    /// server may echo only the credential of "Bearer ...") and every session cookie, as written and JSON-escaped.
    var secrets: [String] {
        var values: [String] = []
        for name in driver.map.environmentNames.sorted() {
            guard let value = driver.environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { continue }
            values.append(value)
            values += value.split(separator: " ").map(String.init).filter { $0.count >= 8 }
        }
        for session in sessions.values { values += session.cookies.values.filter { $0.count >= 8 } }
        let escaped = values.map { $0.replacingOccurrences(of: "/", with: "\\/") }
        return Array(Set(values + escaped)).sorted { $0.count > $1.count }
    }

    /// `response` with every secret replaced by `[redacted]`, for verdicts and errors.
    func scrubbed(_ response: MapResponse) -> MapResponse {
        let secrets = self.secrets
        guard !secrets.isEmpty else { return response }
        var text = String(decoding: response.body, as: UTF8.self)
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "[redacted]") }
        return MapResponse(status: response.status, headers: response.headers, body: Array(text.utf8))
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
        let value = try values(step, session: Self.mainSession).value(per) ?? []
        return substitutions.first { $0.value == value }?.key ?? value
    }

    func values(_ step: Step, session: String) -> MapCaseValues {
        MapCaseValues(step: step, parameters: testCase.context.parameters, substitutions: substitutions, identities: identities,
                      session: sessions[session] ?? MapSession(), environment: driver.environment, run: self)
    }
}

/// One simulated client session: its cookies and the values captures stored in it.
struct MapSession {
    var cookies: [String: String] = [:]
    var store: [String: [UInt8]] = [:]

    var cookieHeader: String? {
        cookies.isEmpty ? nil : cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// Keeps each `Set-Cookie` name and value (attributes are not interpreted: one host, one test run).
    mutating func takeCookies(from response: MapResponse) {
        for (name, value) in response.headers where name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
            let pair = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let cookie = pair[..<equals].trimmingCharacters(in: .whitespaces)
            guard !cookie.isEmpty, cookies.count < 64 || cookies[cookie] != nil else { continue }
            cookies[cookie] = String(pair[pair.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
    }
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
