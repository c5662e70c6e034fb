import AttestConformance
import AttestCrypto

extension BuiltinCatalogue {
    /// The catalogue a run under `profile` draws from, as reports record it: the harness version and the first 12
    /// hex digits of SHA-256 over the profile's parameters (they shape the evidence: app id, team, anchors) and every
    /// case id with its rule and expected verdict under `profile`, one per line, in catalogue order
    /// (`0.3.0+1f2e3d4c5b6a`). Pass the profile's whole catalogue, before any `--filter`, so a
    /// filtered run and a full baseline agree. The seed changes evidence bytes, not this.
    public static func version(of cases: [Case], under profile: Profile) -> String {
        var text = ""
        for (name, value) in profile.parameters.sorted(by: { $0.key < $1.key }) { text += "parameter \(name)=\(value)\n" }
        for testCase in cases {
            text += "\(testCase.id) \(testCase.rule?.rawValue ?? "valid") \(testCase.expectedOutcome(under: profile).rawValue)\n"
        }
        let digest = sha256(Array(text.utf8)).prefix(6)
        return HarnessVersion.current + "+" + digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
