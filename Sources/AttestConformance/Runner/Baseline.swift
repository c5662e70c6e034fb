import Foundation

/// Why a report cannot serve as the baseline of a run: it judged other cases or other expectations, so comparing
/// would hide findings (a baseline of another profile masks what this profile expects) or invent them.
public enum BaselineMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    case notAReport(String)
    case formatVersion(found: Int, expected: Int)
    case profile(baseline: String, run: String)
    case catalogue(baseline: String?, run: String)

    public var description: String {
        let text: String
        switch self {
        case .notAReport(let reason): text = "not a JSON report of attest-harness run: \(reason)"
        case .formatVersion(let found, let expected):
            text = "report format version \(found), this attest-harness reads version \(expected); regenerate the baseline with this version"
        case .profile(let baseline, let run):
            text = "the baseline ran under profile \(baseline), this run under \(run); pass --baseline-any-profile to compare anyway"
        case .catalogue(let baseline, let run):
            text = "the baseline's catalogue is \(baseline ?? "unrecorded"), this run's is \(run); regenerate the baseline with this version, or pass --baseline-any-profile to compare anyway"
        }
        return DisplayText.safe(text)
    }
}

extension RunReport {
    /// Reads a report written with `--format json`, refusing other documents and other format versions.
    public static func load(from url: URL) throws -> RunReport {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw BaselineMismatch.notAReport("cannot read it: \(error.localizedDescription)")
        }
        return try decode(data)
    }

    /// Decodes a report, refusing other documents and other format versions.
    public static func decode(_ data: Data) throws -> RunReport {
        struct Header: Decodable { let format: String?; let formatVersion: Int? }
        guard let header = try? JSONDecoder.harness.decode(Header.self, from: data) else {
            throw BaselineMismatch.notAReport("not a JSON object")
        }
        guard header.format == formatName else {
            throw BaselineMismatch.notAReport("its \"format\" is \(header.format.map { "\"\($0)\"" } ?? "missing"), not \"\(formatName)\"")
        }
        guard header.formatVersion == currentFormatVersion else {
            throw BaselineMismatch.formatVersion(found: header.formatVersion ?? 0, expected: currentFormatVersion)
        }
        do {
            return try JSONDecoder.harness.decode(RunReport.self, from: data)
        } catch {
            throw BaselineMismatch.notAReport("\(error)")
        }
    }

    /// Throws unless `self`, as a baseline, judged the same cases with the same expectations as a run under
    /// `profile` with catalogue `catalogue`.
    public func checkBaseline(profile: String, catalogue: String) throws {
        guard self.profile == profile else { throw BaselineMismatch.profile(baseline: self.profile, run: profile) }
        guard self.catalogue == catalogue else { throw BaselineMismatch.catalogue(baseline: self.catalogue, run: catalogue) }
    }

    /// This report with every result marked against `baseline`: a failure is known when the baseline failed the
    /// same case the same way (a finding or hang, a crash, or a harness error), else new; a pass is fixed when the baseline
    /// failed the case. The exit status then counts only new failures.
    public func compared(with baseline: RunReport) -> RunReport {
        var before: [String: CaseResult.Status] = [:]
        for result in baseline.results { before[result.caseId] = result.status }
        func sameFailure(_ now: CaseResult.Status, _ then: CaseResult.Status?) -> Bool {
            guard let then else { return false }
            return (now.isFinding && then.isFinding) || now == then
        }
        var copy = self
        for index in copy.results.indices {
            let result = copy.results[index]
            if result.status.isFailure {
                copy.results[index].baseline = sameFailure(result.status, before[result.caseId]) ? .known : .new
            } else if result.status == .pass, before[result.caseId]?.isFailure == true {
                copy.results[index].baseline = .fixed
            } else {
                copy.results[index].baseline = nil
            }
        }
        func ids(_ state: CaseResult.BaselineState) -> [String] { copy.results.filter { $0.baseline == state }.map(\.caseId) }
        copy.baseline = BaselineSummary(profile: baseline.profile, catalogue: baseline.catalogue, seed: baseline.seed,
                                        harnessVersion: baseline.harnessVersion, new: ids(.new), known: ids(.known),
                                        fixed: ids(.fixed))
        return copy
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
