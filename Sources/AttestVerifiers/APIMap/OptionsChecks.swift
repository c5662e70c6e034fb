import AttestAPIMap
import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// What a relying party's options must be, judged on every options response a map run sees (the exchanges whose
/// `options` say where the options sit). The server writes its options, so no forged case can test them: these are
/// the FIDO conformance tool's options checks, made on the live API while the catalogue's cases run. Each check is a
/// rule with its level and clause, and a run reports one result per check: a pass backed by what the run observed
/// (`CaseResult.Proof.observed`, with how many responses), a finding naming the case and exchange whose options
/// broke it, or unsupported, saying why, when the run saw nothing the check can judge.
public enum OptionsCheck: String, CaseIterable, Sendable {
    case challengeLength
    case challengeFresh
    case userIdLength
    case excludeCredentials
    case attestationEcho

    public var rule: RuleID { RuleID("webauthn.options.\(rawValue)") }

    /// The result's case id: the rule and `observed`, as a catalogue case id is its rule and variant.
    public var caseId: String { rule.rawValue + ".observed" }

    static let fido = "FIDO Alliance, FIDO2 Server Conformance Test Tool (checks named in docs/coverage.md)"

    public var documentation: Rule {
        switch self {
        case .challengeLength:
            return Rule(rule, "Every options response's challenge is at least 16 bytes.", level: .should,
                        quote: "In order to prevent replay attacks, the challenges MUST contain enough entropy to make guessing them infeasible. Challenges SHOULD therefore be at least 16 bytes long.",
                        source: "WebAuthn L3 §13.4.3 (#sctn-cryptographic-challenges); \(Self.fido): ServerPublicKeyCredentialCreationOptions-Req-1 P-1, ServerPublicKeyCredentialGetOptionsResponse-Req-1 P-1",
                        bugClass: .replay)
        case .challengeFresh:
            return Rule(rule, "No two options responses of a run carry the same challenge.", level: .must,
                        quote: "In order to prevent replay attacks, the challenges MUST contain enough entropy to make guessing them infeasible.",
                        source: "WebAuthn L3 §13.4.3 (#sctn-cryptographic-challenges): a challenge a server issues twice is one an attacker can predict; \(Self.fido): ServerPublicKeyCredentialCreationOptions-Req-1 P-3, ServerPublicKeyCredentialGetOptionsResponse-Req-1 P-2",
                        bugClass: .replay)
        case .userIdLength:
            return Rule(rule, "A registration's options give a user.id of 1 to 64 bytes.", level: .must,
                        quote: "A user handle is an opaque byte sequence with a maximum size of 64 bytes, and is not meant to be displayed to the user. / If the length of pkOptions.user.id is not between 1 and 64 bytes (inclusive) then throw a TypeError.",
                        source: "WebAuthn L3 §5.4.3 (user.id) and §5.1.3 step 5 (the client refuses such options, so no registration can complete); \(Self.fido): ServerPublicKeyCredentialCreationOptions-Req-1 P-1",
                        bugClass: .binding)
        case .excludeCredentials:
            return Rule(rule, "A registration's options for a user who already holds credentials list them in excludeCredentials.",
                        level: .should,
                        quote: "The Relying Party SHOULD use this OPTIONAL member to list any existing credentials mapped to this user account (as identified by user.id). This ensures that the new credential is not created on an authenticator that already contains a credential mapped to this user account.",
                        source: "WebAuthn L3 §5.4 (excludeCredentials); \(Self.fido): ServerAuthenticatorAttestationResponse-Resp-1 P-1. Judged only where the run registered a credential for the user earlier in the same case",
                        bugClass: .policy)
        case .attestationEcho:
            return Rule(rule, "A registration's options state the attestation preference the options request asked for (absent reads as \"none\").",
                        level: .policy,
                        quote: "(none in WebAuthn - the attestation preference is the relying party's own choice (§5.4.7); the FIDO conformance API's options request carries the preference, and its tool expects the options to echo it)",
                        source: "\(Self.fido): ServerPublicKeyCredentialCreationOptions-Req-1 P-2. Judged only where the options request sent an attestation member",
                        bugClass: .policy)
        }
    }

    public static var rules: [Rule] { allCases.map(\.documentation) }

    /// The results of every check over `observations`, in `allCases` order (judged in case and step order, so
    /// that cases run side by side name the same response).
    public static func results(_ observations: [OptionsObservation]) -> [CaseResult] {
        let ordered = observations.sorted { ($0.caseId, $0.step) < ($1.caseId, $1.step) }
        return allCases.map { $0.result(ordered) }
    }

