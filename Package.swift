// swift-tools-version: 6.0
import PackageDescription

/// attest-harness: conformance suites, forges and fuzzers for device-attestation verifiers.
///
/// Every module carries the `Attest` prefix (C modules `CAttest`), because ours live in other packages' graphs next to
/// swift-crypto (`Crypto`), swift-certificates (`X509`), swift-asn1 (`SwiftASN1`), SwiftCBOR, jwt-kit and Vapor.
/// The C libraries come from the system (`scripts/setup`: apt on Debian/Ubuntu, Homebrew on macOS); no outside Swift
/// packages are used.
let package = Package(
    name: "attest-harness",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "attest-harness", targets: ["attest-harness"]),
        // What a verifier team depends on: the conformance model and runner, the catalogue with its forge, the
        // reference verifier, and the adapters that reach verifiers outside the process.
        .library(name: "AttestHarness", targets: ["AttestConformance", "AttestEvidence", "AttestForge", "AttestCatalogue",
                                                  "AttestReference", "AttestAPIMap", "AttestVerifiers"]),
        // One call from XCTest or swift-testing: `try await expectConformance(of: MyVerifier(), profile: .appleAppAttest)`.
        .library(name: "AttestHarnessTesting", targets: ["AttestTesting"]),
        // The strict codecs and the OpenSSL-backed crypto, on their own.
        .library(name: "AttestDER", targets: ["AttestDER"]),
        .library(name: "AttestCBOR", targets: ["AttestCBOR"]),
        .library(name: "AttestCrypto", targets: ["AttestCrypto"]),
    ],
    targets: [
        // System libraries, wrapped by thin shim headers (function-like macros do not import into Swift).
        .systemLibrary(name: "CAttestOpenSSL", pkgConfig: "openssl",
                       providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(name: "CAttestLibCBOR", pkgConfig: "libcbor",
                       providers: [.apt(["libcbor-dev"]), .brew(["libcbor"])]),
        .systemLibrary(name: "CAttestMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        // posix_spawn for exec verifiers: own process group, clean signal mask, only stdio inherited.
        .target(name: "CAttestSpawn"),
        // C glue over libmicrohttpd (variadic start, per-chunk body callbacks) for `attest-harness serve`.
        .target(name: "CAttestHTTPServer", dependencies: ["CAttestMicroHTTPD"]),

        // Strict codecs: our own, because they are the product (strict readers, deliberately malformed writers).
        .target(name: "AttestDER"),
        .target(name: "AttestCBOR"),
        // libcbor as the independent reference decoder, for differential tests and fuzzing.
        .target(name: "AttestCBORReference", dependencies: ["AttestCBOR", "CAttestLibCBOR"]),

        // OpenSSL-backed digests, keys, signatures and X.509.
        .target(name: "AttestCrypto", dependencies: ["CAttestOpenSSL", "AttestDER", "AttestCBOR"]),

        // The generic conformance model: vocabulary, rules, profiles, cases, the verifier contract, runner, reports,
        // exec documents, vectors.
        .target(name: "AttestConformance"),
        // Wire formats shared by the forge and the verifiers, and each family's vocabulary (step kinds, input keys,
        // rule ids, documented statuses).
        .target(name: "AttestEvidence", dependencies: ["AttestConformance", "AttestCBOR", "AttestDER", "AttestCrypto"]),
        // Forged evidence, one folder per family, all derived from a seed.
        .target(name: "AttestForge", dependencies: ["AttestConformance", "AttestEvidence", "AttestCrypto", "AttestCBOR",
                                                    "AttestDER"]),
        // Rules, cases and built-in profiles of every family.
        .target(name: "AttestCatalogue", dependencies: ["AttestConformance", "AttestForge", "AttestEvidence",
                                                        "AttestCrypto", "AttestDER", "AttestCBOR"]),
        // The reference verifier: below the catalogue and the forge, it knows rules only by their ids.
        .target(name: "AttestReference", dependencies: ["AttestConformance", "AttestEvidence", "AttestCrypto",
                                                        "AttestDER", "AttestCBOR"]),
        // API maps: a server's routes and JSON described as data, read strictly, rendered into requests and read back.
        .target(name: "AttestAPIMap", dependencies: ["AttestConformance", "AttestCrypto", "AttestDER", "AttestCBOR"]),
        // Verifiers outside the process (exec, our verdict protocol, any API through its map) and the association
        // pre-flight.
        .target(name: "AttestVerifiers", dependencies: ["CAttestSpawn", "AttestHTTP", "AttestConformance", "AttestCatalogue", "AttestForge",
                                                        "AttestEvidence", "AttestCrypto", "AttestAPIMap"]),
        // The HTTP/1.1 client of live verifiers: one deadline, a hard size cap, no redirects, IPv6, TLS by OpenSSL.
        .target(name: "AttestHTTP", dependencies: ["CAttestOpenSSL"]),
        // The reference verifier over HTTP.
        .target(name: "AttestServer", dependencies: ["CAttestHTTPServer", "AttestConformance", "AttestEvidence",
                                                     "AttestCatalogue", "AttestReference", "AttestCrypto", "AttestAPIMap"]),
        // hunt: differential mutation of valid evidence across verifiers.
        .target(name: "AttestHunt", dependencies: ["AttestConformance", "AttestCatalogue", "AttestForge", "AttestEvidence",
                                                   "AttestCrypto", "AttestDER", "AttestCBOR"]),
        // The testing product: conformance as one assertion in a consumer's own tests.
        .target(name: "AttestTesting", dependencies: ["AttestConformance", "AttestCatalogue"]),
        // The command line.
        .executableTarget(name: "attest-harness", dependencies: ["CAttestSpawn", "AttestConformance", "AttestEvidence", "AttestCatalogue",
                                                                 "AttestReference", "AttestVerifiers", "AttestServer", "AttestHunt"]),
        // Measurements behind scripts/bench.
        .executableTarget(name: "AttestBenchmarks", dependencies: ["AttestConformance", "AttestCatalogue", "AttestForge",
                                                                   "AttestReference", "AttestCrypto", "AttestDER",
                                                                   "CAttestOpenSSL"]),

        // Fuzzing: the properties (shared with swift test's regression replay), libFuzzer entry points built
        // one at a time by scripts/fuzz, and the seed-corpus writer.
        .target(name: "AttestFuzzOracles",
                dependencies: ["AttestCBOR", "AttestCBORReference", "AttestDER", "AttestCrypto", "CAttestOpenSSL",
                               "AttestCatalogue", "AttestConformance", "AttestEvidence", "AttestForge", "AttestReference",
                               "AttestHunt"],
                path: "Sources/Fuzz/AttestFuzzOracles"),
        .target(name: "CAttestFuzzSupport", path: "Sources/Fuzz/CAttestFuzzSupport"),
        .executableTarget(name: "fuzz-cbor", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-cbor"),
        .executableTarget(name: "fuzz-der", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-der"),
        .executableTarget(name: "fuzz-x509", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-x509"),
        .executableTarget(name: "fuzz-keydescription", dependencies: ["AttestFuzzOracles"],
                          path: "Sources/Fuzz/fuzz-keydescription"),
        .executableTarget(name: "fuzz-attestation", dependencies: ["AttestFuzzOracles", "CAttestFuzzSupport"],
                          path: "Sources/Fuzz/fuzz-attestation"),
        .executableTarget(name: "fuzz-webauthn", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-webauthn"),
        .executableTarget(name: "fuzz-certificates", dependencies: ["AttestFuzzOracles", "CAttestFuzzSupport"],
                          path: "Sources/Fuzz/fuzz-certificates"),
        .executableTarget(name: "fuzz-differential", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-differential"),
        .executableTarget(name: "fuzz-corpus", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-corpus"),

        // Seeded generators, byte mutations and the openssl command line, shared by the tests.
        .target(name: "AttestTestSupport", path: "Tests/AttestTestSupport"),
        .testTarget(name: "AttestDERTests", dependencies: ["AttestDER", "AttestTestSupport"]),
        .testTarget(name: "AttestCBORTests", dependencies: ["AttestCBOR", "AttestCBORReference", "AttestTestSupport"]),
        .testTarget(name: "AttestCryptoTests", dependencies: ["AttestCrypto", "AttestDER", "AttestCBOR", "AttestTestSupport"]),
        .testTarget(name: "AttestCatalogueTests",
                    dependencies: ["AttestCatalogue", "AttestConformance", "AttestReference", "AttestVerifiers",
                                   "AttestTesting", "AttestForge", "AttestEvidence", "AttestCrypto", "AttestCBOR",
                                   "AttestDER", "AttestAPIMap"]),
        // The attest-harness binary end to end (built by `swift build`, found beside the test bundle).
        .testTarget(name: "AttestCLITests",
                    dependencies: ["attest-harness", "AttestConformance", "AttestEvidence", "AttestCrypto", "AttestHTTP",
                                   "AttestCatalogue", "AttestReference", "AttestVerifiers", "AttestServer", "AttestAPIMap"],
                    exclude: ["hostile_server.py", "flooding_server.py", "slow_clients.py", "idle_flood.py", "cookie_flood.py", "tls_proxy.py", "Schemas"]),
        .testTarget(name: "AttestHuntTests", dependencies: ["AttestHunt", "AttestCatalogue", "AttestConformance", "AttestEvidence",
                                                            "AttestReference"]),
        .testTarget(name: "AttestEvidenceTests", dependencies: ["AttestEvidence", "AttestDER"]),
        .testTarget(name: "AttestForgeTests", dependencies: ["AttestForge", "AttestEvidence", "AttestCrypto", "AttestCBOR",
                                                             "AttestDER", "CAttestOpenSSL"]),
        .testTarget(name: "AttestFuzzRegressionTests", dependencies: ["AttestFuzzOracles", "AttestCatalogue", "AttestEvidence", "AttestTestSupport",
                                                                      "AttestForge", "AttestReference", "AttestConformance", "AttestCrypto", "AttestDER"]),
        // Real device data (Tests/AttestRealSamplesTests/real-samples, with its README as attribution).
        .testTarget(
            name: "AttestRealSamplesTests",
            dependencies: ["AttestCrypto", "AttestDER", "AttestCBOR", "AttestTestSupport", "AttestCatalogue",
                           "AttestConformance", "AttestReference", "AttestForge", "AttestEvidence"],
            exclude: ["real-samples"]
        ),
        // The package as others see it: the example consumer and the name-clash consumer build against it, and
        // scripts/setup works on a simulated macOS.
        .testTarget(name: "AttestPackageTests", exclude: ["Fixtures"]),
    ]
)
