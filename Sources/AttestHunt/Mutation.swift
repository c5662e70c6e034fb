import AttestConformance
import AttestEvidence
import AttestForge

/// Where in the evidence a mutation acts, as a dotted path from the ceremony down
/// (`assertion.clientDataJSON.origin`, `registration.attStmt.x5c[0].aaguid`). Clusters are grouped by it.
package struct FieldPath: VocabularyTerm {
    package let rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }
}

/// What a mutation does to its field (`append-path`, `bit-flip`, `duplicate-member`). Clusters are grouped by it.
package struct MutationKind: VocabularyTerm {
    package let rawValue: String
    package init(_ rawValue: String) { self.rawValue = rawValue }
}

/// Which ceremony of a baseline a mutation changes: the last registration (WebAuthn), the attestation (App Attest,
/// Android, a per-request flow's attest), the last assertion (WebAuthn, App Attest) or the last protected request
/// (per-request). The family's baseline says which step renders it, or that it has none.
package enum MutationTarget: String, Hashable, Sendable, Codable {
    case registration, attestation, assertion, request
    /// A step-up approval (docs/protocols/step-up-signing.md).
    case approval
}

/// One structure-aware mutation: a field, a kind, and how to apply it.
///
/// Two ways to apply, so that a mutant reaches the check it aims at:
/// - `repaired`: changes the scenario before it is rendered, so hashes, signatures and certificates are made again
///   over the changed field (a changed origin is still signed by the credential key).
/// - `raw`: changes one rendered input's bytes after rendering, nothing repaired (a parser's view).
/// Either returns the size of its change in bytes (what minimisation compares), or nil when it does not apply to
/// this baseline (no packed statement to edit, say). A family's mutations are data over its own scenario and forge
/// (`WebAuthnMutations`, `AppAttestMutations`); `HuntFamily` runs any family's the same way.
package struct Mutation<Scenario: Sendable, Forge: Sendable>: Sendable {
    package enum Application: Sendable {
        case repaired(@Sendable (inout Scenario, inout HuntRandom, Forge) throws -> Int?)
        case raw(InputKey, @Sendable (inout [UInt8], inout HuntRandom) -> Int?)
    }

    package let target: MutationTarget
    package let field: FieldPath
    package let kind: MutationKind
    package let application: Application

    package init(_ target: MutationTarget, _ field: String, _ kind: String, _ application: Application) {
        self.target = target
        self.field = FieldPath("\(target.rawValue).\(field)")
        self.kind = MutationKind(kind)
        self.application = application
    }
}

/// A WebAuthn mutation: over the scenario before rendering, repaired by the WebAuthn forge.
package typealias WebAuthnMutation = Mutation<WebAuthnScenario, WebAuthnForge>
/// An App Attest mutation: over the attestation and assertions before rendering, repaired by the App Attest forge.
package typealias AppAttestMutation = Mutation<AppAttestScenario, AppAttestForge>
/// An Android key attestation mutation: over the scenario before rendering, repaired by the Android forge.
package typealias AndroidMutation = Mutation<AndroidScenario, AndroidForge>
/// A per-request mutation: over the flow's requests before rendering, repaired by the per-request forge.
package typealias PerRequestMutation = Mutation<PerRequestScenario, PerRequestForge>
/// A passkey-import mutation: over the import's requests before rendering, repaired by the import forge.
package typealias PasskeyImportMutation = Mutation<PasskeyImportScenario, PasskeyImportForge>
/// A step-up mutation: over the registration, challenge and approval before rendering, repaired by the step-up forge.
package typealias StepUpMutation = Mutation<StepUpScenario, StepUpForge>
