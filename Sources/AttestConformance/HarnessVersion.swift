/// attest-harness's version: printed by `attest-harness --version`, recorded in every JSON report, and the version
/// a consumer pins in `.package(url:from:)`. Semantic versioning: the catalogue's case ids, the exec and vector
/// documents and this module's public API change only with a new minor (before 1.0) or major version.
public enum HarnessVersion {
    public static let current = "0.3.0"
}
