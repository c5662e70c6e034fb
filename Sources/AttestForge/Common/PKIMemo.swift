import AttestCrypto
import Foundation

/// The test PKIs by what they derive from, shared by every thread of the process. A PKI is a pure function of its
/// seed's value (and label, and for Android the case's time, which bounds its short-lived CAs): its keys come from
/// the key cache and its serials from labels no server value ever replaces, so it is built from the seed without
/// the seed's substitutions and kept. Signing its CA certificates (an RSA-4096 root among them) was most of the
/// cost of forging a case again around each value a live server issues.
///
/// Bounded like every memo: a run uses a few seeds and a few case times; past `capacity` the memo starts over.
enum PKIMemo {
    struct Name: Hashable, Sendable {
        let seed: UInt64
        let label: String
        var time: Date? = nil
    }

    static let webAuthn = Memo<Name, WebAuthnPKI>(capacity: 64)
    static let appAttest = Memo<Name, AppAttestPKI>(capacity: 64)
    static let android = Memo<Name, AndroidPKI>(capacity: 256)
}
