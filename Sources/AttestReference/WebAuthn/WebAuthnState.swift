import AttestCrypto

/// What a relying party stores per credential (WebAuthn L3 §7.1 step 27): its owner, key and counter.
struct WebAuthnState {
    struct CredentialRecord {
        let user: [UInt8]
        let key: COSEKey
        var signCount: UInt32
        /// The App Attest key an iOS passkey import bound to the credential.
        var appAttestKeyId: [UInt8]? = nil
    }

    var credentials: [[UInt8]: CredentialRecord] = [:]

    func passkeyCount(of user: [UInt8]) -> Int { credentials.values.filter { $0.user == user }.count }
}
