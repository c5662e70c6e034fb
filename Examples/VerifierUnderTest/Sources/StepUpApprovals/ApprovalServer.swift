import AttestCrypto
import Foundation

/// A step-up approval server as a team might write it: devices register a P-256 key, the server issues a challenge
/// for an action, and the device approves by signing it.
///
/// Deliberately incomplete, to show what the harness finds: it never expires a challenge and never marks one as
/// used, so a stale or replayed approval goes through.
public struct ApprovalServer {
    /// What the device signs: the challenge itself, or the challenge bound to account, key and action.
    public enum MessageForm: String, Sendable {
        case challenge
        case actionBound = "action-bound"
    }

    public enum Refusal: Error, Equatable {
        case unknownChallenge, wrongAccount, wrongKey, wrongAction, badSignature, unknownKey
    }

    struct Issued {
        let account: String
        let keyId: String
        let action: String
        let bytes: [UInt8]
    }

    public let messageForm: MessageForm
    private var keys: [String: PublicKey] = [:]
    private var challenges: [String: Issued] = [:]

    public init(messageForm: MessageForm) { self.messageForm = messageForm }

    public mutating func register(keyId: String, spki: [UInt8]) throws {
        keys[keyId] = try PublicKey(spki: spki)
    }

    public mutating func issue(challengeId: String, bytes: [UInt8], account: String, keyId: String, action: String) {
        challenges[challengeId] = Issued(account: account, keyId: keyId, action: action, bytes: bytes)
    }

    public func approve(challengeId: String, account: String, keyId: String, action: String, signature: [UInt8]) throws {
        guard let issued = challenges[challengeId] else { throw Refusal.unknownChallenge }
        // Missing on purpose: the challenge's age is never checked, and it is never marked as used.
        guard account == issued.account else { throw Refusal.wrongAccount }
        guard keyId == issued.keyId else { throw Refusal.wrongKey }
        guard action == issued.action else { throw Refusal.wrongAction }
        guard let key = keys[keyId] else { throw Refusal.unknownKey }
        let message: [UInt8]
        switch messageForm {
        case .challenge: message = issued.bytes
        case .actionBound:
            message = Array([Base64URL.encode(issued.bytes), issued.account, issued.keyId, issued.action]
                .joined(separator: "\n").utf8)
        }
        guard key.verify(signature, for: message, digest: .sha256) else { throw Refusal.badSignature }
    }
}
