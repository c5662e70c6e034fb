import Foundation

/// The `openssl` command line, as the independent judge in chain-verification differentials.
public enum OpenSSLCommandLine {
    /// Why the command line cannot serve as the judge: none on PATH, or one that is not OpenSSL 3 (macOS ships
    /// LibreSSL as /usr/bin/openssl; put Homebrew's openssl@3 first on PATH, as scripts/setup says).
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The first `openssl` on PATH, checked once to be OpenSSL 3.
    public static func executable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let found = path.split(separator: ":").map({ URL(fileURLWithPath: String($0)).appendingPathComponent("openssl") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Unavailable(description: "no openssl on PATH (\(path)); the tests need OpenSSL 3's command line")
        }
        let process = Process()
        process.executableURL = found
        process.arguments = ["version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard text.hasPrefix("OpenSSL 3.") else {
            throw Unavailable(description: "\(found.path) is \"\(text.trimmingCharacters(in: .whitespacesAndNewlines))\", "
                              + "not OpenSSL 3; put OpenSSL 3 first on PATH (on macOS: export PATH=\"$(brew --prefix openssl@3)/bin:$PATH\")")
        }
        return found
    }

    /// `openssl pkey -pubout -outform DER`: the SubjectPublicKeyInfo OpenSSL writes for a private key PEM.
    public static func publicKeyDER(ofPrivateKeyPEM pem: String) throws -> [UInt8] {
        try convert(privateKeyPEM: pem, arguments: ["pkey", "-pubout", "-outform", "DER"])
    }

    /// `openssl ARGUMENTS -in key.pem -out out`: what the command line writes for a private key PEM.
    public static func convert(privateKeyPEM pem: String, arguments: [String]) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pkey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("key.pem").path
        let output = directory.appendingPathComponent("out").path
        try pem.write(toFile: input, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments + ["-in", input, "-out", output]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let written = FileManager.default.contents(atPath: output) else {
            throw Unavailable(description: "openssl \(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
        }
        return [UInt8](written)
    }

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
        process.executableURL = try executable()
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
