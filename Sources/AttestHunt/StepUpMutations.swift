import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// The step-up mutations (docs/protocols/step-up-signing.md), as data: the approval's claims (account, key id,
/// action, challenge id), what it signs and with which key, when it arrives, and the registered key; each repaired by
/// signing the approval again, so a mutant reaches the binding checks behind the signature. Raw edits change the
/// rendered signature and public key bytes.
package enum StepUpMutations {
    package static var all: [StepUpMutation] { approval + registration + raw }

    typealias Edit = @Sendable (inout StepUpScenario.Approval, inout HuntRandom, StepUpForge) throws -> Int?

    static func approval(_ field: String, _ kind: String, _ edit: @escaping Edit) -> StepUpMutation {
        StepUpMutation(.approval, field, kind, .repaired { scenario, random, forge in
            guard let index = scenario.requests.lastIndex(where: { if case .approve = $0 { return true }; return false }),
                  case .approve(var approval) = scenario.requests[index] else { return nil }
            let size = try edit(&approval, &random, forge)
            scenario.requests[index] = .approve(approval)
            return size
        })
    }

    /// A text spelled almost the same: another case, a space at either end, a NUL inside, or another value.
    static func respelled(_ text: String, _ random: inout HuntRandom, other: String) -> String {
        random.pick([text.uppercased(), text + " ", " " + text, text + "\u{0}", String(text.dropLast()), other])
    }

    static let approval: [StepUpMutation] = [
        approval("account", "spelling") { approval, random, _ in
            approval.account = respelled(approval.account, &random, other: "acct-bob")
            return 1
        },
        approval("keyId", "spelling") { approval, random, forge in
            approval.keyId = respelled(approval.keyId, &random, other: try forge.keyId("alice tablet"))
            return 1
        },
        approval("action", "spelling") { approval, random, _ in
            approval.action = respelled(approval.action, &random, other: "transfer 2000 EUR to account DE89370400440532013000")
            return 1
        },
        approval("challengeId", "spelling") { approval, random, _ in
            var id = approval.challenge.id
            id = respelled(id, &random, other: Base64URL.encode(Array(repeating: 0, count: 12)))
            approval.challenge.id = id
            return 1
        },
        approval("message", "other-form") { approval, _, _ in
            approval.message = approval.message == .challenge ? .actionBound : .challenge
            return 32
        },
        approval("message", "base64url-text") { approval, _, _ in
            approval.signedBytes = Array(Base64URL.encode(approval.challenge.bytes).utf8)
            return 32
        },
        approval("signature", "other-key") { approval, _, forge in
            approval.signingKey = try forge.key("hunt other")
            return 64
        },
        approval("time", "shifted") { approval, random, _ in
            approval.time = approval.challenge.time + random.pick([-1, 0, 119, 120, 121, 3_600])
            return 4
        },
    ]

    static let registration: [StepUpMutation] = [
        StepUpMutation(.registration, "publicKey", "other-key", .repaired { scenario, _, forge in
            guard let index = scenario.requests.firstIndex(where: { if case .register = $0 { return true }; return false }),
                  case .register(let account, let keyId, _, let time) = scenario.requests[index] else { return nil }
            scenario.requests[index] = .register(account: account, keyId: keyId, key: try forge.key("hunt registered other").publicKey, time)
            return 64
        }),
    ]

    static let raw: [StepUpMutation] = WebAuthnMutations.byteEdits.flatMap { named in
        [StepUpMutation(.approval, "signature[bytes]", named.kind, .raw(.signature, named.edit)),
         StepUpMutation(.registration, "publicKey[bytes]", named.kind, .raw(.publicKey, named.edit))]
    }
}
