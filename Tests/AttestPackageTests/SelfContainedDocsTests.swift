import Foundation
import Testing

/// The documentation users get is self-contained: the README, `docs/`, the vectors and the sources cite public
/// specifications (by URL or section) or files of this repository, never the authors' private working notes; and
/// every repository path they cite exists, down to the numbered section a cited Markdown document must have
/// (`docs/protocols/passkey-import.md §5.2` needs a heading numbered 5.2 in that file).
@Suite struct SelfContainedDocsTests {
    /// The repository root: this file is `Tests/AttestPackageTests/SelfContainedDocsTests.swift`.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The names of the private notes the project was specified from (the numbered source documents, the design
    /// note, the protocol, bug and Swift notes, and the folder that holds them), which users do not have. Written so
    /// that this file does not match itself.
    static let privateNamePattern = #"seeds/[0-9]{3}|\bseeds? 0[0-9]{2}\b|DESIGN\.md|protocols\.md|known[-]bugs|swift[-]notes|\.\./shared|/work/share[d]"#
    /// Where users look: everything shipped except binary corpora.
    static let scannedForPrivateNames = ["README.md", "Package.swift", "action.yml", "docs", "vectors", "Examples", "scripts",
                                         "apis", "Sources", "Tests", ".clusterfuzzlite", ".ci"]

    /// A repository-relative path (starting at a top-level folder, not inside a URL or a longer path), then
    /// optionally the sections cited in it: a path followed by ` §3`, or by ` §3.2, §4`.
    static let citationPattern = #"(?<![A-Za-z0-9_./-])((?:docs|vectors|scripts|apis|Examples|Sources|Tests|corpus)/[A-Za-z0-9_./-]*[A-Za-z0-9_/])((?:[ \t]*,?[ \t]*§[ \t]?[0-9]+(?:\.[0-9]+)*)*)"#
    static let sectionPattern = #"§[ \t]?([0-9]+(?:\.[0-9]+)*)"#
    /// A Markdown heading that starts with a section number: `## 5. Complete`, `### 5.2 Checks`, `## §5 ...`.
    static let headingPattern = #"^#{1,6}[ \t]+§?([0-9]+(?:\.[0-9]+)*)\.?(?:[ \t]|$)"#
    /// A Markdown link target: `[text](target)`.
    static let linkPattern = #"\]\(([^)\s]+)\)"#

    // MARK: The checks

