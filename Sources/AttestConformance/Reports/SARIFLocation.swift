/// Where SARIF results point (`--sarif-location PATH[:LINE]`): the file of the verifier under test a team opens
/// to fix a finding (its adapter, its verification module), relative to the repository root as GitHub code
/// scanning wants it, and the line to annotate (1 when not given).
public struct SARIFLocation: Hashable, Sendable {
    public let path: String
    public let line: Int

    /// Parses `PATH[:LINE]`: a relative path without `..` segments, of at most 1024 bytes, and a line from 1 to
    /// 10,000,000.
    public init(parsing text: String) throws(SARIFLocationError) {
        var path = text
        var line = 1
        if let colon = text.lastIndex(of: ":"), let number = Int(text[text.index(after: colon)...]) {
            guard (1...10_000_000).contains(number) else { throw SARIFLocationError("line \(number) is not between 1 and 10000000") }
            path = String(text[..<colon])
            line = number
        }
        try Self.checkRelative(path)
        self.path = path
        self.line = line
    }

    /// Refuses what is not a path relative to the repository root: empty or over 1024 bytes, absolute, with a `..`
    /// segment or a control character.
    static func checkRelative(_ path: String) throws(SARIFLocationError) {
        guard !path.isEmpty, path.utf8.count <= 1024 else { throw SARIFLocationError("expected a path of 1 to 1024 bytes") }
        guard !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
            throw SARIFLocationError("\(path) is not a path relative to the repository root (no leading /, no ..)")
        }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw SARIFLocationError("the path has a control character")
        }
    }
}

/// Why a `--sarif-location` value was refused.
public struct SARIFLocationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
