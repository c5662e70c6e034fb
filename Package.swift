// swift-tools-version: 6.0
import PackageDescription

/// attest-harness: conformance suites, forges and fuzzers for device-attestation verifiers.
///
/// The C libraries come from Debian (`scripts/setup` installs them); no outside Swift packages are used.
let package = Package(
    name: "attest-harness",
    products: [
        .executable(name: "attest-harness", targets: ["attest-harness"]),
        .library(name: "AttestDER", targets: ["AttestDER"]),
        .library(name: "AttestCBOR", targets: ["AttestCBOR"]),
        .library(name: "AttestCrypto", targets: ["AttestCrypto"]),
    ],
    targets: [
        // System libraries, wrapped by thin shim headers (function-like macros do not import into Swift).
        .systemLibrary(name: "CAttestOpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CAttestLibCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        .systemLibrary(name: "CAttestMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // C glue over libmicrohttpd (variadic start, per-chunk body callbacks) for `attest-harness serve`.
        .target(name: "CAttestHTTPServer", dependencies: ["CAttestMicroHTTPD"]),

        // Strict codecs: our own, because they are the product (strict readers, deliberately malformed writers).
        .target(name: "AttestDER"),
        .target(name: "AttestCBOR"),
        // libcbor as the independent reference decoder, for differential tests and fuzzing.
        .target(name: "AttestCBORReference", dependencies: ["AttestCBOR", "CAttestLibCBOR"]),

        // OpenSSL-backed digests, keys, signatures and X.509.
        .target(name: "AttestCrypto", dependencies: ["CAttestOpenSSL", "AttestDER", "AttestCBOR"]),

        // Seeded generators, byte mutations and the openssl command line, shared by the tests.
        .target(name: "AttestTestSupport", path: "Tests/AttestTestSupport"),
        // Wire formats shared by the forge and the verifiers (authenticator data, App Attest constants).
        .target(name: "AttestEvidence", dependencies: ["AttestCBOR", "AttestDER", "AttestCrypto"]),
        // Forged evidence, one folder per family, all derived from a seed.
        .target(name: "AttestForge", dependencies: ["AttestEvidence", "AttestCrypto", "AttestCBOR", "AttestDER"]),
        // The generic conformance model: rules, profiles, cases, runner, reports, vectors.
        .target(name: "AttestConformance"),
        // Rules, cases and built-in profiles of every family.
        .target(name: "AttestCatalogue", dependencies: ["AttestConformance", "AttestForge", "AttestEvidence", "AttestCrypto", "AttestDER", "AttestCBOR"]),
        // The reference verifier and the adapters that reach other verifiers.
        .target(name: "AttestVerifiers", dependencies: ["AttestConformance", "AttestCatalogue", "AttestForge", "AttestEvidence", "AttestCrypto", "AttestDER", "AttestCBOR"]),
        // The reference verifier over HTTP.
        .target(name: "AttestServer", dependencies: ["CAttestHTTPServer", "AttestConformance", "AttestCatalogue", "AttestVerifiers"]),
        // The command line.
        .executableTarget(name: "attest-harness", dependencies: ["AttestConformance", "AttestCatalogue", "AttestVerifiers", "AttestServer"]),
        // Measurements behind scripts/bench.
        .executableTarget(name: "AttestBenchmarks", dependencies: ["AttestConformance", "AttestCatalogue", "AttestForge", "AttestVerifiers"]),

        // Fuzzing: the properties (shared with swift test's regression replay), libFuzzer entry points built
        // one at a time by scripts/fuzz, and the seed-corpus writer.
        .target(name: "AttestFuzzOracles", dependencies: ["AttestCBOR", "AttestCBORReference", "AttestDER", "AttestCrypto", "CAttestOpenSSL", "AttestCatalogue",
                                                     "AttestConformance", "AttestEvidence", "AttestForge", "AttestVerifiers"],
                path: "Sources/Fuzz/AttestFuzzOracles"),
        .target(name: "CAttestFuzzSupport", path: "Sources/Fuzz/CAttestFuzzSupport"),
        .executableTarget(name: "fuzz-cbor", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-cbor"),
        .executableTarget(name: "fuzz-der", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-der"),
        .executableTarget(name: "fuzz-x509", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-x509"),
        .executableTarget(name: "fuzz-keydescription", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-keydescription"),
        .executableTarget(name: "fuzz-attestation", dependencies: ["AttestFuzzOracles", "CAttestFuzzSupport"],
                          path: "Sources/Fuzz/fuzz-attestation"),
        .executableTarget(name: "fuzz-webauthn", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-webauthn"),
        .executableTarget(name: "fuzz-corpus", dependencies: ["AttestFuzzOracles"], path: "Sources/Fuzz/fuzz-corpus"),

        .testTarget(name: "AttestDERTests", dependencies: ["AttestDER", "AttestTestSupport"]),
        .testTarget(name: "AttestCBORTests", dependencies: ["AttestCBOR", "AttestCBORReference", "AttestTestSupport"]),
        .testTarget(name: "AttestCryptoTests", dependencies: ["AttestCrypto", "AttestDER", "AttestCBOR", "AttestTestSupport"]),
        .testTarget(name: "AttestCatalogueTests", dependencies: ["AttestCatalogue", "AttestConformance", "AttestVerifiers", "AttestForge", "AttestEvidence",
                                                            "AttestCrypto", "AttestCBOR", "AttestDER"]),
        // The attest-harness binary end to end (built by `swift build`, found beside the test bundle).
        .testTarget(name: "AttestCLITests", dependencies: ["attest-harness", "AttestConformance", "AttestCrypto", "AttestCatalogue", "AttestVerifiers", "AttestServer"],
                    exclude: ["hostile_server.py"]),
        .testTarget(name: "AttestEvidenceTests", dependencies: ["AttestEvidence", "AttestDER"]),
        .testTarget(name: "AttestForgeTests", dependencies: ["AttestForge", "AttestEvidence", "AttestCrypto", "AttestCBOR", "AttestDER", "CAttestOpenSSL"]),
        .testTarget(name: "AttestFuzzRegressionTests", dependencies: ["AttestFuzzOracles", "AttestCatalogue"]),
        // Real device data (Tests/RealSamplesTests/real-samples, with its README as attribution).
        .testTarget(
            name: "AttestRealSamplesTests",
            dependencies: ["AttestCrypto", "AttestDER", "AttestCBOR", "AttestTestSupport", "AttestCatalogue", "AttestConformance", "AttestVerifiers", "AttestForge",
                           "AttestEvidence"],
            exclude: ["real-samples"]
        ),
    ]
)
