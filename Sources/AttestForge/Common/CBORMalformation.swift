import AttestCBOR

/// Ways to encode a top-level CBOR map that strict decoders must reject or a strict schema must refuse, each
/// applied in one call. Shared by every family whose evidence is a CBOR map (App Attest, WebAuthn).
public enum CBORMalformation: Hashable, Sendable {
    /// The canonical encoding followed by these bytes.
    case trailingBytes([UInt8])
    /// The entry with this text key written twice, with the same value.
    case duplicateKey(String)
    /// The map written with indefinite length (`bf ... ff`).
    case indefiniteLengthMap
    /// One more entry than the format defines.
    case extraKey(String, CBORValue)
    /// Every text key written as a byte string with the same bytes.
    case byteStringKeys

    /// `map` in CTAP2 canonical form with this malformation applied.
    public func encode(_ map: [CBORMapEntry]) -> [UInt8] {
        let sorted = CBORWriter.canonicalOrder(map)
        var writer = CBORRawWriter()
        switch self {
        case .trailingBytes(let extra):
            writer.value(.map(sorted), canonical: true)
            writer.raw(extra)
        case .duplicateKey(let key):
            var entries: [CBORMapEntry] = []
            for entry in sorted {
                entries.append(entry)
                if entry.key == .text(key) { entries.append(entry) }
            }
            writer.value(.map(entries))
        case .indefiniteLengthMap:
            writer.beginIndefinite(major: 5)
            for entry in sorted {
                writer.value(entry.key, canonical: true)
                writer.value(entry.value, canonical: true)
            }
            writer.breakCode()
        case .extraKey(let key, let value):
            writer.value(.map(map + [CBORMapEntry(.text(key), value)]), canonical: true)
        case .byteStringKeys:
            writer.value(.map(sorted.map { entry in
                guard case .text(let text) = entry.key else { return entry }
                return CBORMapEntry(.bytes(Array(text.utf8)), entry.value)
            }))
        }
        return writer.bytes
    }
}
