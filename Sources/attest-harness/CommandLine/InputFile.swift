import Foundation

/// Reading a file the user named as input (a saved hunt, a vectors suite): a regular file of bounded size, never
/// through a symlink.
enum InputFile {
    /// The bytes of a regular file at most 256 MiB, not read through a symlink; nil when there is none.
    static func readIfPresent(_ url: URL) throws -> Data? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else { throw UsageError("\(url.path) is not a regular file") }
        guard info.st_size <= 256 << 20 else { throw UsageError("\(url.path) is larger than 256 MiB, more than attest-harness writes") }
        return try Data(contentsOf: url)
    }
}
