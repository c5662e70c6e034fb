import Foundation
import Testing

/// `scripts/setup` on systems this machine need not be: each scenario runs the script with `/bin/bash` and a PATH
/// made only of fake commands (`uname`, `brew`, `pkg-config`, `openssl`, `sudo`, `id`, `python3`, `dpkg-query`,
/// `apt-get`, as the scenario says) and symlinks to a few harmless real tools, then checks the exit status, the
/// calls the fakes logged and the diagnostics. No real package manager is ever reached: the real `/usr/bin` and
/// `/bin` are not on that PATH.
@Suite struct SetupScriptTests {
    /// The repository root: this file is `Tests/AttestPackageTests/SetupScriptTests.swift`.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts").appendingPathComponent("setup")

    static let formulae = ["openssl@3", "libcbor", "libmicrohttpd", "pkg-config", "python@3", "go"]
    static let openSSL3 = "OpenSSL 3.0.19 1 Jul 2025 (Library: OpenSSL 3.0.19 1 Jul 2025)"
    /// Real tools the script (and bash) may use; none of them is one the scenarios fake or hide.
    static let realTools = ["bash", "sh", "env", "grep", "cat", "sed", "mkdir", "rm", "tr", "dirname"]
    static let timeout: TimeInterval = 30

    /// What the fake system looks like.
    struct Scenario: Sendable {
        var system = "Darwin"
        var hasBrew = true
        /// Formulae `brew list --versions` reports as installed.
        var installedFormulae: [String] = []
        var pkgConfigFindsOpenSSL = true
        var openSSLVersion = SetupScriptTests.openSSL3
        var hasPython3 = false
        /// A `dpkg-query` that answers "install ok installed" for everything, and an `apt-get`.
        var hasApt = false
        /// A `chromium` on PATH (the HTML report's browser test): no browser is installed then.
        var hasBrowser = true
        /// Homebrew's keg-only openssl@3 under `brew --prefix openssl@3`: an `openssl` saying OpenSSL 3 in its bin
        /// and a lib/pkgconfig that the fake pkg-config finds openssl in.
        var homebrewOpenSSL = true
        /// `dpkg-query` says every package is installed (else none is).
        var aptPackagesInstalled = true
        /// The script's arguments.
        var arguments: [String] = []
    }

    struct Outcome: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
        /// One line per call of a fake: its name, then its arguments.
        let calls: [String]

        var brewInstalls: [String] { calls.filter { $0.hasPrefix("brew install") } }
        var sudoCalls: [String] { calls.filter { $0.hasPrefix("sudo") } }
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    struct ScriptTimedOut: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Scenarios

    @Test(arguments: [false, true])
    func macOSInstallsEveryMissingFormulaInOneBrewCall(hasPython3: Bool) throws {
        let outcome = try Self.run(Scenario(hasPython3: hasPython3))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let installs = outcome.brewInstalls
        #expect(installs.count == 1, "\(outcome.calls)")
        if let install = installs.first {
            let named = Set(install.split(separator: " ").dropFirst(2).map(String.init))
            var expected: Set<String> = ["openssl@3", "libcbor", "libmicrohttpd", "pkg-config", "go"]
            if !hasPython3 { expected.insert("python@3") }
            #expect(named == expected)
        }
        #expect(outcome.sudoCalls.isEmpty, "brew must never run under sudo: \(outcome.sudoCalls)")
        #expect(!outcome.stderr.contains("PKG_CONFIG_PATH"))
        Self.expectPrefixedDiagnostics(outcome)
    }

