internal import CAttestLibCBOR
import AttestCBOR

/// libcbor 0.8 as an independent reference decoder, for differential tests and fuzzing.
///
/// libcbor trusts declared lengths (an 11-byte input can make it allocate 3 GB), so callers must only hand
/// it input that `CBORReader` has already accepted, or otherwise checked to be allocation-safe.
public enum LibCBORDecoder {
    public struct Failure: Error, Hashable {
        public let description: String
    }

    /// The value libcbor decodes from `bytes`, converted to our model; throws when libcbor rejects the input or
    /// leaves bytes unread.
    public static func decode(_ bytes: [UInt8]) throws -> CBORValue {
        var result = cbor_load_result()
        var item: UnsafeMutablePointer<cbor_item_t>? = bytes.withUnsafeBufferPointer {
            cbor_load($0.baseAddress, $0.count, &result)
        }
        defer { if item != nil { cbor_decref(&item) } }
        guard let item, result.error.code == CBOR_ERR_NONE else {
            throw Failure(description: "libcbor error \(result.error.code.rawValue) at \(result.error.position)")
        }
        if result.read != bytes.count { throw Failure(description: "libcbor read \(result.read) of \(bytes.count)") }
        return try convert(item)
    }

    private static func convert(_ item: UnsafeMutablePointer<cbor_item_t>) throws -> CBORValue {
        switch cbor_typeof(item) {
        case CBOR_TYPE_UINT:
            return .unsigned(cbor_get_int(item))
        case CBOR_TYPE_NEGINT:
            return .negative(cbor_get_int(item))
        case CBOR_TYPE_BYTESTRING:
            return .bytes(try stringBytes(item))
        case CBOR_TYPE_STRING:
            let bytes = try stringBytes(item)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw Failure(description: "invalid UTF-8")
            }
            return .text(text)
        case CBOR_TYPE_ARRAY:
            // An empty (indefinite) array has no handle at all.
            guard let handle = cbor_array_handle(item) else { return .array([]) }
            return .array(try (0..<cbor_array_size(item)).map { index in
                guard let element = handle[index] else { throw Failure(description: "libcbor left an array element empty") }
                return try convert(element)
            })
        case CBOR_TYPE_MAP:
            guard let handle = cbor_map_handle(item) else { return .map([]) }
            return .map(try (0..<cbor_map_size(item)).map { index in
                guard let key = handle[index].key, let value = handle[index].value else {
                    throw Failure(description: "libcbor left a map entry empty")
                }
                return CBORMapEntry(try convert(key), try convert(value))
            })
        case CBOR_TYPE_TAG:
            var inner: UnsafeMutablePointer<cbor_item_t>? = cbor_tag_item(item)
            defer { cbor_decref(&inner) }
            guard let tagged = inner else { throw Failure(description: "libcbor left a tag without its item") }
            return .tagged(cbor_tag_value(item), try convert(tagged))
        case CBOR_TYPE_FLOAT_CTRL:
            return try floatOrControl(item)
        default:
            throw Failure(description: "unknown libcbor type")
        }
    }

    private static func stringBytes(_ item: UnsafeMutablePointer<cbor_item_t>) throws -> [UInt8] {
        if cbor_isa_bytestring(item) ? cbor_bytestring_is_definite(item) : cbor_string_is_definite(item) {
            let length = cbor_isa_bytestring(item) ? cbor_bytestring_length(item) : cbor_string_length(item)
            let handle = cbor_isa_bytestring(item) ? cbor_bytestring_handle(item) : cbor_string_handle(item)
            guard length > 0, let handle else { return [] }
            return Array(UnsafeBufferPointer(start: handle, count: length))
        }
        let count = cbor_isa_bytestring(item) ? cbor_bytestring_chunk_count(item) : cbor_string_chunk_count(item)
        guard count > 0, let chunks = cbor_isa_bytestring(item) ? cbor_bytestring_chunks_handle(item)
                                                                : cbor_string_chunks_handle(item) else { return [] }
        return try (0..<count).flatMap { index -> [UInt8] in
            guard let chunk = chunks[index] else { throw Failure(description: "libcbor left a string chunk empty") }
            return try stringBytes(chunk)
        }
    }

    private static func floatOrControl(_ item: UnsafeMutablePointer<cbor_item_t>) throws -> CBORValue {
        switch cbor_float_get_width(item) {
        case CBOR_FLOAT_0:
            let value = cbor_ctrl_value(item)
            switch value {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            default: return .simple(value)
            }
        case CBOR_FLOAT_16:
            return .float16(Float16Bits.from(cbor_float_get_float2(item)))
        case CBOR_FLOAT_32:
            return .float32(cbor_float_get_float4(item).bitPattern)
        case CBOR_FLOAT_64:
            return .float64(cbor_float_get_float8(item).bitPattern)
        default:
            throw Failure(description: "unknown float width")
        }
    }
}

/// libcbor widens half floats to `float`; this narrows them back to their 16 wire bits.
enum Float16Bits {
    static func from(_ value: Float) -> UInt16 { Float16(value).bitPattern }
}
