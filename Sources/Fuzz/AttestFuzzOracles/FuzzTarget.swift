/// The fuzz targets and the property each checks. Each target's libFuzzer entry point and `swift test`'s
/// regression replay call the same `check`, so a reproducer fails in both the same way.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Our CBOR reader: round trip, and agreement with libcbor on allocation-safe input.
    case cbor = "fuzz-cbor"
    /// Our DER reader: round trip, and never more lenient than OpenSSL's parser.
    case der = "fuzz-der"
    /// Certificate fields read by our DER reader against OpenSSL's.
    case x509 = "fuzz-x509"
    /// The Android KeyDescription parser: round trip.
    case keyDescription = "fuzz-keydescription"
    /// The reference verifier end to end on App Attest attestation objects.
    case attestation = "fuzz-attestation"
    /// WebAuthn's parsers (COSE_Key, clientDataJSON, TPM) and the reference verifier on registrations.
    case webAuthn = "fuzz-webauthn"
    /// Certificates inside every family's evidence (App Attest, Android, WebAuthn x5c), through the reference verifier.
    case certificates = "fuzz-certificates"
    /// The hunt's mutations of valid WebAuthn cases: the reference against its single-rule mutants, the parsers
    /// against libcbor and Foundation.
    case differential = "fuzz-differential"

    /// Checks the target's property on `input`; returns a description of the violation, nil when it holds.
    /// Crashes (traps, out-of-bounds) are bugs the fuzzer reports by themselves.
    public func check(_ input: [UInt8]) -> String? {
        switch self {
        case .cbor: return CBOROracle.check(input)
        case .der: return DEROracle.check(input)
        case .x509: return X509Oracle.check(input)
        case .keyDescription: return KeyDescriptionOracle.check(input)
        case .attestation: return AttestationOracle.check(input)
        case .webAuthn: return WebAuthnOracle.check(input)
        case .certificates: return CertificateOracle.check(input)
        case .differential: return DifferentialOracle.check(input)
        }
    }

    /// The libFuzzer entry point's body: a violated property is a crash.
    public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        if let violation = check(input) { fatalError("\(rawValue) property violated: \(violation)") }
    }
}
