import AttestConformance
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--sarif-artifacts DIR` for `run` and `report`: which directory SARIF results point at, checked before anything
/// runs, and the evidence files written into it before the SARIF report that names them.
enum SARIFEvidenceFiles {
    static let option = OptionSpec(name: "sarif-artifacts", value: "DIR", help: "With --format sarif: write each located case's decoded evidence to DIR/CASE.txt (relative to the repository root) and point its result there, line 1 (default with a relative --out FILE and no --sarif-location: FILE's name without extension + -evidence, beside it).")

    /// The artifacts directory: the one named, else the default beside a relative `--out`; nil with another
    /// format, with `--sarif-location` (it points elsewhere), or without a relative `--out` (results keep the
    /// `ATTEST_HARNESS_CASES` base). Refused: with another format or `--sarif-location`, a path that is not
    /// relative, or one that exists and is not a directory.
    static func chosen(_ arguments: Arguments, format: ReportFormat, location: SARIFLocation?) throws -> SARIFArtifacts? {
        let artifacts: SARIFArtifacts
        if let text = arguments.value("sarif-artifacts") {
            guard format == .sarif else { throw UsageError("--sarif-artifacts goes with --format sarif") }
            guard location == nil else { throw UsageError("--sarif-artifacts and --sarif-location both say where results point; give one") }
            do {
                artifacts = try SARIFArtifacts(parsing: text)
            } catch {
                throw UsageError("--sarif-artifacts: \(error)")
            }
        } else {
            guard format == .sarif, location == nil, let out = arguments.value("out"), let beside = SARIFArtifacts.beside(out) else { return nil }
            artifacts = beside
        }
        var info = stat()
        if stat(artifacts.directory, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw UsageError("--sarif-artifacts: \(artifacts.directory) exists and is not a directory")
        }
        return artifacts
    }

    /// Writes the evidence file of every case SARIF locates, creating the directory (and missing parents) first.
    /// Existing files of those names are replaced as `--out` replaces a report (never a symlink's target changed
    /// into something else, never a directory); other files in the directory are left alone.
    static func write(_ artifacts: SARIFArtifacts, report: RunReport, evidence: [String: [EvidenceNode]]) throws {
        try makeDirectory(artifacts.directory)
        for result in SARIFArtifacts.located(report) {
            let text = SARIFArtifacts.text(for: result, in: report, evidence: evidence[result.caseId])
            do {
                try OutputFile.write(Array(text.utf8), to: artifacts.path(for: result.caseId))
            } catch {
                throw UsageError("--sarif-artifacts: \(error)")
            }
        }
    }

    /// `mkdir -p` that refuses a component that exists and is not a directory.
    private static func makeDirectory(_ path: String) throws {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty ? "" : "/") + component
            var info = stat()
            if stat(prefix, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else { throw UsageError("--sarif-artifacts: \(prefix) is not a directory") }
                continue
            }
            guard mkdir(prefix, 0o777) == 0 || errno == EEXIST else {
                throw UsageError("--sarif-artifacts: cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
        }
    }
}