    @Test func macOSWithEverythingInstalledInstallsNothingAndSaysNothing() throws {
        let outcome = try Self.run(Scenario(installedFormulae: Self.formulae))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.brewInstalls.isEmpty, "\(outcome.calls)")
        #expect(outcome.sudoCalls.isEmpty)
        #expect(outcome.calls.contains("brew list --versions openssl@3"), "\(outcome.calls)")
        #expect(outcome.stderr.isEmpty)
        #expect(outcome.stdout.isEmpty)
    }

    @Test func macOSWithoutHomebrewPointsAtBrewShAndExitsTwo() throws {
        let outcome = try Self.run(Scenario(hasBrew: false))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("https://brew.sh"))
        #expect(outcome.stderr.contains("brew install openssl@3 libcbor libmicrohttpd pkg-config python@3 go"))
        #expect(outcome.calls.isEmpty, "\(outcome.calls)")
        Self.expectPrefixedDiagnostics(outcome)
    }

    /// macOS's LibreSSL first on PATH (a stock Mac with Homebrew): Homebrew's keg-only OpenSSL 3 is found and used,
    /// not a reason to stop; the user's own shell gets the export to paste.
    @Test func macOSWithLibreSSLFirstOnPathFindsHomebrewsOpenSSL() throws {
        let outcome = try Self.run(Scenario(installedFormulae: Self.formulae, pkgConfigFindsOpenSSL: false, openSSLVersion: "LibreSSL 3.3.6"))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("using Homebrew's OpenSSL 3 in "), "\(outcome.stderr)")
        #expect(outcome.stderr.contains(#"export PATH="$(brew --prefix openssl@3)/bin:$PATH""#))
        #expect(outcome.stderr.contains(#"export PKG_CONFIG_PATH="$(brew --prefix openssl@3)/lib/pkgconfig:$PKG_CONFIG_PATH""#))
        #expect(outcome.calls.contains("brew --prefix openssl@3"), "\(outcome.calls)")
        #expect(outcome.brewInstalls.isEmpty)
        #expect(outcome.sudoCalls.isEmpty)
        Self.expectPrefixedDiagnostics(outcome)
    }

    /// LibreSSL first and no OpenSSL 3 in Homebrew's openssl@3 either: exit 2, saying what was found.
    @Test func macOSWithLibreSSLAndNoUsableHomebrewOpenSSLExitsTwo() throws {
        let outcome = try Self.run(Scenario(installedFormulae: Self.formulae, openSSLVersion: "LibreSSL 3.3.6", homebrewOpenSSL: false))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("LibreSSL 3.3.6") && outcome.stderr.contains("OpenSSL 3"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("brew reinstall openssl@3"))
        Self.expectPrefixedDiagnostics(outcome)
        // The build alone does not drive the openssl command line: the gate's setup goes on.
        let build = try Self.run(Scenario(installedFormulae: Self.formulae, openSSLVersion: "LibreSSL 3.3.6", homebrewOpenSSL: false, arguments: ["--build"]))
        #expect(build.status == 0, "\(build.stderr)")
    }

    @Test func macOSWhosePkgConfigMissesOpenSSLIsGivenHomebrewsPath() throws {
        let outcome = try Self.run(Scenario(installedFormulae: Self.formulae, pkgConfigFindsOpenSSL: false))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(#"export PKG_CONFIG_PATH="$(brew --prefix openssl@3)/lib/pkgconfig:$PKG_CONFIG_PATH""#))
        #expect(!outcome.stderr.contains("export PATH="), "OpenSSL 3 was first on PATH already: \(outcome.stderr)")
        #expect(outcome.calls.contains("pkg-config --exists openssl"), "\(outcome.calls)")
        Self.expectPrefixedDiagnostics(outcome)
    }

    /// `--build` (the CI gate's and the Action's setup) installs only what the build needs: no browser, Go or Python.
    @Test func buildOnlyInstallsTheBuildsLibraries() throws {
        let mac = try Self.run(Scenario(hasBrowser: false, arguments: ["--build"]))
        #expect(mac.status == 0, "\(mac.stderr)")
        #expect(mac.brewInstalls == ["brew install openssl@3 libcbor libmicrohttpd pkg-config"], "\(mac.calls)")
        let debian = try Self.run(Scenario(system: "Linux", hasBrew: false, hasPython3: true, hasApt: true, hasBrowser: false,
                                           aptPackagesInstalled: false, arguments: ["--build"]))
        // (The fake sudo fails, so it stops there: what it asked to install is what counts.)
        #expect(debian.stderr.contains("scripts/setup: installing libssl-dev libcbor-dev libmicrohttpd-dev pkg-config\n"), "\(debian.stderr)")
        #expect(debian.calls.filter { $0.hasPrefix("dpkg-query") }.count == 4, "\(debian.calls)")
        let unknown = try Self.run(Scenario(arguments: ["--bogus"]))
        #expect(unknown.status == 2 && unknown.stderr.contains("--bogus") && unknown.calls.isEmpty, "\(unknown.stderr)")
    }

    @Test func linuxWithoutAptNamesThePackagesAndInstallsNothing() throws {
        let outcome = try Self.run(Scenario(system: "Linux", hasBrew: false, hasPython3: true))
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("libssl-dev libcbor-dev libmicrohttpd-dev pkg-config python3 python3-venv golang-go chromium"))
        #expect(outcome.stderr.contains("openssl-devel libcbor-devel libmicrohttpd-devel pkgconf-pkg-config python3 golang chromium"))
        #expect(outcome.stderr.contains("openssl@3 libcbor libmicrohttpd pkg-config python@3 go"))
        #expect(outcome.calls.isEmpty, "nothing may be installed or even asked: \(outcome.calls)")
        Self.expectPrefixedDiagnostics(outcome)
    }

    /// Without a browser on PATH, macOS gets Google Chrome as a cask (a second brew call), Debian the chromium package.
    @Test func aMissingBrowserIsInstalled() throws {
        let mac = try Self.run(Scenario(installedFormulae: ["openssl@3", "libcbor", "libmicrohttpd", "pkg-config", "go"],
                                        hasPython3: true, hasBrowser: false))
        #expect(mac.status == 0, "\(mac.stderr)")
        #expect(mac.brewInstalls == ["brew install --cask google-chrome"], "\(mac.calls)")
        let debian = try Self.run(Scenario(system: "Linux", hasBrew: false, hasPython3: true, hasApt: true, hasBrowser: false))
        #expect(debian.calls.contains { $0.hasPrefix("dpkg-query") && $0.hasSuffix(" chromium") }, "\(debian.calls)")
    }

    @Test func debianWithEverythingInstalledNeverCallsAptGet() throws {
        let outcome = try Self.run(Scenario(system: "Linux", hasBrew: false, hasPython3: true, hasApt: true))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(!outcome.calls.contains(where: { $0.hasPrefix("apt-get") }), "\(outcome.calls)")
        #expect(outcome.sudoCalls.isEmpty)
        #expect(outcome.calls.filter { $0.hasPrefix("dpkg-query") }.count == 7, "\(outcome.calls)")  // one per apt package
        #expect(outcome.stderr.isEmpty)
        #expect(outcome.stdout.isEmpty)
    }

    // MARK: Harness

    static func expectPrefixedDiagnostics(_ outcome: Outcome) {
        for line in outcome.stderrLines where !line.hasPrefix("scripts/setup: ") {
            Issue.record("diagnostic without the scripts/setup prefix: \(line)")
        }
    }

    /// Builds the fake system in a temporary directory, runs the script there, and removes it.
    static func run(_ scenario: Scenario) throws -> Outcome {
        let fileManager = FileManager.default
        let root = fileManager.temporaryDirectory.appendingPathComponent("setup-script-\(UUID().uuidString)")
        let fakes = root.appendingPathComponent("fake")
        let tools = root.appendingPathComponent("tools")
        let log = root.appendingPathComponent("calls.log")
        try fileManager.createDirectory(at: fakes, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: root) }
        try fileManager.createDirectory(at: tools, withIntermediateDirectories: true)

        try writeFakes(for: scenario, into: fakes)
        for tool in realTools {
            guard let real = ["/usr/bin", "/bin"].map({ "\($0)/\(tool)" })
                .first(where: { fileManager.isExecutableFile(atPath: $0) }) else { continue }
            try fileManager.createSymbolicLink(atPath: tools.appendingPathComponent(tool).path, withDestinationPath: real)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path] + scenario.arguments
        process.currentDirectoryURL = root
        process.environment = ["PATH": "\(fakes.path):\(tools.path)", "HOME": root.path, "LANG": "C",
                               "FAKE_CALL_LOG": log.path, "FAKE_BREW_PREFIX": root.appendingPathComponent("brew-openssl").path]
        if scenario.homebrewOpenSSL {
            let prefix = root.appendingPathComponent("brew-openssl")
            try fileManager.createDirectory(at: prefix.appendingPathComponent("lib/pkgconfig"), withIntermediateDirectories: true)
            try fileManager.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
            let openssl = prefix.appendingPathComponent("bin/openssl")
            try "#!/bin/bash\necho \"\(Self.openSSL3)\"\n".write(to: openssl, atomically: true, encoding: .utf8)
            try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: openssl.path)
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdoutDrain = PipeDrain(out)
        let stderrDrain = PipeDrain(err)

        let deadline = Date().addingTimeInterval(Self.timeout)
        while process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw ScriptTimedOut(description: "scripts/setup did not finish within \(Int(Self.timeout)) s; terminated")
        }
        process.waitUntilExit()
        // The pipes close when the script exits (the fakes start nothing in the background); a few seconds' grace.
        guard let outData = stdoutDrain.wait(until: Date().addingTimeInterval(5)),
              let errData = stderrDrain.wait(until: Date().addingTimeInterval(5)) else {
            throw ScriptTimedOut(description: "scripts/setup exited but its output pipes stayed open")
        }

        let calls = ((try? String(contentsOf: log, encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self), calls: calls)
    }

    /// Small bash scripts using only builtins, so they need nothing from PATH. Each logs its call to
    /// `$FAKE_CALL_LOG` as "name arguments", except the read-only ones (`uname`, `id`, `openssl`, `python3`).
    static func writeFakes(for scenario: Scenario, into directory: URL) throws {
        func fake(_ name: String, _ body: String) throws {
            let url = directory.appendingPathComponent(name)
            try ("#!/bin/bash\n" + body + "\n").write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }

        try fake("uname", "echo \(scenario.system)")
        try fake("id", #"if [ "${1:-}" = -u ]; then echo 501; else echo "uid=501(tester) gid=20(staff)"; fi"#)
        // sudo logs and fails: brew must never be run through it.
        try fake("sudo", #"echo "sudo $*" >> "$FAKE_CALL_LOG"; exit 1"#)
        // pkg-config finds openssl where the scenario says, or in Homebrew's keg once PKG_CONFIG_PATH names it.
        try fake("pkg-config", #"echo "pkg-config $*" >> "$FAKE_CALL_LOG"; case ":${PKG_CONFIG_PATH:-}:" in *"$FAKE_BREW_PREFIX/lib/pkgconfig"*) [ -d "$FAKE_BREW_PREFIX/lib/pkgconfig" ] && exit 0 ;; esac; exit "# + (scenario.pkgConfigFindsOpenSSL ? "0" : "1"))
        try fake("openssl", #"echo "\#(scenario.openSSLVersion)""#)
        if scenario.hasPython3 {
            try fake("python3", #"echo "Python 3.12.0""#)
        }
        if scenario.hasBrowser {
            try fake("chromium", #"echo "Chromium 1.0""#)
        }
        if scenario.hasBrew {
            try fake("brew", #"""
                echo "brew $*" >> "$FAKE_CALL_LOG"
                case "${1:-}" in
                    list)
                        for formula in \#(scenario.installedFormulae.joined(separator: " ")); do
                            if [ "$formula" = "${3:-}" ]; then echo "$formula 1.0"; exit 0; fi
                        done
                        exit 1
                        ;;
                    --prefix)
                        echo "$FAKE_BREW_PREFIX"
                        ;;
                esac
                exit 0
                """#)
        }
        if scenario.hasApt {
            try fake("dpkg-query", #"echo "dpkg-query $*" >> "$FAKE_CALL_LOG"; printf '\#(scenario.aptPackagesInstalled ? "install ok installed" : "unknown ok not-installed")'"#)
            try fake("apt-get", #"echo "apt-get $*" >> "$FAKE_CALL_LOG"; exit 0"#)
        }
    }
}

/// Reads one pipe to its end on its own thread, so neither pipe can fill and block the child.
final class PipeDrain: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
            lock.lock()
            data = bytes
            finished = true
            lock.unlock()
            done.signal()
        }
    }

    /// Everything read, or nil when the pipe is still open at `deadline`.
    func wait(until deadline: Date) -> Data? {
        _ = done.wait(wallTimeout: .now() + max(0, deadline.timeIntervalSinceNow))
        lock.lock()
        defer { lock.unlock() }
        return finished ? data : nil
    }
}
