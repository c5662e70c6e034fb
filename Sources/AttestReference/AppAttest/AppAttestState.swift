import AttestCrypto

/// What an App Attest server stores per attested key (Apple: "store the public key and receipt against the key
/// id"): the key and the last counter it accepted.
struct AppAttestState {
    struct AttestedKey {
        let publicKey: PublicKey
        var counter: UInt32
    }

    var keys: [[UInt8]: AttestedKey] = [:]
}
