import Crypto

/// What a relying party stores per credential (WebAuthn L3 §7.1 step 27): its owner, key and counter.
struct WebAuthnState {
    struct CredentialRecord {
        let user: [UInt8]
        let key: COSEKey
        var signCount: UInt32
    }

    var credentials: [[UInt8]: CredentialRecord] = [:]
}
