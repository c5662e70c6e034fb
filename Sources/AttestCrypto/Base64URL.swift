import Foundation

/// base64url without padding (RFC 4648 §5), as WebAuthn writes challenges and credential ids (§5.8.1).
///
/// Foundation's base64 does the coding; the alphabet is swapped byte by byte (`+/` and `-_`), since the
/// string-replacing calls cost more than the coding itself on every case of a suite.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        var text = [UInt8](Data(bytes).base64EncodedData())
        while text.last == UInt8(ascii: "=") { text.removeLast() }
        text.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                switch buffer[index] {
                case UInt8(ascii: "+"): buffer[index] = UInt8(ascii: "-")
                case UInt8(ascii: "/"): buffer[index] = UInt8(ascii: "_")
                default: break
                }
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`, or nil unless it is strict unpadded base64url (no `+`, `/`, `=` or whitespace).
    public static func decode(_ text: String) -> [UInt8]? {
        var standard = Array(text.utf8)
        guard standard.count % 4 != 1 else { return nil }
        let valid = standard.withUnsafeMutableBufferPointer { buffer -> Bool in
            for index in buffer.indices {
                switch buffer[index] {
                case UInt8(ascii: "-"): buffer[index] = UInt8(ascii: "+")
                case UInt8(ascii: "_"): buffer[index] = UInt8(ascii: "/")
                case let byte where byte.isASCIIAlphanumeric: break
                default: return false
                }
            }
            return true
        }
        guard valid else { return nil }
        standard.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - standard.count % 4) % 4))
        guard let data = Data(base64Encoded: Data(standard)) else { return nil }
        // Reject non-canonical trailing bits: the text must be what encoding the bytes gives.
        let bytes = [UInt8](data)
        return encode(bytes) == text ? bytes : nil
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
