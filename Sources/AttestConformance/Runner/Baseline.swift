import Foundation

extension RunReport {
    /// This report with `regressions` set: findings and errors whose case was passing (or absent) in `baseline`.
    /// A CI gate then fails only on what got worse.
    public func compared(with baseline: RunReport) -> RunReport {
        let known = Set(baseline.results.filter { $0.status != .pass }.map(\.caseId))
        var copy = self
        copy.regressions = results.filter { $0.status != .pass && !known.contains($0.caseId) }.map(\.caseId)
        return copy
    }

    /// Reads a report written with `--format json`.
    public static func load(from url: URL) throws -> RunReport {
        try JSONDecoder.harness.decode(RunReport.self, from: Data(contentsOf: url))
    }
}

extension JSONEncoder {
    /// Sorted keys, ISO 8601 dates, pretty printed: byte-identical output for identical input.
    package static var harness: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .base64
        return encoder
    }
}

extension JSONDecoder {
    package static var harness: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
