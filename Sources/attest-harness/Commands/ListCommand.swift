import AttestCatalogue
import AttestConformance
import AttestVerifiers
import Foundation

enum ListCommand: Command {
    static let name = "list"
    static let abstract = "List the catalogue's cases with their rule and expected verdict."
    static let usage = "[--profile P [--api MAP]] [--family F] [--format table|json] [--seed N]"
    static let options: [OptionSpec] = [
        OptionSpec(name: "profile", value: "P", help: "Only the cases of profile P (a built-in name or a JSON file); expectations under P."),
        OptionSpec(name: "family", value: "F", help: "Only the cases of evidence family F (app-attest)."),
        OptionSpec(name: "api", value: "MAP", help: "With --profile: only the map's family, each case marked with whether the API map MAP can deliver it and, if not, why (decided from the map alone, nothing sent)."),
        OptionSpec(name: "format", value: "FORMAT", help: "table (default) or json."),
        .seed,
    ]

    struct Entry: Codable {
        let id: String
        let family: FamilyName
        let rule: RuleID?
        /// The edition of the rule's source since which it holds (`WebAuthn Level 2`, `WebAuthn Level 3`), for
        /// sources published in editions.
        let since: String?
        let importance: Importance
        let description: String
        let expected: Verdict.Outcome?
        /// The public test-suite checks the case answers.
        let anchors: [String]?
        /// The public bugs and library faults the case would have caught.
        let references: [String]?
        /// For a negative case: the valid case whose acceptance proves its refusal.
        let control: String?
        /// With `--api`: whether that map can deliver the case, and why not.
        let throughMap: MapDelivery?
    }

    struct MapDelivery: Codable {
        let map: String
        let deliverable: Bool
        let reason: String?
    }

    static func run(_ arguments: Arguments) async throws -> Int32 {
        try arguments.rejectPositional()
        let format = arguments.value("format") ?? "table"
        guard ["table", "json"].contains(format) else { throw UsageError("bad format \"\(format)\"; expected table or json") }
        var profile = try arguments.value("profile").map(Selection.profile)
        let api = try arguments.value("api").map { path in
            guard let base = profile else { throw UsageError("--api goes with --profile P: a map delivers a profile's cases") }
            let map = try MapOptions.load(path, caCertificates: nil, realTime: false).map
            // The cases and their expectations are the ones a run through the map has: under the policy it states
            // (what the site's options add is known only to a run; `profile derive` writes it).
            profile = try SitePolicyProfile.stated(map, base: base)
            return map
        }
        var cases = try Selection.cases(profile: profile, seed: try arguments.seed())
        if let family = arguments.value("family") {
            let known = Set(BuiltinCatalogue.families.map { $0.name })
            guard known.contains(FamilyName(family)) else {
                throw UsageError("unknown family \"\(family)\"; families: \(known.sorted().map(\.rawValue).joined(separator: ", "))")
            }
            cases = cases.filter { $0.family == FamilyName(family) }
        }
        var delivery: [String: MapDelivery] = [:]
        if let map = api, let judged = profile {
            cases = cases.filter { $0.family == map.family }
            // Nothing is sent: the transport only names where requests would go.
            let driver = MapDriver(map: map, transport: HTTPMapTransport(baseURL: URL(fileURLWithPath: "/")), seed: try arguments.seed())
            for testCase in cases {
                let reason = try driver.undeliverable(testCase, profile: judged)
                delivery[testCase.id] = MapDelivery(map: map.name, deliverable: reason == nil, reason: reason)
            }
        }
        var since: [FamilyName: [RuleID: String]] = [:]
        for family in BuiltinCatalogue.families {
            since[family.name] = Dictionary(family.rules.compactMap { rule in rule.since.map { (rule.id, $0) } }, uniquingKeysWith: { first, _ in first })
        }
        let entries = cases.map { testCase in
            Entry(id: testCase.id, family: testCase.family, rule: testCase.rule,
                  since: testCase.rule.flatMap { since[testCase.family]?[$0] }, importance: testCase.importance,
                  description: testCase.description, expected: profile.map(testCase.expectedOutcome),
                  anchors: testCase.anchors.isEmpty ? nil : testCase.anchors,
                  references: testCase.references.isEmpty ? nil : testCase.references, control: testCase.control,
                  throughMap: delivery[testCase.id])
        }
        if format == "json" {
            try Output.write(String(decoding: try JSONEncoder.harness.encode(entries), as: UTF8.self) + "\n", to: nil)
            return 0
        }
        let idWidth = entries.map(\.id.count).max() ?? 0
        let ruleWidth = entries.map { ($0.rule?.rawValue ?? "valid").count }.max() ?? 0
        var lines = entries.map { entry in
            [entry.id.padding(toLength: idWidth, withPad: " ", startingAt: 0),
             (entry.rule?.rawValue ?? "valid").padding(toLength: ruleWidth, withPad: " ", startingAt: 0),
             entry.importance.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0),
             entry.expected?.rawValue ?? "",
             entry.throughMap.map { $0.deliverable ? "map: yes" : "map: no (\($0.reason ?? ""))" } ?? ""]
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        lines.append("\(entries.count) cases")
        try Output.write(lines.joined(separator: "\n") + "\n", to: nil)
        return 0
    }
}
