import AttestConformance
import AttestReference
import Foundation
import AttestServer

enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the reference verifier over HTTP on 127.0.0.1 (attest-harness's verdict protocol)."
    static let usage = "--profile P [--port N] [--without RULE] [--api civiq|striga|fido [--seed N]] [--association VARIANT --app-id ID --package NAME --fingerprints HEX,...]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "profile", value: "P", help: "The policy the server enforces (a built-in name or a JSON file)."),
        OptionSpec(name: "port", value: "N", help: "Port on 127.0.0.1 (default 8787; 0 picks a free one)."),
        OptionSpec(name: "without", value: "RULE", help: "Serve a mutant that skips RULE (to see a client catch it)."),
        OptionSpec(name: "api", value: "NAME", help: "Also emulate a real API shape on the other paths: civiq (seeds/001, profile per-request-device-attestation) striga (seeds/000, profile device-bound-passkey-import) or fido (FIDO2 conformance server API, profile webauthn-l3)."),
        .seed,
        OptionSpec(name: "association", value: "VARIANT",
                   help: "Also publish /.well-known/ association files: " + AssociationFiles.Variant.allCases.map(\.rawValue).joined(separator: ", ") + "."),
        OptionSpec(name: "app-id", value: "ID", help: "With --association: the iOS app (TEAMID.bundle)."),
        OptionSpec(name: "package", value: "NAME", help: "With --association: the Android package."),
        OptionSpec(name: "fingerprints", value: "HEX,...", help: "With --association: the signing-certificate fingerprints."),
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        var profile = try Selection.profile(try arguments.required("profile"))
        if let rule = arguments.value("without").map({ RuleID($0) }) {
            guard profile.enforces(rule) else {
                throw UsageError("profile \(profile.name) does not enforce rule \"\(rule)\"; see attest-harness list --profile \(profile.name)")
            }
            profile = profile.without(rule)
        }
        let portText = arguments.value("port") ?? "8787"
        guard let port = UInt16(portText) else { throw UsageError("bad --port \"\(portText)\": expected 0 to 65535") }
        var association: AssociationFiles?
        if let variantText = arguments.value("association") {
            guard let variant = AssociationFiles.Variant(rawValue: variantText) else {
                throw UsageError("bad --association \"\(variantText)\": expected one of \(AssociationFiles.Variant.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            association = AssociationFiles(appId: try arguments.required("app-id"), packageName: try arguments.required("package"),
                                           fingerprints: (arguments.value("fingerprints") ?? "").split(separator: ",").map(String.init),
                                           variant: variant)
        }
        let server: VerdictServer
        do {
            var civiqSeed: UInt64?, strigaSeed: UInt64?, fidoSeed: UInt64?
            switch arguments.value("api") {
            case nil: break
            case "civiq": civiqSeed = try arguments.seed()
            case "striga": strigaSeed = try arguments.seed()
            case "fido": fidoSeed = try arguments.seed()
            case let other?: throw UsageError("bad --api \"\(other)\": expected civiq, striga or fido")
            }
            server = try VerdictServer(profile: profile, port: port, association: association, civiqSeed: civiqSeed,
                                       strigaSeed: strigaSeed, fidoSeed: fidoSeed)
        } catch {
            throw UsageError("\(error)")
        }
        // The URL on stdout, alone on its line, so scripts and tests can read it; logs go to stderr.
        try Output.write("http://127.0.0.1:\(server.port)\n", to: nil)
        Output.standardError("attest-harness serve: \(profile.name) on http://127.0.0.1:\(server.port) (Ctrl-C stops)\n")
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
