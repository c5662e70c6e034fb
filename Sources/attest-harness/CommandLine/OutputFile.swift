import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing results to a path the user named, without ever replacing what the path points to.
///
/// - A new path, a regular file, or a symlink to either: the bytes go to a temporary file beside the final target,
///   which is synced and renamed over it. A reader never sees a partial file, a full disk leaves the old file (or
///   none) and no temporary one, and a symlink stays a symlink.
/// - A FIFO, a character device or a socket (`/dev/stdout`, a named pipe, `/dev/full`): written through, never
///   replaced; a FIFO without a reader is an error, not a wait.
/// - A directory or a block device: refused.
enum OutputFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        var link = stat()
        var info = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, stat(path, &info) != 0 {
            // Writing would replace the link itself (or create a file somewhere the user did not name).
            throw Failure(description: "cannot write \(path): it is a symbolic link to nothing")
        }
        let target = try resolved(path)
        if stat(target, &info) != 0 {
            guard errno == ENOENT else { throw failure("cannot inspect", path) }
            // A new file gets what the user's umask allows, as the shell's `>` would give it.
            let mask = umask(0)
            umask(mask)
            try replace(target, with: bytes, mode: 0o666 & ~mask, named: path)
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: try replace(target, with: bytes, mode: info.st_mode & 0o7777, named: path)
        case S_IFIFO, S_IFCHR, S_IFSOCK: try writeThrough(target, bytes, fifo: info.st_mode & S_IFMT == S_IFIFO, named: path)
        case S_IFDIR: throw Failure(description: "cannot write \(path): it is a directory")
        default: throw Failure(description: "cannot write \(path): it is a block device or another special file")
        }
    }

    /// The file `path` names, as the kernel resolves it: every symlink followed, `..` taken after the symlink
    /// before it (not lexically). For a path that does not exist yet, its directory resolved and its name kept.
    static func resolved(_ path: String) throws -> String {
        guard !path.isEmpty else { throw Failure(description: "cannot write to an empty path") }
        // `newdir/` names a directory, existing or not: never a file called `newdir`.
        guard !path.hasSuffix("/") else { throw Failure(description: "cannot write \(path): it names a directory") }
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        guard errno == ENOENT else { throw failure("cannot resolve", path) }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard !name.isEmpty, name != ".", name != ".." else { throw Failure(description: "cannot write \(path): it names a directory") }
        guard let real = realpath(directory.isEmpty ? "." : directory, nil) else { throw failure("cannot resolve the directory of", path) }
        defer { free(real) }
        let base = String(cString: real)
        return (base == "/" ? "" : base) + "/" + name
    }

    /// Writes every byte to `descriptor`, retrying interrupted and short writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc_write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    private static func replace(_ target: String, with bytes: [UInt8], mode: mode_t, named path: String) throws {
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/.\(name).partial-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }  // a non-empty C string
        guard descriptor >= 0 else { throw failure("cannot create a temporary file for", path) }
        let temporary = String(cString: template)
        var done = false
        defer {
            if !done { unlink(temporary) }
        }
        guard writeAll(bytes, to: descriptor), fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            let error = failure("cannot write", path)
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure("cannot write", path) }
        guard rename(temporary, target) == 0 else { throw failure("cannot replace", path) }
        done = true
    }

    private static func writeThrough(_ target: String, _ bytes: [UInt8], fifo: Bool, named path: String) throws {
        // O_NONBLOCK on a FIFO makes a missing reader an ENXIO error instead of a wait without end.
        let descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC | (fifo ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { throw failure("cannot open", path) }
        defer { close(descriptor) }
        if fifo {
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
        }
        guard writeAll(bytes, to: descriptor) else { throw failure("cannot write", path) }
    }

    private static func failure(_ what: String, _ path: String) -> Failure {
        Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}

/// `write(2)` under a name that does not collide with the methods called `write` in scope.
@inline(__always)
private func Glibc_write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, buffer, count)
    #else
    return Darwin.write(descriptor, buffer, count)
    #endif
}
