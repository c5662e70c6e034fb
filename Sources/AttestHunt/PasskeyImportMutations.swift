import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// The passkey-import mutations (docs/protocols/passkey-import.md), as data, on the last complete request: every
/// App Attest attestation edit and every Android KeyDescription edit (reused from those families, described once
/// there), the signed proof's members, its signature and the key and id sent beside it; repaired by rendering (the
/// proof signed again by the passkey key, the attestation made again), plus raw edits of the rendered inputs.
package enum PasskeyImportMutations {
    package static var all: [PasskeyImportMutation] { appAttest + androidKey + proof + complete + raw }

    typealias Edit = @Sendable (inout ImportBlueprint, inout HuntRandom, PasskeyImportForge) throws -> Int?

    static func complete(_ field: String, _ kind: String, _ edit: @escaping Edit) -> PasskeyImportMutation {
        PasskeyImportMutation(.attestation, field, kind, .repaired { scenario, random, forge in
            guard let index = scenario.requests.lastIndex(where: { if case .complete = $0 { return true }; return false }),
                  case .complete(var blueprint) = scenario.requests[index] else { return nil }
            let size = try edit(&blueprint, &random, forge)
            scenario.requests[index] = .complete(blueprint)
            return size
        })
    }

    /// The complete request sends the start's challenge, not the attestation's own: that edit is left out.
    static let appAttest: [PasskeyImportMutation] = AppAttestMutations.attestationEdits.filter { $0.field != "challenge" }.map { edit in
        complete("appAttest.\(edit.field)", edit.kind) { blueprint, random, forge in
            guard case .appAttest(var attestation) = blueprint.attestation else { return nil }
            let size = try edit.edit(&attestation, &random, forge.appAttest)
            blueprint.attestation = .appAttest(attestation)
            return size
        }
    }

    static var androidKey: [PasskeyImportMutation] {
        let prefix = MutationTarget.attestation.rawValue + "."
        return (AndroidMutations.keyDescription + AndroidMutations.authorizationLists).compactMap { mutation in
            guard case .repaired(let edit) = mutation.application else { return nil }
            let field = String(mutation.field.rawValue.dropFirst(mutation.field.rawValue.hasPrefix(prefix) ? prefix.count : 0))
            return complete("androidKey.\(field)", mutation.kind.rawValue) { blueprint, random, forge in
                guard case .androidKey(var android, let pki) = blueprint.attestation else { return nil }
                let size = try edit(&android, &random, forge.android)
                blueprint.attestation = .androidKey(android, pki)
                return size
            }
        }
    }

    /// Each member of the proof changed, dropped or doubled, and a member the API does not define.
    static let proof: [PasskeyImportMutation] = PasskeyImportFormat.proofMembers.sorted().flatMap { name in
        [
            complete("proof.\(name)", "other") { blueprint, random, _ in
                guard let value = blueprint.proof[name] else { return nil }
                blueprint.proof[name] = random.pick([value.uppercased(), value + " ", String(value.dropLast()), "", value + "A"])
                return 1
            },
            complete("proof.\(name)", "absent") { blueprint, _, _ in
                guard blueprint.proof[name] != nil else { return nil }
                blueprint.proof[name] = nil
                return 1
            },
        ]
    } + [
        complete("proof", "unknown-member") { blueprint, _, _ in
            blueprint.proof["note"] = "x"
            return 1
        },
    ]

    static let complete: [PasskeyImportMutation] = [
        complete("proofSignature", "other-key") { blueprint, _, forge in
            blueprint.proofSigner = try forge.seed.key(.ec(.p256), "hunt import other signer")
            return 64
        },
        complete("proofSignature", "other-message") { blueprint, random, _ in
            blueprint.signedProof = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return 64
        },
        complete("credentialId", "length") { blueprint, random, _ in
            let count = random.pick([0, 15, 65, 1024])
            blueprint.credentialId = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return count
        },
        complete("publicKey", "other-encoding") { blueprint, _, _ in
            blueprint.keyEncoding = blueprint.keyEncoding == .spki ? .x963 : .spki
            return 26
        },
        complete("challengeId", "other") { blueprint, random, forge in
            blueprint.completedChallengeId = try forge.uuid("hunt other challenge \(random.next() % 4)")
            return 36
        },
    ]

    static let raw: [PasskeyImportMutation] = [InputKey.proofSignature, .proofClientData, .attestationObject, .certificateChain].flatMap { key in
        WebAuthnMutations.byteEdits.map { named in PasskeyImportMutation(.attestation, "\(key.rawValue)[bytes]", named.kind, .raw(key, named.edit)) }
    }
}
