import AttestConformance
import Foundation

/// Disagreements grouped: one cluster per field, mutation kind and pattern of verdicts (which verifiers accept,
/// refuse, crash or hang). It keeps its smallest mutant (fewest changed bytes; the earliest on a tie) and how often
/// the pattern was seen.
package struct Cluster: Hashable, Sendable, Codable {
    package struct Key: Hashable, Sendable, Codable, Comparable {
        package let field: FieldPath
        package let kind: MutationKind
        /// One verdict class per verifier, in the hunt's verifier order (`AR`: the first accepts, the second refuses).
        package let pattern: String

        /// A stable file-name-safe id: `assertion.clientDataJSON.origin~append-path~AR`.
        package var id: String {
            let text = "\(field.rawValue)~\(kind.rawValue)~\(pattern)"
            return String(text.map { $0.isLetter || $0.isNumber || ".~-_".contains($0) ? $0 : "_" })
        }

        package static func < (lhs: Key, rhs: Key) -> Bool { lhs.id < rhs.id }
    }

    package let key: Key
    package var count: Int
    /// The mutant kept for replay: the smallest one seen.
    package var mutant: Mutant
    /// What each verifier made of the kept mutant, in the hunt's verifier order.
    package var judgements: [Judgement]

    /// The rule a refusal named, preferring the reference verifier's: what the mutant most likely breaks.
    package func suggestedRule(verifiers: [String]) -> RuleID? {
        let refusals = judgements.enumerated().compactMap { index, judgement -> (String, RuleID)? in
            guard case .refused(_, let rule?, _) = judgement else { return nil }
            return (verifiers[index], rule)
        }
        return (refusals.first { $0.0 == Self.referenceName } ?? refusals.first)?.1
    }

    /// The built-in reference verifier, whose refusal names the suggested rule when it is among the verifiers.
    package static let referenceName = "builtin:reference"
}

/// One mutant: which baseline it came from, the mutation, its size, and the case it renders to.
package struct Mutant: Hashable, Sendable, Codable {
    /// Its number in the hunt's seed space.
    package let index: UInt64
    package let baseline: String
    package let field: FieldPath
    package let kind: MutationKind
    /// Changed bytes in the mutated field (or input).
    package let size: Int
    /// The step the mutation changed.
    package let step: Int
    package let testCase: Case
}
