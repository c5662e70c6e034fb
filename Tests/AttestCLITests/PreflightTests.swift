import AttestCatalogue
import AttestConformance
import Foundation
import AttestServer
import Testing
import AttestVerifiers

/// `attest-harness preflight` against `serve --association` variants on loopback: the valid files pass every
/// check, and each broken form fails exactly the check that names it.
@Suite struct PreflightTests {
    static let appId = "A1B2C3D4E5.dev.attest-harness.example"
    static let packageName = "dev.attest_harness.example"
    static let fingerprints = ["5F:1C:4F:8C:BB:2A:1D:7C:F0:AB:8E:8E:2B:2F:7C:3A:4E:9D:4C:6A:0B:3F:2E:1D:9C:8B:7A:6F:5E:4D:3C:2B",
                               "11:22:33:44:55:66:77:88:99:00:AA:BB:CC:DD:EE:FF:11:22:33:44:55:66:77:88:99:00:AA:BB:CC:DD:EE:FF"]

    static let expectedFailures: [AssociationFiles.Variant: Set<String>] = [
        .valid: [], .aasaRedirect: ["aasa.status"], .aasaContentType: ["aasa.contentType"],
        .aasaExtensionOnly: ["aasa.status"], .aasaMissingApp: ["aasa.webcredentials"], .assetlinksNotJSON: ["assetlinks.json"],
        .assetlinksRelation: ["assetlinks.relation"], .assetlinksPackage: ["assetlinks.relation"],
        .assetlinksFingerprint: ["assetlinks.fingerprints"],
    ]

    @Test(arguments: AssociationFiles.Variant.allCases.map(\.rawValue))
    func eachBrokenFormFailsItsCheck(variant: String) async throws {
        let form = try #require(AssociationFiles.Variant(rawValue: variant))
        let server = try VerdictServer(profile: try #require(BuiltinCatalogue.profile(named: "step-up-signing")),
                                       association: AssociationFiles(appId: Self.appId, packageName: Self.packageName,
                                                                     fingerprints: Self.fingerprints, variant: form))
        defer { server.stop() }
        // Fingerprints given in lowercase without colons: the check compares normalized forms.
        let checks = await AssociationPreflight(origin: URL(string: "http://127.0.0.1:\(server.port)")!, appId: Self.appId,
                                          packageName: Self.packageName,
                                          fingerprints: Self.fingerprints.map { $0.replacingOccurrences(of: ":", with: "").lowercased() },
                                          timeout: 5).run()
        #expect(Set(checks.filter { !$0.passed }.map(\.id)) == Self.expectedFailures[form])
        if form == .aasaExtensionOnly || form == .aasaRedirect {
            #expect(checks.first { $0.id == "aasa.status" }?.detail.contains(".json extension") == true)
        }
    }

    @Test func commandExitsOneWithFindingsAndZeroWhenClean() throws {
        for (variant, status) in [(AssociationFiles.Variant.valid, Int32(0)), (.assetlinksFingerprint, 1)] {
            let server = try VerdictServer(profile: try #require(BuiltinCatalogue.profile(named: "step-up-signing")),
                                           association: AssociationFiles(appId: Self.appId, packageName: Self.packageName,
                                                                         fingerprints: Self.fingerprints, variant: variant))
            defer { server.stop() }
            let result = try CommandLineTests.run("preflight", "--rp-id", "login.example", "--origin", "http://127.0.0.1:\(server.port)",
                                                  "--app-id", Self.appId, "--package", Self.packageName,
                                                  "--fingerprints", Self.fingerprints.joined(separator: ","))
            #expect(result.status == status, "\(result.stdout)")
            #expect(result.stdout.contains(status == 0 ? "8 checks: 8 passed, 0 failed" : "FAIL assetlinks.fingerprints"))
        }
    }
}
