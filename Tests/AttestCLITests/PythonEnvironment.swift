import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A virtualenv under .build filled from a pinned requirements file (PyPI), made once and remade when the file changes.
///
/// Suites that need it run in parallel, and scripts/compare may fill the same venv from another process, so making it
/// is serialised by an exclusive `flock` on a file beside the venv (each call opens its own descriptor, so the lock
/// holds between suites of this process as between processes). Without that, a second suite saw `bin/python` of a venv still being made and ran a pip that was not
/// there yet ("No module named pip").
enum PythonEnvironment {
    /// The virtualenv's python.
    static func python(venv: URL, requirements file: URL) throws -> URL {
        let lockPath = venv.path + ".lock"
        try FileManager.default.createDirectory(at: venv.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0, "cannot open \(lockPath): errno \(errno)")
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX) == 0, "cannot lock \(lockPath): errno \(errno)")
        defer { flock(descriptor, LOCK_UN) }

        let python = venv.appendingPathComponent("bin/python")
        let marker = venv.appendingPathComponent("installed-requirements.txt")
        let requirements = try String(contentsOf: file, encoding: .utf8)
        if (try? String(contentsOf: marker, encoding: .utf8)) == requirements { return python }
        let hasPip = FileManager.default.isExecutableFile(atPath: python.path)
            && (try? CommandLineTests.launch(python, ["-m", "pip", "--version"]))?.status == 0
        if !hasPip {
            // Absent, or left half-made by an interrupted run: make it afresh.
            try? FileManager.default.removeItem(at: venv)
            let made = try CommandLineTests.launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "venv", venv.path])
            try #require(made.status == 0, "python3 -m venv failed: \(made.stderr)")
        }
        let pip = try CommandLineTests.launch(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", file.path])
        try #require(pip.status == 0, "pip install from PyPI failed: \(pip.stderr.suffix(500))")
        try requirements.write(to: marker, atomically: true, encoding: .utf8)
        return python
    }
}
