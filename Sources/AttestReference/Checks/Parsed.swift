import AttestCrypto

/// Certificates and keys parsed by OpenSSL, remembered by their exact bytes: a catalogue's cases share their CAs
/// and many of their keys, and a fuzzer mutates everything but them, so most of what a suite sends was parsed
/// before, and OpenSSL 3's decoders cost more than the checks that follow. Sound: an `X509Certificate` or
/// `PublicKey` is immutable and its parse depends on nothing but the bytes. Failures are not kept.
enum Parsed {
    static func certificate(der: [UInt8]) throws -> X509Certificate {
        try certificates.value(for: ExactBytes(der)) { try X509Certificate(der: der) }
    }

    /// A DER SubjectPublicKeyInfo's key.
    static func publicKey(spki: [UInt8]) throws -> PublicKey {
        try keys.value(for: ExactBytes(spki)) { try PublicKey(spki: spki) }
    }

    private static let certificates = Memo<ExactBytes, X509Certificate>(capacity: 256, size: { der, _ in 2 * der.count })
    private static let keys = Memo<ExactBytes, PublicKey>(capacity: 256, size: { spki, _ in 2 * spki.count })
}
