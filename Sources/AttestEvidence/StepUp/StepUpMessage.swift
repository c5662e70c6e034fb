import AttestCrypto

/// What a step-up key signs (docs/protocols/step-up-signing.md §3.2).
public enum StepUpMessage: String, Hashable, Sendable {
    /// The challenge bytes themselves (`SecKeyCreateSignature` over the challenge).
    case challenge
    /// The harness's action-bound form: UTF-8 of `base64url(challenge) \n account \n keyId \n action`, so the
    /// signature itself commits to what the user approved.
    case actionBound = "action-bound"

    public func bytes(challenge: [UInt8], account: String, keyId: String, action: String) -> [UInt8] {
        switch self {
        case .challenge: return challenge
        case .actionBound: return Array([Base64URL.encode(challenge), account, keyId, action].joined(separator: "\n").utf8)
        }
    }
}
