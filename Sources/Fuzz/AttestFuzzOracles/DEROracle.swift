internal import CAttestOpenSSL
import AttestDER

/// fuzz-der: whatever the strict reader accepts re-serializes to exactly the input, and OpenSSL's generic
/// parser (`d2i_ASN1_TYPE`) accepts it too: our strict DER must never be more lenient than OpenSSL.
enum DEROracle {
    static func check(_ input: [UInt8]) -> String? {
        guard let element = try? DERReader.parse(input) else { return nil }
        if element.serialized != input { return "strict DER does not round-trip" }
        if !openSSLAccepts(input) && !openSSLGap(element) { return "OpenSSL rejects DER we accept: \(element)" }
        return nil
    }

    static func openSSLAccepts(_ input: [UInt8]) -> Bool {
        input.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let parsed = d2i_ASN1_TYPE(nil, &cursor, buffer.count) else {
                ERR_clear_error()
                return false
            }
            ASN1_TYPE_free(parsed)
            return cursor == buffer.baseAddress.map { $0 + buffer.count }
        }
    }

    /// Valid DER that OpenSSL's ANY parser refuses by design; see the README's fuzzing section.
    static func openSSLGap(_ element: DERElement) -> Bool {
        false
    }
}
