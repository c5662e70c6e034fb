import AttestConformance
import AttestEvidence


/// Rules on CBOR encodings, shared by every family whose evidence is CBOR.
public enum EncodingRules {
    public static let all: [Rule] = [
        Rule(.cborTrailingBytes, "No bytes follow the top-level CBOR item.",
             source: "RFC 8949 §5.3 (well-formedness of a single data item); WebAuthn L3 §6.5.2",
             bugClass: .parsing, references: ["go-webauthn/webauthn PR #762"]),
        Rule(.cborDuplicateMapKey, "No CBOR map has the same key twice.",
             source: "RFC 8949 §5.6 (a map with duplicate keys is not valid); CTAP 2.1 §8 canonical form",
             bugClass: .parsing),
        Rule(.cborIndefiniteLength, "CBOR items have definite lengths.",
             source: "CTAP 2.1 §8 (CTAP2 canonical CBOR: indefinite-length items must be definite)",
             bugClass: .parsing),
    ]
}