    @Test func noPrivateNoteIsNamed() throws {
        let privateName = try NSRegularExpression(pattern: Self.privateNamePattern)
        var found: [String] = []
        for top in Self.scannedForPrivateNames {
            for file in Self.textFiles(under: top) where !Self.groups(privateName, in: file.text).isEmpty {
                for (index, line) in Self.lines(file.text).enumerated() {
                    for match in Self.groups(privateName, in: line) {
                        found.append("\(file.path):\(index + 1): \(match[0] ?? "")")
                    }
                }
            }
        }
        #expect(found.isEmpty, """
            \(found.count) references to private notes; cite the public specification or a page of docs instead:
            \(found.prefix(200).joined(separator: "\n"))
            """)
    }

    @Test func everyCitedPathAndSectionExists() throws {
        let checker = try CitationChecker()
        // README.md, every Markdown document of docs/ and the vectors' own: paths in the text and relative links.
        let markdown = Self.textFiles(under: "README.md") + Self.textFiles(under: "docs")
            + Self.textFiles(under: "vectors").filter { !$0.path.dropFirst("vectors/".count).contains("/") }
        for file in markdown where file.path.hasSuffix(".md") {
            for (index, line) in Self.lines(file.text).enumerated() {
                try checker.check(line, at: "\(file.path):\(index + 1)", linkBase: (file.path as NSString).deletingLastPathComponent)
            }
        }
        // Every string (member names too) of the vector suites: rule sources and quotes, descriptions, step kinds.
        // Citations are prose, so strings without a space (base64 and hex evidence) are left out.
        let vectors = Self.repository.appendingPathComponent("vectors")
        for name in try FileManager.default.contentsOfDirectory(atPath: vectors.path).sorted() where name.hasSuffix(".json") {
            var strings: [String] = []
            Self.collectStrings(try JSONSerialization.jsonObject(with: Data(contentsOf: vectors.appendingPathComponent(name)),
                                                                 options: [.fragmentsAllowed]), into: &strings)
            for string in Set(strings).sorted() where string.contains("/") && string.contains(" ") {
                try checker.check(string, at: "vectors/\(name)")
            }
        }
        // Doc comments and rule texts in Swift cite documents too; there only docs/ paths count (code builds other
        // relative paths on purpose).
        for top in ["Sources", "Tests"] {
            for file in Self.textFiles(under: top) where file.path.hasSuffix(".swift") {
                for (index, line) in Self.lines(file.text).enumerated() where line.contains("docs/") {
                    try checker.check(line, at: "\(file.path):\(index + 1)", onlyDocs: true)
                }
            }
        }
        #expect(checker.checked > 50, "only \(checker.checked) citations found: the patterns no longer match the documents")
        #expect(checker.problems.isEmpty, """
            \(checker.problems.count) citations do not resolve in the repository:
            \(checker.problems.prefix(200).joined(separator: "\n"))
            """)
    }

    /// The checks above catch what they are for: a missing file, a missing section, a broken relative link, a
    /// private note; and leave alone URLs, longer paths and sections that exist.
    @Test func theChecksCatchBrokenCitations() throws {
        func problems(_ text: String, linkBase: String? = nil) throws -> [String] {
            let checker = try CitationChecker()
            try checker.check(text, at: "example", linkBase: linkBase)
            return checker.problems
        }
        let document = "docs" + "/protocols/passkey-import.md"
        #expect(try problems("see \(document) §5.2 and §5.4, \(document) §9").isEmpty)
        #expect(try problems("see \(document) §5.9").count == 1)
        #expect(try problems("see \(document) §5.2, §12").count == 1)
        #expect(try problems("see " + "docs" + "/protocols/no-such-page.md §1").count == 1)
        #expect(try problems("run " + "scripts" + "/no-such-script first").count == 1)
        #expect(try problems("[map](../" + "apis" + "/no-such-map.json)", linkBase: "docs").count == 1)
        #expect(try problems("[map](../" + "apis" + "/fido.json)", linkBase: "docs").isEmpty)
        #expect(try problems("https://github.com/o/r/blob/main/" + "docs" + "/FIDO2/Server/README.md, attest-harness-" + "vectors/1").isEmpty)
        #expect(try problems("written by " + "scripts" + "/coverage.").isEmpty)

        let privateName = try NSRegularExpression(pattern: Self.privateNamePattern)
        for name in ["seeds/" + "001", "seed " + "003", "DESIGN" + ".md", "protocols" + ".md §4", "known" + "-bugs", "swift" + "-notes",
                     ".." + "/shared/spec"] {
            #expect(!Self.groups(privateName, in: "(see \(name))").isEmpty, "\(name) is not caught")
        }
        for harmless in ["--seed 42", "corpus seeds", "docs" + "/protocols/README.md", "design"] {
            #expect(Self.groups(privateName, in: harmless).isEmpty, "\(harmless) is caught")
        }
    }

    // MARK: Helpers

    /// Checks the repository paths texts cite and, given the folder a Markdown text lives in, its relative links;
    /// collects what does not resolve.
    final class CitationChecker {
        let citation: NSRegularExpression
        let section: NSRegularExpression
        let heading: NSRegularExpression
        let link: NSRegularExpression
        private(set) var checked = 0
        private(set) var problems: [String] = []
        private var headings: [String: Set<String>] = [:]

        init() throws {
            citation = try NSRegularExpression(pattern: SelfContainedDocsTests.citationPattern)
            section = try NSRegularExpression(pattern: SelfContainedDocsTests.sectionPattern)
            heading = try NSRegularExpression(pattern: SelfContainedDocsTests.headingPattern, options: [.anchorsMatchLines])
            link = try NSRegularExpression(pattern: SelfContainedDocsTests.linkPattern)
        }

        func check(_ text: String, at place: String, linkBase: String? = nil, onlyDocs: Bool = false) throws {
            let repository = SelfContainedDocsTests.repository
            for match in SelfContainedDocsTests.groups(citation, in: text) {
                guard let path = match[1], !onlyDocs || path.hasPrefix("docs/") else { continue }
                checked += 1
                let file = repository.appendingPathComponent(path)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
                    problems.append("\(place): \(path) does not exist")
                    continue
                }
                let sections = SelfContainedDocsTests.groups(section, in: match[2] ?? "").compactMap { $0[1] }
                guard !sections.isEmpty else { continue }
                guard path.hasSuffix(".md"), !isDirectory.boolValue else {
                    problems.append("\(place): \(path) is cited by section but is not a Markdown document")
                    continue
                }
                let numbers = try numberedHeadings(of: path)
                for number in sections where !numbers.contains(number) {
                    problems.append("\(place): \(path) has no heading numbered \(number) (cited as §\(number))")
                }
            }
            guard let linkBase else { return }
            for match in SelfContainedDocsTests.groups(link, in: text) {
                guard let target = match[1], !target.contains("://"), !target.hasPrefix("#"), !target.hasPrefix("mailto:"),
                      let file = target.split(separator: "#", omittingEmptySubsequences: false).first, !file.isEmpty else { continue }
                checked += 1
                let resolved = repository.appendingPathComponent(linkBase).appendingPathComponent(String(file)).standardizedFileURL
                if !FileManager.default.fileExists(atPath: resolved.path) {
                    problems.append("\(place): link target \(target) does not exist")
                }
            }
        }

        /// The section numbers of a Markdown document's numbered headings.
        func numberedHeadings(of path: String) throws -> Set<String> {
            if let known = headings[path] { return known }
            let text = try String(contentsOf: SelfContainedDocsTests.repository.appendingPathComponent(path), encoding: .utf8)
            let numbers = Set(SelfContainedDocsTests.groups(heading, in: text).compactMap { $0[1] })
            headings[path] = numbers
            return numbers
        }
    }

    /// Each match of `regex` in `text`, as its groups (0 is the whole match; nil for a group that did not take part).
    static func groups(_ regex: NSRegularExpression, in text: String) -> [[String?]] {
        let string = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: string.length)).map { match in
            (0..<match.numberOfRanges).map { index in
                let range = match.range(at: index)
                return range.location == NSNotFound ? nil : string.substring(with: range)
            }
        }
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static func collectStrings(_ value: Any, into strings: inout [String]) {
        if let string = value as? String {
            strings.append(string)
        } else if let array = value as? [Any] {
            for element in array { collectStrings(element, into: &strings) }
        } else if let object = value as? [String: Any] {
            for (key, element) in object {
                strings.append(key)
                collectStrings(element, into: &strings)
            }
        }
    }

    /// The UTF-8 text files at `relative` (a file, or a folder searched recursively), with their repository-relative
    /// paths; hidden folders (`.build`, `.venv`), caches and binary files are left out.
    static func textFiles(under relative: String) -> [(path: String, text: String)] {
        let top = repository.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: top.path, isDirectory: &isDirectory) else { return [] }
        var files: [(path: String, url: URL)] = []
        if isDirectory.boolValue {
            guard let walker = FileManager.default.enumerator(at: top, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
            let prefix = top.standardizedFileURL.resolvingSymlinksInPath().path + "/"
            for case let url as URL in walker {
                let name = url.lastPathComponent
                let folder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
                if name.hasPrefix(".") || name == "__pycache__" || name == "node_modules" {
                    if folder { walker.skipDescendants() }
                    continue
                }
                guard !folder else { continue }
                let full = url.standardizedFileURL.resolvingSymlinksInPath().path
                let inside = full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : url.lastPathComponent
                files.append((relative + "/" + inside, url))
            }
        } else {
            files = [(relative, top)]
        }
        return files.sorted { $0.path < $1.path }.compactMap { file in
            guard let data = try? Data(contentsOf: file.url), !data.contains(0),
                  let text = String(data: data, encoding: .utf8) else { return nil }
            return (file.path, text)
        }
    }
}
