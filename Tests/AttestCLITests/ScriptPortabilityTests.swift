import AttestConformance
import Foundation
import Testing

/// The shell scripts as a macOS user runs them, and the GitHub Action as an auditor reads it: ShellCheck on every
/// script, `scripts/check-portability` for what bash 3.2 (macOS's /bin/bash) and BSD tools lack (ShellCheck knows no
/// bash versions), zizmor on action.yml, every third-party action pinned by commit, and the release tags the docs
/// name agreeing with each other. ShellCheck and zizmor come from PyPI, pinned in scripts/script-check-requirements.txt.
@Suite struct ScriptPortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func tools() throws -> URL {
        try PythonEnvironment.python(venv: root.appendingPathComponent(".build/script-check-venv"),
                                     requirements: root.appendingPathComponent("scripts/script-check-requirements.txt"))
            .deletingLastPathComponent()
    }

    /// Every bash script of the repository: those in scripts/ and Examples/ with a bash shebang, .ci/run,
    /// .clusterfuzzlite/build.sh and the sourced scripts/toolchain-env.
    static func shellScripts() throws -> [String] {
        var found = ["scripts/toolchain-env"]
        for folder in ["scripts", "Examples", ".ci", ".clusterfuzzlite"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                guard !url.path.contains("/.build/"), !url.path.contains("/node_modules/"),
                      let handle = try? FileHandle(forReadingFrom: url) else { continue }
                let head = String(decoding: handle.readData(ofLength: 64), as: UTF8.self)
                try? handle.close()
                if head.hasPrefix("#!/usr/bin/env bash") || head.hasPrefix("#!/bin/bash") {
                    found.append(String(url.path.dropFirst(root.path.count + 1)))
                }
            }
        }
        return found.sorted()
    }

    @Test func everyShellScriptPassesShellCheckAndThePortabilityLint() throws {
        let scripts = try Self.shellScripts()
        for expected in ["scripts/setup", "scripts/test", "scripts/ci-gate", "scripts/bench", "scripts/fuzz", ".ci/run"] {
            #expect(scripts.contains(expected), "\(expected) was not found among \(scripts)")
        }
        let tools = try Self.tools()
        let shellcheck = try CommandLineTests.launch(tools.appendingPathComponent("shellcheck"),
                                                     ["--shell=bash", "--severity=warning", "--format=gcc"] + scripts, in: Self.root)
        #expect(shellcheck.status == 0, "\(shellcheck.stdout)\(shellcheck.stderr)")
        // The ClusterFuzzLite build runs in OSS-Fuzz's Linux image, never on a Mac.
        let onMacOS = scripts.filter { $0 != ".clusterfuzzlite/build.sh" }
        let lint = try CommandLineTests.launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "scripts/check-portability"] + onMacOS, in: Self.root)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    }

    /// The lint finds what broke `scripts/bench` on a Mac before (a `{fd}>` redirection, `date +%N`) and the rest of
    /// its list, and leaves portable spellings alone.
    @Test func thePortabilityLintFindsWhatBreaksOnMacOS() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken")
        let faults = ["exec {hold}>\"$dir/stdin\"", "start=$(date +%s.%N)", "declare -A seen", "mapfile -t lines < f",
                      "echo \"${name,,}\"", "sed -i 's/a/b/' file", "grep -P '\\d' file", "stat -c %s file", "readlink -f x",
                      "timeout 5 sleep 1", "cmd &>> log", "wait -n"]
        let fine = ["exec 9>\"$dir/stdin\"", "start=$(date +%s)", "# date +%N in a comment", "sed -e 's/a/b/' file > out",
                    "echo \"${name}\" # timeout", "grep -E 'x' file", "stat -f %z file"]
        try (["#!/usr/bin/env bash"] + faults + fine).joined(separator: "\n").write(to: broken, atomically: true, encoding: .utf8)
        let lint = try CommandLineTests.launch(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "scripts/check-portability", broken.path], in: Self.root)
        #expect(lint.status == 1)
        let lines = lint.stdout.split(separator: "\n")
        #expect(lines.count == faults.count, "one line per fault, none for the portable ones:\n\(lint.stdout)")
        for (index, _) in faults.enumerated() {
            #expect(lines.contains { $0.hasPrefix("\(broken.path):\(index + 2): ") }, "line \(index + 2) was not found:\n\(lint.stdout)")
        }
    }

    @Test func zizmorFindsNothingInTheAction() throws {
        let tools = try Self.tools()
        let audit = try CommandLineTests.launch(tools.appendingPathComponent("zizmor"), ["--offline", "--format=json", "action.yml"], in: Self.root)
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [[String: Any]], "\(audit.stdout)\(audit.stderr)")
        #expect(findings.isEmpty, "\(findings.map { "\($0["ident"] ?? "?")" })")
    }

    /// Every `uses:` of a third-party action in action.yml and in the docs' example workflows names a commit.
    @Test func thirdPartyActionsArePinnedByCommit() throws {
        var uses: [String] = []
        for file in ["action.yml", "docs/ci.md", "docs/hunt.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let range = line.range(of: "uses: ") else { continue }
                let reference = line[range.upperBound...].split(separator: " ").first.map(String.init) ?? ""
                if reference.hasPrefix("attest-harness/attest-harness@") { continue }  // this action: the user's choice of ref
                uses.append("\(file): \(reference)")
                let commit = reference.split(separator: "@").last.map(String.init) ?? ""
                #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit), "\(file): \(reference) is not pinned by commit")
            }
        }
        #expect(uses.count >= 6, "\(uses)")
    }

    /// One release, one tag spelling: the action and clone lines in docs/ci.md and the Go module's `go get` in the
    /// README all name vX.Y.Z of this version (the Go module's own tag is that one with its folder as a prefix).
    @Test func releaseTagsAgree() throws {
        let tag = "v" + HarnessVersion.current
        let ci = try String(contentsOf: Self.root.appendingPathComponent("docs/ci.md"), encoding: .utf8)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var named: [String] = []
        for (text, marker) in [(ci, "attest-harness/attest-harness@"), (ci, "--branch "), (readme, "attest-harness/vectors@")] {
            var rest = Substring(text)
            while let range = rest.range(of: marker) {
                let reference = rest[range.upperBound...].prefix { !$0.isWhitespace && $0 != "`" }
                // The prose's placeholder and a branch of the user's own repository are not release tags.
                if reference != "vX.Y.Z" && !(marker == "--branch " && reference == "main") {
                    named.append(String(reference))
                    #expect(reference == tag, "\(marker)\(reference) is not \(tag)")
                }
                rest = rest[range.upperBound...]
            }
        }
        #expect(named.count >= 5, "\(named)")
        #expect(ci.contains("the same `vX.Y.Z` with the prefix `vectors/`"), "docs/ci.md says how the Go module is tagged")
    }
}
