/// A map that cannot be used, or a value it cannot render or read: the JSON pointer at fault (into the map, or into
/// a server's response) and what is wrong there.
public struct APIMapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// RFC 6901 pointer into the map document ("" for the whole document).
    public let pointer: String
    public let message: String

    public init(_ pointer: String, _ message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String { pointer.isEmpty ? message : "\(pointer): \(message)" }
}
