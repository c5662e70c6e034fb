import Foundation

/// Reading a file the user named as input (a saved hunt, a vectors suite): a regular file of bounded size, never
/// through a symlink.
enum InputFile {
    /// The bytes of a regular file at most `limit` bytes (256 MiB unless told), not read through a symlink; nil when
    /// there is none.
    static func readIfPresent(_ url: URL, limit: Int = 256 << 20) throws -> Data? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else { throw UsageError("\(url.path) is not a regular file") }
        guard info.st_size <= limit else {
            throw UsageError("\(url.path) is larger than \(limit >> 20 > 0 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"), more than attest-harness reads there")
        }
        return try Data(contentsOf: url)
    }
}
