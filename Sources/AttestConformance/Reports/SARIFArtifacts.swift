/// The evidence files SARIF results point at (`--sarif-artifacts DIR`): one plain-text file per located case (each
/// failing, unproven, fixed or harness-error case) with what the report says about it and its decoded evidence, in
/// a directory relative to the repository root, so that code scanning has a file to open and a line to annotate
/// (line 1, the case's own heading) and the upload artifact carries the evidence beside the report.
public struct SARIFArtifacts: Hashable, Sendable {
    /// The directory, relative to the repository root (the working directory of the run), without `..`.
    public let directory: String

    /// Parses DIR: a relative path without `..` segments, of at most 1024 bytes, without control characters.
    public init(parsing text: String) throws(SARIFLocationError) {
        var path = text
        while path.hasSuffix("/"), path.count > 1 { path.removeLast() }
        try SARIFLocation.checkRelative(path)
        directory = path
    }

    /// The artifacts beside a SARIF report written to `out` (`attest-harness.sarif` gives `attest-harness-evidence/`
    /// in the same directory), or nil when `out` is not a relative path a repository could hold.
    public static func beside(_ out: String) -> SARIFArtifacts? {
        let slash = out.lastIndex(of: "/")
        let name = slash.map { String(out[out.index(after: $0)...]) } ?? out
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) }.flatMap { $0.isEmpty ? nil : $0 } ?? name
        let parent = slash.map { String(out[...$0]) } ?? ""
        return try? SARIFArtifacts(parsing: parent + stem + "-evidence")
    }

    /// The results SARIF gives a location: failing (finding, hang, crash), unproven, fixed and harness errors.
    public static func located(_ report: RunReport) -> [CaseResult] {
        report.results.filter { $0.status.isFinding || $0.status == .crash || $0.status.isUnproven || $0.status == .error || $0.baseline == .fixed }
    }

    /// The file name of a case's evidence: its id percent-encoded as one path segment (so an id from a hostile
    /// suite cannot name another directory), shortened with a hash of the whole id past 200 bytes.
    public static func fileName(for caseId: String) -> String {
        let segment = SARIFReport.uriSegment(caseId)
        guard segment.utf8.count > 200 else { return segment + ".txt" }
        // FNV-1a of the whole id: only tells apart ids that share a 160-byte prefix, nothing rests on it.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in caseId.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(String.UnicodeScalarView(segment.unicodeScalars.prefix(160))) + "-" + String(repeating: "0", count: 16 - hex.count) + hex + ".txt"
    }

    /// The path of a case's file, relative to the repository root, as the SARIF `uri` (already percent-encoded).
    public func uri(for caseId: String) -> String {
        directory.split(separator: "/").map { SARIFReport.uriSegment(String($0)) }.joined(separator: "/") + "/" + Self.fileName(for: caseId)
    }

    /// The file path to write a case's evidence to.
    public func path(for caseId: String) -> String { directory + "/" + Self.fileName(for: caseId) }

    /// A case's file: its heading on line 1 (what the SARIF region points at), the report's explanation, and the
    /// decoded evidence as an indented tree (or why there is none). Every value is made displayable first.
    public static func text(for result: CaseResult, in report: RunReport, evidence: [EvidenceNode]?) -> String {
        var lines = ["\(result.caseId): \(result.status.rawValue)\(result.rule.map { " under \($0.rawValue)" } ?? " (a valid case)")"
                     + " · \(report.verifier) under profile \(report.profile), seed \(report.seed)"]
        lines.append(result.summary)
        lines += result.explanation(in: report)
        lines.append("")
        if let evidence, !evidence.isEmpty {
            lines.append("decoded evidence:")
            func walk(_ nodes: [EvidenceNode], depth: Int) {
                for node in nodes {
                    lines.append(String(repeating: "  ", count: depth + 1) + node.label + (node.value.map { ": " + $0 } ?? ""))
                    walk(node.children, depth: depth + 1)
                }
            }
            walk(evidence, depth: 0)
        } else {
            lines.append("decoded evidence: not available (the case was not forged by this run; `attest-harness forge --case \(result.caseId)` writes it)")
        }
        return lines.map(DisplayText.safe).joined(separator: "\n") + "\n"
    }
}
