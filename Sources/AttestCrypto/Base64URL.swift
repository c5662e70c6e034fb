internal import CAttestOpenSSL
import Foundation

/// base64url without padding (RFC 4648 §5), as WebAuthn writes challenges and credential ids (§5.8.1).
///
/// OpenSSL's `EVP_EncodeBlock` and Foundation's base64 do the coding; the alphabet is swapped byte by byte (`+/` and
/// `-_`), since the string-replacing calls cost more than the coding itself on every case of a suite.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String { encode(bytes, piece: 3 << 28) }

    /// `encode` in pieces of `piece` bytes (a multiple of 3). EVP_EncodeBlock writes 4 characters per 3 bytes or part
    /// of them, then a NUL, and counts in Int32: longer inputs go in pieces of whole 3-byte groups, each written over
    /// the NUL the one before it left. Tests use small pieces.
    package static func encode(_ bytes: [UInt8], piece: Int) -> String {
        precondition(piece > 0 && piece % 3 == 0 && piece <= 3 << 28, "a piece is whole 3-byte groups that EVP_EncodeBlock can count")
        return String(unsafeUninitializedCapacity: (bytes.count + 2) / 3 * 4 + 1) { text in
            guard let out = text.baseAddress else { return 0 }
            var count = 0
            bytes.withUnsafeBufferPointer { input in
                guard let base = input.baseAddress else { return }
                for start in stride(from: 0, to: input.count, by: piece) {
                    count += Int(EVP_EncodeBlock(out + count, base + start, Int32(min(piece, input.count - start))))
                }
            }
            while count > 0, text[count - 1] == UInt8(ascii: "=") { count -= 1 }
            for index in 0..<count {
                switch text[index] {
                case UInt8(ascii: "+"): text[index] = UInt8(ascii: "-")
                case UInt8(ascii: "/"): text[index] = UInt8(ascii: "_")
                default: break
                }
            }
            return count
        }
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
