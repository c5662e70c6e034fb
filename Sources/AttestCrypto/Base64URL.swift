import Foundation

/// base64url without padding (RFC 4648 §5), as WebAuthn writes challenges and credential ids (§5.8.1).
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`, or nil unless it is strict unpadded base64url (no `+`, `/`, `=` or whitespace).
    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }),
              text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { return nil }
        // Reject non-canonical trailing bits: the text must be what encoding the bytes gives.
        return encode(Array(data)) == text ? Array(data) : nil
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
