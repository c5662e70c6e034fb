// swift-tools-version: 6.0
import PackageDescription

/// A team's own step-up approval server code, tested against attest-harness's step-up-signing catalogue.
///
/// Outside this repository, depend on attest-harness by URL instead (wherever you clone it from):
///     .package(url: "https://github.com/attest-harness/attest-harness", from: "0.3.0")
let package = Package(
    name: "VerifierUnderTest",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "attest-harness", path: "../.."),
    ],
    targets: [
        // The production code: what the server checks when a device approves an action.
        .target(name: "StepUpApprovals", dependencies: [
            .product(name: "AttestCrypto", package: "attest-harness"),
        ]),
        // Its conformance test: the catalogue through the testing product.
        .testTarget(name: "StepUpApprovalsTests", dependencies: [
            "StepUpApprovals",
            .product(name: "AttestHarness", package: "attest-harness"),
            .product(name: "AttestHarnessTesting", package: "attest-harness"),
        ]),
    ]
)
