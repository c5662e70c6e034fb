// swift-tools-version: 6.0
import PackageDescription

/// attest-harness: conformance suites, forges and fuzzers for device-attestation verifiers.
///
/// The C libraries come from Debian (`scripts/setup` installs them); no outside Swift packages are used.
let package = Package(
    name: "attest-harness",
    products: [
        .executable(name: "attest-harness", targets: ["attest-harness"]),
        .library(name: "DER", targets: ["DER"]),
        .library(name: "CBOR", targets: ["CBOR"]),
        .library(name: "Crypto", targets: ["Crypto"]),
    ],
    targets: [
        // System libraries, wrapped by thin shim headers (function-like macros do not import into Swift).
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // C glue over libmicrohttpd (variadic start, per-chunk body callbacks) for `attest-harness serve`.
        .target(name: "CHTTPServer", dependencies: ["CMicroHTTPD"]),

        // Strict codecs: our own, because they are the product (strict readers, deliberately malformed writers).
        .target(name: "DER"),
        .target(name: "CBOR"),
        // libcbor as the independent reference decoder, for differential tests and fuzzing.
        .target(name: "CBORReference", dependencies: ["CBOR", "CLibCBOR"]),

        // OpenSSL-backed digests, keys, signatures and X.509.
        .target(name: "Crypto", dependencies: ["COpenSSL", "DER", "CBOR"]),

        // Seeded generators, byte mutations and the openssl command line, shared by the tests.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Wire formats shared by the forge and the verifiers (authenticator data, App Attest constants).
        .target(name: "Evidence", dependencies: ["CBOR", "DER", "Crypto"]),
        // Forged evidence, one folder per family, all derived from a seed.
        .target(name: "Forge", dependencies: ["Evidence", "Crypto", "CBOR", "DER"]),
        // The generic conformance model: rules, profiles, cases, runner, reports, vectors.
        .target(name: "Conformance"),
        // Rules, cases and built-in profiles of every family.
        .target(name: "Catalogue", dependencies: ["Conformance", "Forge", "Evidence", "Crypto", "DER", "CBOR"]),
        // The reference verifier and the adapters that reach other verifiers.
        .target(name: "Verifiers", dependencies: ["Conformance", "Catalogue", "Forge", "Evidence", "Crypto", "DER", "CBOR"]),
        // The reference verifier over HTTP.
        .target(name: "Server", dependencies: ["CHTTPServer", "Conformance", "Catalogue", "Verifiers"]),
        // The command line.
        .executableTarget(name: "attest-harness", dependencies: ["Conformance", "Catalogue", "Verifiers", "Server"]),
        // Measurements behind scripts/bench.
        .executableTarget(name: "Benchmarks", dependencies: ["Conformance", "Catalogue", "Forge", "Verifiers"]),

        // Fuzzing: the properties (shared with swift test's regression replay), libFuzzer entry points built
        // one at a time by scripts/fuzz, and the seed-corpus writer.
        .target(name: "FuzzOracles", dependencies: ["CBOR", "CBORReference", "DER", "Crypto", "COpenSSL", "Catalogue",
                                                     "Conformance", "Evidence", "Forge", "Verifiers"],
                path: "Sources/Fuzz/FuzzOracles"),
        .target(name: "CFuzzSupport", path: "Sources/Fuzz/CFuzzSupport"),
        .executableTarget(name: "fuzz-cbor", dependencies: ["FuzzOracles"], path: "Sources/Fuzz/fuzz-cbor"),
        .executableTarget(name: "fuzz-der", dependencies: ["FuzzOracles"], path: "Sources/Fuzz/fuzz-der"),
        .executableTarget(name: "fuzz-x509", dependencies: ["FuzzOracles"], path: "Sources/Fuzz/fuzz-x509"),
        .executableTarget(name: "fuzz-keydescription", dependencies: ["FuzzOracles"], path: "Sources/Fuzz/fuzz-keydescription"),
        .executableTarget(name: "fuzz-attestation", dependencies: ["FuzzOracles", "CFuzzSupport"],
                          path: "Sources/Fuzz/fuzz-attestation"),
        .executableTarget(name: "fuzz-webauthn", dependencies: ["FuzzOracles"], path: "Sources/Fuzz/fuzz-webauthn"),
        .executableTarget(name: "fuzz-corpus", dependencies: ["FuzzOracles"], path: "Sources/Fuzz/fuzz-corpus"),

        .testTarget(name: "DERTests", dependencies: ["DER", "TestSupport"]),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "CBORReference", "TestSupport"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "DER", "CBOR", "TestSupport"]),
        .testTarget(name: "CatalogueTests", dependencies: ["Catalogue", "Conformance", "Verifiers", "Forge", "Evidence",
                                                            "Crypto", "CBOR", "DER"]),
        // The attest-harness binary end to end (built by `swift build`, found beside the test bundle).
        .testTarget(name: "CLITests", dependencies: ["attest-harness", "Conformance", "Crypto", "Catalogue", "Verifiers", "Server"],
                    exclude: ["hostile_server.py"]),
        .testTarget(name: "EvidenceTests", dependencies: ["Evidence", "DER"]),
        .testTarget(name: "ForgeTests", dependencies: ["Forge", "Evidence", "Crypto", "CBOR", "DER", "COpenSSL"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzOracles", "Catalogue"]),
        // Real device data (Tests/RealSamplesTests/real-samples, with its README as attribution).
        .testTarget(
            name: "RealSamplesTests",
            dependencies: ["Crypto", "DER", "CBOR", "TestSupport", "Catalogue", "Conformance", "Verifiers", "Forge",
                           "Evidence"],
            exclude: ["real-samples"]
        ),
    ]
)
