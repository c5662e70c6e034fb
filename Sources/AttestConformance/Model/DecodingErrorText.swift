import Foundation

extension DecodingError {
    /// What is wrong with a JSON document, in plain words and with the member's JSON pointer, instead of the
    /// decoder's internals (`keyNotFound(CodingKeys(stringValue: ...))`): what a user reads when an adapter's
    /// results, a suite on stdin or a verdict request is malformed.
    package var plainDescription: String {
        func pointer(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = path + (last.map { [$0] } ?? [])
            return keys.isEmpty ? "the document" : "member /" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
        }
        switch self {
        case .keyNotFound(let key, let context):
            return "\(pointer(context.codingPath, key)) is missing"
        case .valueNotFound(let type, let context):
            return "\(pointer(context.codingPath)) is null where \(Self.kind(type)) is expected"
        case .typeMismatch(let type, let context):
            return "\(pointer(context.codingPath)) is not \(Self.kind(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "it is not valid JSON" }
            return "\(pointer(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type, is UInt32.Type, is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

extension Error {
    /// `plainDescription` for a decoding error, else the error as it describes itself.
    package var plainDescription: String { (self as? DecodingError)?.plainDescription ?? "\(self)" }
}
