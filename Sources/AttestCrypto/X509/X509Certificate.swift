internal import CAttestOpenSSL
import AttestDER
import Foundation

/// An X.509 certificate parsed by OpenSSL, with the fields the harness compares and verifies.
///
/// Our own DER reader parses the same bytes independently (`DERReader.parse(certificate.der)`); tests check
/// that both agree.
public final class X509Certificate: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The exact bytes parsed.
    public let der: [UInt8]
    /// Guards `parsed`.
    private let parseLock = NSLock()
    /// OpenSSL's parse of `der`: made in `init(der:)`, or on first use after `init(deferringParseOf:)`.
    private var parsed: OpaquePointer?
    /// `publicKey`, once read (guarded by `parseLock`).
    private var parsedKey: PublicKey?

    public init(der: [UInt8]) throws {
        parsed = try check(X509Certificate.parse(der, context: nil), "d2i_X509")
        self.der = der
    }

    /// A certificate whose bytes d2i_X509 is known to accept, parsed on first use: a forge that only serialises the
    /// certificate then never pays for OpenSSL's parse (in OpenSSL 3.0 mostly the decoding of the subject public key
    /// through its decoder framework). Only `CertificateTemplate.signed(by:)` makes these, and only when d2i_X509 has
    /// already accepted a certificate that differs from these bytes in nothing d2i_X509 examines (see
    /// `CertificateTemplate.ParseShape`).
    init(deferringParseOf der: [UInt8]) {
        self.der = der
    }

    /// The parse in the default library context, made now if `init(deferringParseOf:)` deferred it.
    var x509: OpaquePointer {
        parseLock.withLock {
            if let parsed { return parsed }
            // d2i_X509 accepted a certificate of the same parse shape (`init(deferringParseOf:)`); only allocation
            // failure can stop it now.
            guard let made = X509Certificate.parse(der, context: nil) else {
                preconditionFailure("d2i_X509 rejected a certificate of a shape it accepted: \(AttestCryptoError.drainQueue())")
            }
            parsed = made
            return made
        }
    }

    deinit { if let parsed { X509_free(parsed) } }

    /// d2i_X509 of exactly `der` (nothing after it), in `context` (nil: the default library context).
    static func parse(_ der: [UInt8], context: OpaquePointer?) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            var x = X509_new_ex(context, nil)
            guard x != nil else { return nil }
            guard d2i_X509(&x, &cursor, buffer.count) != nil else {
                X509_free(x)
                return nil
            }
            if cursor != buffer.baseAddress.map({ $0 + buffer.count }) {
                X509_free(x)
                return nil
            }
            return x
        }
    }

    /// Every certificate in a PEM text, in order.
    public static func parseChain(pem: String) throws -> [X509Certificate] {
        try PEMBlock.parseAll(pem).filter { $0.label == "CERTIFICATE" }.map { try X509Certificate(der: $0.der) }
    }

    public var pem: String { PEMBlock(label: "CERTIFICATE", der: der).text }

    /// DER of the subject Name, as OpenSSL re-encodes it.
    public var subjectDER: [UInt8] { X509Certificate.der(ofName: X509_get_subject_name(x509)) }
    /// DER of the issuer Name, as OpenSSL re-encodes it.
    public var issuerDER: [UInt8] { X509Certificate.der(ofName: X509_get_issuer_name(x509)) }

    /// The subject in RFC 2253 form (`CN=…,O=…`), for messages.
    public var subject: String { X509Certificate.text(ofName: X509_get_subject_name(x509)) }
    public var issuer: String { X509Certificate.text(ofName: X509_get_issuer_name(x509)) }

    /// Big-endian magnitude of the serial number (as OpenSSL reads it).
    public var serialNumber: [UInt8] {
        guard let bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x509), nil) else { return [0] }
        defer { BN_free(bn) }
        var out = [UInt8](repeating: 0, count: Int((BN_num_bits(bn) + 7) / 8))
        BN_bn2bin(bn, &out)
        return out.isEmpty ? [0] : out
    }

    /// DER of the serialNumber INTEGER as OpenSSL holds it.
    public var serialNumberDER: [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_ASN1_INTEGER(X509_get0_serialNumber(x509), &out)
        guard length > 0, let out else { return [] }
        defer { copenssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    public var notBefore: Date { X509Certificate.date(X509_get0_notBefore(x509)) }
    public var notAfter: Date { X509Certificate.date(X509_get0_notAfter(x509)) }

    /// Extensions in wire order. Every OID OpenSSL reads is kept exactly (from its content octets, whatever the size
    /// of its arcs); an extension OpenSSL holds without an OID or a value is skipped (it cannot parse into one).
    public var extensions: [CertificateExtension] {
        (0..<X509_get_ext_count(x509)).compactMap { index in
            guard let ext = X509_get_ext(x509, index), let object = X509_EXTENSION_get_object(ext),
                  let data = X509_EXTENSION_get_data(ext) else { return nil }
            let oidBytes = OBJ_length(object) > 0 ? Array(UnsafeBufferPointer(start: OBJ_get0_data(object), count: OBJ_length(object))) : []
            guard let oid = DERObjectIdentifier(contentBytes: oidBytes) else { return nil }
            let length = Int(ASN1_STRING_length(data))
            let value = length > 0 ? Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(data), count: length)) : []
            return CertificateExtension(oid: oid, critical: X509_EXTENSION_get_critical(ext) == 1, value: value)
        }
    }

    /// What the issuer's signature covers and the signature itself, as OpenSSL holds them (the TBSCertificate
    /// re-encoded from its fields, and the signature value): two certificates with equal parts are the same
    /// certificate, whatever outer encoding carried them. Empty parts when OpenSSL cannot re-encode.
    /// `i2d_re_X509_tbs` rewrites OpenSSL's cached encoding of the certificate: call it only on a parse of one's own,
    /// never on a certificate shared between threads (the reference verifier's `Parsed` certificates).
    package var signedParts: (tbs: [UInt8], signature: [UInt8]) {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_re_X509_tbs(x509, &out)
        var tbs: [UInt8] = []
        if length > 0, let out {
            tbs = Array(UnsafeBufferPointer(start: out, count: Int(length)))
            copenssl_free(out)
        }
        var signature: UnsafePointer<ASN1_BIT_STRING>?
        var algorithm: UnsafePointer<X509_ALGOR>?
        X509_get0_signature(&signature, &algorithm, x509)
        var value: [UInt8] = []
        if let signature, let data = ASN1_STRING_get0_data(signature), ASN1_STRING_length(signature) > 0 {
            value = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(signature))))
        }
        return (tbs, value)
    }

    /// The first extension with `oid`.
    public func `extension`(_ oid: DERObjectIdentifier) -> CertificateExtension? {
        extensions.first { $0.oid == oid }
    }

    /// The DER SubjectPublicKeyInfo as it appears in the certificate, whatever its algorithm.
    public var subjectPublicKeyInfo: [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x509), &out)
        guard length > 0, let out else { return [] }
        defer { copenssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// The certified key; throws for algorithms other than EC P-256/P-384 and RSA (ML-DSA, say).
    public var publicKey: PublicKey {
        get throws {
            if let key = parseLock.withLock({ parsedKey }) { return key }
            let key = try PublicKey(spki: subjectPublicKeyInfo)
            parseLock.withLock { parsedKey = key }
            return key
        }
    }

    /// True when `issuer`'s key verifies this certificate's signature (names are not compared).
    public func isSigned(by issuer: PublicKey) -> Bool {
        defer { AttestCryptoError.drainQueue() }
        return X509_verify(x509, issuer.pkey) == 1
    }

    public var description: String { subject }

    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool { lhs.der == rhs.der }
    public func hash(into hasher: inout Hasher) { hasher.combine(ExactBytes(der)) }

    private static func der(ofName name: OpaquePointer?) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509_NAME(name, &out)
        guard length > 0, let out else { return [] }
        defer { copenssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    private static func text(ofName name: OpaquePointer?) -> String {
        guard let bio = try? MemoryBIO() else { return "" }
        X509_NAME_print_ex(bio.pointer, name, 0, copenssl_XN_FLAG_RFC2253)
        return String(decoding: bio.contents, as: UTF8.self)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var tm = tm()
        guard ASN1_TIME_to_tm(time, &tm) == 1 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }
}

