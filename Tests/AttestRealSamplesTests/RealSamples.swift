import AttestCrypto
import Foundation

/// The real device data copied from shared/real-samples (attribution in real-samples/README.md).
enum RealSamples {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("real-samples")

    static func text(_ path: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
    }

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent(path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    static func base64(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map(Array.init) }

    /// Every `.pem` file below the samples folder, as paths relative to it, sorted.
    static func pemFiles() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".pem") { paths.append(path) }
        }
        return paths.sorted()
    }

    static func appAttestSamples() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("appattest").path)
            .filter { $0.hasSuffix(".json") }.sorted().map { "appattest/" + $0 }
    }

    /// ISO 8601 with or without milliseconds, as the sample files write times.
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