    func result(_ observations: [OptionsObservation]) -> CaseResult {
        let registrations = observations.filter { $0.kind == StepKind.webAuthnRegistration }
        var judged = 0
        var failure: String?
        func judge(_ observation: OptionsObservation, _ holds: Bool, _ what: @autoclosure () -> String) {
            judged += 1
            if !holds, failure == nil { failure = "\(observation.place): \(what())" }
        }
        let unjudged: String
        switch self {
        case .challengeLength:
            for observation in observations {
                guard let length = observation.challengeLength else { continue }
                judge(observation, length >= 16, "the challenge is \(length) bytes")
            }
            unjudged = "no options response had a base64url challenge"
        case .challengeFresh:
            var first: [[UInt8]: OptionsObservation] = [:]
            for observation in observations {
                guard let challenge = observation.challengeDigest else { continue }
                if let earlier = first[challenge] {
                    judge(observation, false, "the challenge (SHA-256 \(hex(Array(challenge.prefix(8))))…) was issued before, by \(earlier.place)")
                } else {
                    if !first.isEmpty { judged += 1 }
                    first[challenge] = observation
                }
            }
            unjudged = "fewer than two options responses had a base64url challenge"
        case .userIdLength:
            for observation in registrations {
                guard let length = observation.userIdLength else { continue }
                judge(observation, (1...64).contains(length), "user.id is \(length) bytes")
            }
            unjudged = "no registration options had a base64url user.id"
        case .excludeCredentials:
            for observation in registrations where !observation.registered.isEmpty {
                let missing = observation.unlisted
                judge(observation, missing.isEmpty,
                      "excludeCredentials \(observation.excludedCount.map { "lists \($0)" } ?? "is absent"), leaving out \(missing.count) credential\(missing.count == 1 ? "" : "s") the user registered earlier in the case (\(missing.map(Base64URL.encode).joined(separator: ", ")))")
            }
            unjudged = "no case registered a second credential for a user, so no options could list an earlier one"
        case .attestationEcho:
            for observation in registrations {
                guard let requested = observation.requestedAttestation else { continue }
                let stated = observation.attestation ?? "none"
                judge(observation, stated == requested, "the request asked for attestation \"\(requested)\" and the options say \"\(stated)\"")
            }
            unjudged = "no registration options request sent an attestation member"
        }
        let status: CaseResult.Status = failure != nil ? .finding : judged == 0 ? .unsupported : .pass
        var result = CaseResult(caseId: caseId, rule: rule, importance: .medium, status: status, step: nil, expected: nil, actual: nil,
                                message: failure ?? (judged == 0 ? "\(unjudged) (an exchange's \"options\" says where a response holds them)"
                                    : "\(judged) options response\(judged == 1 ? "" : "s") judged, every one meets it"))
        result.family = .webAuthn
        result.optionsCheck = true
        result.description = documentation.statement
        if status == .pass { result.proof = .observed }
        return result
    }
}

/// What one options response said, as the checks need it (the bytes decoded, bounded: nothing else is kept).
public struct OptionsObservation: Sendable {
    public var caseId: String
    public var step: Int
    public var kind: StepKind
    public var exchange: String
    /// The challenge's length and SHA-256 (what freshness compares), decoded from base64url; nil when absent or not
    /// base64url. Only digests and lengths are kept, so that a run's log stays small whatever a server sends.
    public var challengeLength: Int?
    public var challengeDigest: [UInt8]?
    /// user.id's length, decoded from base64url (registration options).
    public var userIdLength: Int?
    /// The attestation member, when present.
    public var attestation: String?
    /// The attestation member of the options request's JSON body, when it has one.
    public var requestedAttestation: String?
    /// How many entries excludeCredentials has (nil when the member is absent).
    public var excludedCount: Int?
    /// The credentials the run registered for this ceremony's user earlier in the case (at most `listLimit`), and
    /// those of them excludeCredentials does not list (read from the whole list, kept as the ids).
    public var registered: [[UInt8]]
    public var unlisted: [[UInt8]]

    /// Most credentials of a user kept per observation, and the longest value read (a credential id is at most
    /// 1023 bytes, WebAuthn L3 §5.1.3).
    static let listLimit = 16, byteLimit = 1024

    var place: String { "\(caseId) step \(step) (\(exchange))" }

    /// Reads `options` (the JSON at the exchange's `options` pointer) and the body of the request that asked for them.
    public init(caseId: String, step: Int, kind: StepKind, exchange: String, options: JSONValue, requestBody: [UInt8],
                registered: [[UInt8]]) {
        func bytes(_ pointer: String) -> [UInt8]? {
            guard let text = options.at(pointer)?.stringValue, text.utf8.count <= 4 * Self.byteLimit else { return nil }
            return Base64URL.decode(text)
        }
        self.caseId = caseId
        self.step = step
        self.kind = kind
        self.exchange = exchange
        let challenge = bytes("/challenge")
        challengeLength = challenge?.count
        challengeDigest = challenge.map(sha256)
        userIdLength = bytes("/user/id")?.count
        attestation = options.at("/attestation")?.stringValue.map { String($0.prefix(64)) }
        let body = requestBody.count <= 1 << 16 ? (try? JSONValue.parse(Data(requestBody), limit: 1 << 16)) : nil
        requestedAttestation = body?.at("/attestation")?.stringValue.map { String($0.prefix(64)) }
        let list = options.at("/excludeCredentials")?.arrayValue
        excludedCount = list?.count
        self.registered = Array(registered.prefix(Self.listLimit))
        // The response is bounded (1 MiB), so is the list read here; only what the check needs is kept.
        let listed = Set((list ?? []).compactMap { item in
            item.at("/id")?.stringValue.flatMap { $0.utf8.count <= 4 * Self.byteLimit ? Base64URL.decode($0) : nil }
        })
        unlisted = self.registered.filter { !listed.contains($0) }
    }
}

/// The observations of one driver's runs, shared by its cases (which may run side by side).
public final class OptionsLog: @unchecked Sendable {
    private let lock = NSLock()
    private var observations: [OptionsObservation] = []
    /// Most observations kept (each a few hundred bytes): a run of every catalogue case sees well under this many
    /// options responses.
    static let limit = 20_000

    public init() {}

    func record(_ observation: OptionsObservation) {
        lock.withLock { if observations.count < Self.limit { observations.append(observation) } }
    }

    /// Everything recorded, in the order cases were judged.
    public var all: [OptionsObservation] { lock.withLock { observations } }

    /// `OptionsCheck.results` over everything recorded.
    public var results: [CaseResult] { OptionsCheck.results(all) }
}
