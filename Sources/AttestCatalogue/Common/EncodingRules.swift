import AttestConformance
import AttestEvidence


/// Rules on CBOR encodings, shared by every family whose evidence is CBOR.
public enum EncodingRules {
    public static let all: [Rule] = [
        Rule(.cborTrailingBytes, "No bytes follow the top-level CBOR item.",
             level: .should, quote: "All decoders of the above conformance classes SHOULD reject CBOR that is not validly encoded in the CTAP2 canonical CBOR encoding form / RFC 8949 §3: 'that encoding is not a single well-formed CBOR item. Depending on the application, the …",
             source: "WebAuthn L3 §2.4 All Conformance Classes; RFC 8949 §3 (and §1.2 'Well-formed')",
             bugClass: .parsing, references: ["go-webauthn/webauthn PR #762"]),
        Rule(.cborDuplicateMapKey, "No CBOR map has the same key twice.",
             level: .should, quote: "[decoders] SHOULD reject messages with duplicate map keys / RFC 8949 §3.1: 'A map that has duplicate keys may be well-formed, but it is not valid'",
             source: "WebAuthn L3 §2.4 All Conformance Classes; RFC 8949 §3.1 (major type 5), §5.3-5.4",
             bugClass: .parsing),
        Rule(.cborIndefiniteLength, "CBOR items have definite lengths.",
             level: .should, quote: "[decoders] SHOULD reject CBOR that is not validly encoded in the CTAP2 canonical CBOR encoding form / CTAP: 'Indefinite-length items must be made into definite-length items.'",
             source: "WebAuthn L3 §2.4 All Conformance Classes; FIDO CTAP 2.1 §8 Message Encoding (CTAP2 canonical CBOR encoding form)",
             bugClass: .parsing),
    ]
}
