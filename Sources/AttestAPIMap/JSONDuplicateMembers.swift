import Foundation

/// Finds an object that names a member twice in a JSON text (RFC 8259 §4: names SHOULD be unique, and readers
/// differ on which one wins: Foundation keeps one, Python's `json` the last). Files the harness reads strictly (API
/// maps, profiles) refuse such a document instead of guessing. Run it on text `JSONSerialization` has accepted: it
/// reads strings and structure only, one pass, no recursion.
public enum JSONDuplicateMembers {
    /// The JSON pointer of the first member named twice in its object, or nil.
    public static func first(in data: Data) -> String? {
        let bytes = [UInt8](data)
        struct Frame {
            /// The pointer of this container.
            let pointer: String
            let isObject: Bool
            var names = Set<[UInt16]>()
            var expectingName = true
            var index = 0
            /// The pointer token of the value being read in this container.
            var current: String
            var pointerOfCurrent: String { pointer + "/" + current }
        }
        var stack: [Frame] = []
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case 0x7b, 0x5b:  // { [
                stack.append(Frame(pointer: stack.last?.pointerOfCurrent ?? "", isObject: byte == 0x7b, current: byte == 0x7b ? "" : "0"))
            case 0x7d, 0x5d:  // } ]
                _ = stack.popLast()
            case 0x2c where !stack.isEmpty:  // ,
                if stack[stack.count - 1].isObject {
                    stack[stack.count - 1].expectingName = true
                } else {
                    stack[stack.count - 1].index += 1
                    stack[stack.count - 1].current = String(stack[stack.count - 1].index)
                }
            case 0x22:  // a string
                let (units, end) = string(bytes, from: position)
                position = end
                guard !stack.isEmpty, stack[stack.count - 1].isObject, stack[stack.count - 1].expectingName else { continue }
                stack[stack.count - 1].current = escape(String(decoding: units, as: UTF16.self))
                stack[stack.count - 1].expectingName = false
                if !stack[stack.count - 1].names.insert(units).inserted { return stack[stack.count - 1].pointerOfCurrent }
            default:
                break
            }
        }
        return nil
    }

    /// The UTF-16 code units of the string whose contents start at `start` (escapes decoded), and the position after
    /// its closing quote.
    static func string(_ bytes: [UInt8], from start: Int) -> ([UInt16], Int) {
        var units: [UInt16] = []
        var raw: [UInt8] = []
        var position = start
        func flush() {
            units += String(decoding: raw, as: UTF8.self).utf16
            raw.removeAll(keepingCapacity: true)
        }
        while position < bytes.count, bytes[position] != 0x22 {
            guard bytes[position] == 0x5c, position + 1 < bytes.count else {
                raw.append(bytes[position])
                position += 1
                continue
            }
            flush()
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case 0x62: units.append(0x08)
            case 0x66: units.append(0x0c)
            case 0x6e: units.append(0x0a)
            case 0x72: units.append(0x0d)
            case 0x74: units.append(0x09)
            case 0x75:  // \uXXXX
                if position + 4 <= bytes.count, let code = UInt16(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) {
                    units.append(code)
                    position += 4
                }
            default: units.append(UInt16(escape))  // \" \\ \/
            }
        }
        flush()
        return (units, position + 1)
    }
}
