import Foundation
import Testing

/// A virtualenv under .build filled from a pinned requirements file (PyPI), made once and remade when the file changes.
enum PythonEnvironment {
    /// The virtualenv's python.
    static func python(venv: URL, requirements file: URL) throws -> URL {
        let python = venv.appendingPathComponent("bin/python")
        let marker = venv.appendingPathComponent("installed-requirements.txt")
        let requirements = try String(contentsOf: file, encoding: .utf8)
        if (try? String(contentsOf: marker, encoding: .utf8)) == requirements { return python }
        if !FileManager.default.fileExists(atPath: python.path) {
            let made = try CommandLineTests.launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "venv", venv.path])
            try #require(made.status == 0, "python3 -m venv failed: \(made.stderr)")
        }
        let pip = try CommandLineTests.launch(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", file.path])
        try #require(pip.status == 0, "pip install from PyPI failed: \(pip.stderr.suffix(500))")
        try requirements.write(to: marker, atomically: true, encoding: .utf8)
        return python
    }
}
