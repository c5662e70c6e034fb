import AttestAPIMap
import AttestCatalogue
import AttestConformance
import AttestVerifiers
import Foundation

/// `profile show NAME` prints a profile (built-in or a file) as the editable JSON a user profile is written in;
/// `profile derive --api MAP --verifier URL` writes the profile a site is judged by: the base profile under the
/// policy the map states and the site's own options say (docs/api-maps.md, "The site's policy").
enum ProfileCommand: Command {
    static let name = "profile"
    static let abstract = "Print a profile as an editable file (show NAME), or derive a deployed site's profile from its API map and its options (derive)."
    static let usage = "show NAME [--out FILE] | derive --api MAP --verifier URL [--profile P] [--cacert FILE] [--timeout SECONDS] [--seed N] [--out FILE]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "api", value: "MAP", help: "derive: the site's API map (its \"policy\" member)."),
        OptionSpec(name: "verifier", value: "URL", help: "derive: the site (http:// or https://), asked for its options when the map reads them."),
        OptionSpec(name: "profile", value: "P", help: "derive: the profile to start from (default webauthn-l3)."),
        OptionSpec(name: "cacert", value: "FILE", help: "derive: PEM CA certificates trusted for https instead of the system's."),
        OptionSpec(name: "timeout", value: "SECONDS", help: "derive: per-request limit (default 10)."),
        OptionSpec(name: "out", value: "FILE", help: "Write the profile to FILE instead of stdout."),
        .seed,
        .quiet,
    ]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        guard let subcommand = arguments.positional.first else { throw UsageError("profile needs show NAME or derive; see attest-harness help profile") }
        let profile: Profile
        switch subcommand {
        case "show":
            guard arguments.positional.count == 2 else { throw UsageError("profile show takes one profile name or file") }
            profile = try Selection.profile(arguments.positional[1])
        case "derive":
            guard arguments.positional.count == 1 else { throw UsageError("unexpected argument \"\(arguments.positional[1])\"") }
            let base = try Selection.profile(arguments.value("profile") ?? Profile.webAuthnL3.name)
            let api = try MapOptions.load(try arguments.required("api"), caCertificates: arguments.value("cacert"), realTime: false)
            guard api.map.policy != nil else { throw UsageError("the \(api.map.name) map states no policy (\"policy\"); see docs/api-maps.md") }
            let seed = try arguments.seed()
            let timeout = try arguments.number("timeout", default: 10, in: 0.01...3600, "seconds")
            guard let driver = try Selection.verifier(try arguments.required("verifier"), profile: base, timeout: timeout, seed: seed, api: api) as? MapDriver else {
                throw UsageError("profile derive asks a site through its map: --verifier http(s)://")
            }
            profile = try await SitePolicyProfile.derive(api.map, driver: driver, base: base, seed: seed)
            Output.note("attest-harness profile: \(SitePolicyProfile.summary(profile))\n")
        default:
            let suggestion = Suggestion.closest(to: subcommand, among: ["show", "derive"]).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError("unknown profile subcommand \"\(subcommand)\"\(suggestion); expected show or derive")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try Output.write(String(decoding: try encoder.encode(profile), as: UTF8.self) + "\n", to: arguments.value("out"))
        return 0
    }
}
