import AttestCatalogue
import AttestConformance
import Foundation

/// `report FILE --format F`: a saved JSON report in another format, so that one run feeds every dashboard (the
/// GitHub Action renders SARIF, JUnit, HTML and Markdown from one `run --format json`). The HTML page's decoded
/// evidence (and that of SARIF's evidence files) is forged again from the report's profile and seed (deterministic),
/// when the profile is known.
enum ReportCommand: Command {
    static let name = "report"
    static let abstract = "Render a JSON report of `run` in another format (console, json, junit, markdown, sarif, html)."
    static let usage = "FILE --format FORMAT [--sarif-location PATH[:LINE] | --sarif-artifacts DIR] [--out FILE] [--profile P] [--color WHEN] [--quiet]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "format", value: "FORMAT", help: "console, json, junit, markdown, sarif or html."),
        OptionSpec(name: "out", value: "FILE", help: "Write the report to FILE instead of stdout."),
        OptionSpec(name: "sarif-location", value: "PATH[:LINE]", help: "With --format sarif: point every result at this file of the verifier under test (relative to the repository root) and line, for code scanning to annotate (default: the case, under the ATTEST_HARNESS_CASES base, line 1)."),
        SARIFEvidenceFiles.option,
        OptionSpec(name: "profile", value: "P", help: "For html and SARIF evidence files: the profile file the run used, when it is not a built-in profile (to forge the evidence shown)."),
        .color,
        .quiet,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        guard arguments.positional.count == 1, let path = arguments.positional.first else {
            throw UsageError("expected one JSON report file: attest-harness report \(usage)")
        }
        let format: ReportFormat
        do {
            format = try ReportFormat.named(try arguments.required("format"))
        } catch let error as ReportFormatError {
            throw UsageError("\(error)")
        }
        let sarifLocation = try RunCommand.sarifLocation(arguments, format: format)
        let sarifArtifacts = try SARIFEvidenceFiles.chosen(arguments, format: format, location: sarifLocation)
        let report = try ReportFile.load(path, role: "report")
        var evidence: [String: [EvidenceNode]] = [:]
        if format == .html || sarifArtifacts != nil {
            let profile = try arguments.value("profile").map(Selection.profile) ?? BuiltinCatalogue.profile(named: report.profile)
            if let profile, profile.name != report.profile {
                Output.note("attest-harness report: the report ran under profile \(report.profile), not \(profile.name); the \(format == .html ? "page shows" : "evidence files show") no decoded evidence\n")
            } else if let profile {
                let cases = try Selection.cases(profile: profile, seed: report.seed)
                if BuiltinCatalogue.version(of: cases, under: profile) == report.catalogue {
                    evidence = EvidenceTree.evidence(for: cases, in: report)
                } else {
                    Output.note("attest-harness report: the report's catalogue \(report.catalogue ?? "unrecorded") is not this profile's under this version; the \(format == .html ? "page shows" : "evidence files show") no decoded evidence\n")
                }
            } else {
                Output.note("attest-harness report: profile \(report.profile) is not built in (pass --profile FILE); the \(format == .html ? "page shows" : "evidence files show") no decoded evidence\n")
            }
        }
        let wanted = try arguments.color(terminal: Output.colorOnStdout)
        let color = format == .console && arguments.value("out") == nil && wanted
        let text = try format.render(report, evidence: evidence, color: color, sarifLocation: sarifLocation, sarifArtifacts: sarifArtifacts)
        if let sarifArtifacts { try SARIFEvidenceFiles.write(sarifArtifacts, report: report, evidence: evidence) }
        try Output.write(text, to: arguments.value("out"))
        return 0
    }
}

/// Reading a JSON report the user named (a baseline, or one to render): a regular file of bounded size, refused with
/// one line otherwise.
enum ReportFile {
    /// Larger reports are refused before reading: a JSON report of the largest built-in profile (webauthn-l3, every
    /// case with its reproduce lines) is about 1 MiB, one driven through an API map with every request a few MiB,
    /// and decoding costs about twenty times a report's size in memory.
    static let sizeLimit = 32 << 20

    static func load(_ path: String, role: String) throws -> RunReport {
        guard !path.isEmpty else { throw UsageError("the \(role) file name is empty") }
        var info = stat()
        guard stat(path, &info) == 0 else { throw UsageError("no such \(role) file \(path)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw UsageError("\(role) \(path) is not a regular file") }
        guard info.st_size <= sizeLimit else { throw UsageError("\(role) \(path) is larger than \(sizeLimit >> 20) MiB") }
        do {
            return try RunReport.load(from: URL(fileURLWithPath: path))
        } catch {
            throw UsageError("\(role) \(path): \(error)")
        }
    }
}


