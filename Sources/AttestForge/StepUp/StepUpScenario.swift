import AttestCrypto
import AttestEvidence
import Foundation

/// Biometric step-up signing (docs/protocols/step-up-signing.md): a device key registered once, then per action a
/// one-time challenge bound to the account, the key and the action, signed by the key behind the biometric prompt.
public struct StepUpScenario: Sendable {
    /// A challenge the server issues for one action.
    public struct Challenge: Sendable {
        public var id: String
        public var bytes: [UInt8]
        public var account: String
        public var keyId: String
        public var action: String
        public var time: Date
    }

    /// The app's approval: the challenge id, what it claims, and a signature.
    public struct Approval: Sendable {
        public var challenge: Challenge
        public var account: String
        public var keyId: String
        public var action: String
        public var signingKey: PrivateKey
        public var message: StepUpMessage
        /// Sign these bytes instead.
        public var signedBytes: [UInt8]?
        public var time: Date

        public func signature() throws -> [UInt8] {
            let message = signedBytes ?? self.message.bytes(challenge: challenge.bytes, account: challenge.account,
                                                            keyId: challenge.keyId, action: challenge.action)
            return try signingKey.sign(message, digest: .sha256)
        }
    }

    public enum Request: Sendable {
        case register(account: String, keyId: String, key: PublicKey, Date)
        case challenge(Challenge)
        case approve(Approval)
    }

    public var requests: [Request]
    public var brokenStep: Int?

    public init(requests: [Request], brokenStep: Int? = nil) {
        self.requests = requests
        self.brokenStep = brokenStep
    }
}

/// Forges step-up scenarios from a seed.
public struct StepUpForge: Sendable {
    public let seed: ForgeSeed
    public let message: StepUpMessage
    public let time: Date

    public static let transfer = "transfer 200 EUR to account DE89370400440532013000"

    public init(seed: ForgeSeed, message: StepUpMessage, time: Date = ForgeSeed.referenceTime) {
        self.seed = seed
        self.message = message
        self.time = time
    }

    /// The same forge signing `message` instead.
    public func with(message: StepUpMessage) -> StepUpForge { StepUpForge(seed: seed, message: message, time: time) }

    public func key(_ label: String) throws -> PrivateKey { try seed.key(.ec(.p256), "step-up key \(label)") }
    public func keyId(_ label: String) throws -> String { Base64URL.encode(try seed.bytes("step-up key id \(label)", count: 16)) }
    public func account(_ label: String) -> String { "acct-\(label)" }

    /// A challenge for `action`, issued at `time` to `account` for its key `keyLabel`.
    public func challenge(_ label: String, account: String, keyLabel: String, action: String = transfer, at time: Date) throws -> StepUpScenario.Challenge {
        StepUpScenario.Challenge(id: Base64URL.encode(try seed.bytes("step-up challenge id \(label)", count: 12)),
                                 bytes: try seed.bytes("step-up challenge \(label)", count: 32), account: account,
                                 keyId: try keyId(keyLabel), action: action, time: time)
    }

    /// The genuine approval of `challenge` by its key, `delay` seconds after it was issued.
    public func approval(of challenge: StepUpScenario.Challenge, keyLabel: String, delay: TimeInterval = 5) throws -> StepUpScenario.Approval {
        StepUpScenario.Approval(challenge: challenge, account: challenge.account, keyId: challenge.keyId, action: challenge.action,
                                signingKey: try key(keyLabel), message: message, time: challenge.time + delay)
    }

    /// Registration of the key `label` for `account`.
    public func register(_ label: String, account: String, at time: Date) throws -> StepUpScenario.Request {
        .register(account: account, keyId: try keyId(label), key: try key(label).publicKey, time)
    }
}
