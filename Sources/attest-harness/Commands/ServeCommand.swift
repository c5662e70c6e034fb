import Conformance
import Foundation
import Server

enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the reference verifier over HTTP on 127.0.0.1 (attest-harness's verdict protocol)."
    static let usage = "--profile P [--port N] [--without RULE]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "profile", value: "P", help: "The policy the server enforces (a built-in name or a JSON file)."),
        OptionSpec(name: "port", value: "N", help: "Port on 127.0.0.1 (default 8787; 0 picks a free one)."),
        OptionSpec(name: "without", value: "RULE", help: "Serve a mutant that skips RULE (to see a client catch it)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.rejectPositional()
        var profile = try Selection.profile(try arguments.required("profile"))
        if let rule = arguments.value("without") { profile = profile.without(RuleID(rule)) }
        let portText = arguments.value("port") ?? "8787"
        guard let port = UInt16(portText) else { throw UsageError("bad --port \"\(portText)\": expected 0 to 65535") }
        let server: VerdictServer
        do {
            server = try VerdictServer(profile: profile, port: port)
        } catch {
            throw UsageError("\(error)")
        }
        // The URL on stdout, alone on its line, so scripts and tests can read it; logs go to stderr.
        try Output.write("http://127.0.0.1:\(server.port)\n", to: nil)
        FileHandle.standardError.write(Data("attest-harness serve: \(profile.name) on http://127.0.0.1:\(server.port) (Ctrl-C stops)\n".utf8))
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        withExtendedLifetime(sources) { server.stop() }
        return 0
    }
}
