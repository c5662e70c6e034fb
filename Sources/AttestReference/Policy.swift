import AttestConformance
import AttestCrypto
import AttestEvidence
import Foundation

/// A rule the evidence broke, thrown by a check and turned into a rejecting verdict that names it.
struct RuleViolation: Error {
    let rule: RuleID
    let reason: String
    /// The API's answer to it, for families whose API documents one.
    var status: String? = nil
}

/// Evidence a check cannot read (an unknown platform, a key that is not a SubjectPublicKeyInfo): refused under the
/// step's structure rule (`ReferenceSession.unreadable`), never a harness error.
struct UnreadableEvidence: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A problem with the suite itself (a missing input, an unknown step kind): a harness error, never a verdict.
package struct HarnessError: Error, Hashable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// What one case's checks need: the profile's rules, the case's parameters, anchors and time.
struct Policy {
    let rules: Set<RuleID>
    private(set) var context: CaseContext
    let trustAnchors: [X509Certificate]

    init(profile: Profile, context: CaseContext) throws {
        rules = profile.rules
        self.context = context
        trustAnchors = try Self.anchors.value(for: context.trustAnchors) {
            try context.trustAnchors.flatMap { try X509Certificate.parseChain(pem: $0) }
        }
    }

    /// Parsed anchors by their PEM text: every case of a catalogue (and every fuzzing input) names the same few.
    private static let anchors = Memo<[String], [X509Certificate]>(capacity: 64, size: { pem, _ in 2 * pem.reduce(0) { $0 + $1.utf8.count } })

    func enforces(_ rule: RuleID) -> Bool { rules.contains(rule) }

    /// The same policy with `time` as now (a step's arrival time), or unchanged when it is nil.
    func at(_ time: Date?) -> Policy {
        guard let time else { return self }
        var copy = self
        copy.context.time = time
        return copy
    }

    /// Throws a violation of `rule` when it is enforced and `condition` is false.
    func require(_ rule: RuleID, _ condition: @autoclosure () throws -> Bool, _ reason: @autoclosure () -> String) throws {
        guard enforces(rule) else { return }
        if try !condition() { throw RuleViolation(rule: rule, reason: reason()) }
    }

    /// The case's parameters, for the family's typed reader (`AppAttestParameters(policy.parameters)`).
    var parameters: ParameterReader { ParameterReader(context.parameters) }
}

extension [String: String] {
    /// The UTF-8 bytes of every name and value, for a memo's byte bound.
    var byteCount: Int { reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } }
}
