import Foundation

/// The `openssl` command line, as the independent judge in chain-verification differentials.
public enum OpenSSLCommandLine {
    public enum Verdict: Hashable, Sendable {
        case ok
        /// `error N at D depth lookup: …`
        case error(code: Int32)
        /// Anything else, such as a certificate the command cannot load.
        case failure(String)
    }

    /// `openssl verify -no-CApath -no-CAstore -attime T -CAfile anchors [-untrusted chain] leaf`.
    public static func verify(anchorsPEM: String, untrustedPEM: String, leafPEM: String, at time: Date) throws -> Verdict {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        var arguments = ["verify", "-no-CApath", "-no-CAstore", "-attime", String(Int(time.timeIntervalSince1970)),
                         "-CAfile", try write("anchors.pem", anchorsPEM)]
        if !untrustedPEM.isEmpty { arguments += ["-untrusted", try write("untrusted.pem", untrustedPEM)] }
        arguments.append(try write("leaf.pem", leafPEM))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 0 { return .ok }
        guard let range = text.range(of: #"error (\d+) at"#, options: .regularExpression),
              let code = Int32(text[range].split(separator: " ")[1]) else { return .failure(text) }
        return .error(code: code)
    }
}
