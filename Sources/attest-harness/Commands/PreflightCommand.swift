import AttestConformance
import Foundation
import AttestVerifiers

enum PreflightCommand: Command {
    static let name = "preflight"
    static let abstract = "Check the association files a passkey relying party publishes (apple-app-site-association, assetlinks.json)."
    static let usage = "--rp-id HOST [--origin URL] [--app-id TEAMID.BUNDLE] [--package NAME] [--fingerprints HEX,...] [--format console|json] [--timeout SECONDS]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "rp-id", value: "HOST", help: "The relying party id; the files are fetched from https://HOST/.well-known/."),
        OptionSpec(name: "origin", value: "URL", help: "Fetch from this origin instead (a staging or loopback server)."),
        OptionSpec(name: "app-id", value: "ID", help: "The iOS app, TEAMID.bundle, that webcredentials.apps must list."),
        OptionSpec(name: "package", value: "NAME", help: "The Android package that must be granted get_login_creds."),
        OptionSpec(name: "fingerprints", value: "HEX,...", help: "Every SHA-256 signing-certificate fingerprint (Play App Signing and upload keys)."),
        OptionSpec(name: "format", value: "FORMAT", help: "console (default) or json."),
        OptionSpec(name: "timeout", value: "SECONDS", help: "Per-request limit (default 10)."),
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        let rpId = try arguments.required("rp-id")
        let originText = arguments.value("origin") ?? "https://\(rpId)"
        guard let origin = URL(string: originText), origin.scheme == "https" || origin.scheme == "http" else {
            throw UsageError("bad --origin \"\(originText)\": expected an http(s) URL")
        }
        let appId = arguments.value("app-id"), packageName = arguments.value("package")
        guard appId != nil || packageName != nil else { throw UsageError("give --app-id, --package or both") }
        let timeout = try arguments.number("timeout", default: 10, in: 0.01...3600, "seconds")
        let fingerprints = (arguments.value("fingerprints") ?? "").split(separator: ",").map(String.init)
        let checks = await AssociationPreflight(origin: origin, appId: appId, packageName: packageName, fingerprints: fingerprints,
                                          timeout: timeout).run()
        switch arguments.value("format") ?? "console" {
        case "console":
            let lines = checks.map { "\($0.passed ? "PASS" : "FAIL") \($0.id): \($0.detail)" }
            let failed = checks.filter { !$0.passed }.count
            try Output.write((lines + ["", "\(checks.count) checks: \(checks.count - failed) passed, \(failed) failed"]).joined(separator: "\n") + "\n", to: nil)
        case "json":
            try Output.write(String(decoding: try JSONEncoder.harness.encode(checks), as: UTF8.self) + "\n", to: nil)
        case let other:
            throw UsageError("bad --format \"\(other)\": expected console or json")
        }
        return checks.allSatisfy(\.passed) ? 0 : 1
    }
}
