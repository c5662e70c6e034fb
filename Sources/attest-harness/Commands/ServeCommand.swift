import AttestConformance
import AttestReference
import Foundation
import AttestServer

enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the reference verifier over HTTP on 127.0.0.1 (attest-harness's verdict protocol)."
    static let usage = "--profile P [--port N] [--without RULE] [--api MAP [--seed N]] [--association VARIANT --app-id ID --package NAME --fingerprints HEX,...]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "profile", value: "P", help: "The policy the server enforces (a built-in name or a JSON file)."),
        OptionSpec(name: "port", value: "N", help: "Port on 127.0.0.1 (default 8787; 0 picks a free one)."),
        OptionSpec(name: "without", value: "RULE", help: "Serve a mutant that skips RULE (to see a client catch it)."),
        OptionSpec(name: "api", value: "MAP", help: "Also serve the API an API map describes on the other paths, in front of the reference verifier (apis/civiq.json with profile per-request-device-attestation, apis/striga.json with device-bound-passkey-import, apis/fido.json with webauthn-l3, or your own map)."),
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
            let api = try arguments.value("api").map { try MapOptions.load($0, caCertificates: nil, realTime: false).map }
            if let api, !profile.families.contains(api.family) {
                throw UsageError("the \(api.name) map serves the \(api.family) family, which profile \(profile.name) does not cover")
            }
            // A map that states its site's policy is emulated as that site: the reference judges by it.
            if let api { profile = try SitePolicyProfile.stated(api, base: profile) }
            server = try VerdictServer(profile: profile, port: port, association: association, api: api, seed: try arguments.seed())
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
