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

    /// The same checks of App Attest's attestation and assertion objects, as a profile's hardening: Apple's
    /// validation steps say nothing of CBOR encoding forms, and WebAuthn §2.4's conformance classes bind WebAuthn
    /// clients and relying parties, not App Attest servers (docs/anchors/rule-levels-review.json).
    public static let appAttest: [Rule] = [
        Rule(.appAttestCBORTrailingBytes, "No bytes follow the top-level CBOR item of an App Attest object.",
             level: .policy, quote: "Hardening: Apple's attestation and assertion validation steps specify no CBOR encoding form, so refusing bytes after the object is the profile's choice (RFC 8949 §3 leaves trailing bytes to the application).",
             source: "Apple, Validating apps that connect to your server (no encoding form); RFC 8949 §3",
             bugClass: .parsing),
        Rule(.appAttestCBORDuplicateMapKey, "No CBOR map of an App Attest object has the same key twice.",
             level: .policy, quote: "Hardening: RFC 8949 §3.1 calls a map with duplicate keys not valid, and Apple's steps read fmt, attStmt and authData by name, so which duplicate a server reads is ambiguous; refusing it is the profile's choice.",
             source: "Apple, Validating apps that connect to your server; RFC 8949 §3.1, §5.3-5.4",
             bugClass: .parsing),
        Rule(.appAttestCBORIndefiniteLength, "CBOR items of an App Attest object have definite lengths.",
             level: .policy, quote: "Hardening: Apple's devices emit definite lengths and its steps specify no encoding form; refusing indefinite lengths is the profile's choice.",
             source: "Apple, Validating apps that connect to your server (no encoding form)",
             bugClass: .parsing),
    ]
}
