import AttestCrypto
import Foundation
import AttestTestSupport
import Testing

/// The real Android chains verify with OpenSSL against the real Google roots at each chain's recorded validation
/// time; chains that chains.json records as failing `openssl verify`, or that end in a root Google does not use
/// for hardware attestation, fail. Our verdict and error code match the `openssl verify` command on the same
/// anchors.
@Suite struct RealAndroidChainTests {
    struct Entry: CustomTestStringConvertible, Sendable {
        let path: String
        let root: String
        let validationTime: String
        let opensslResult: String
        var testDescription: String { path }
    }

    static let hardwareRoots = [
        "google-hardware-attestation-root-1", "google-hardware-attestation-root-2", "google-hardware-attestation-root-3",
        "google-hardware-attestation-root-4", "google-key-attestation-ca1-ec",
    ]

    static func entries() throws -> [Entry] {
        let data = try Data(contentsOf: RealSamples.directory.appendingPathComponent("android/chains.json"))
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return list.compactMap { item in
            guard let path = item["path"] as? String, (item["certCount"] as? Int ?? 0) > 1 else { return nil }
            return Entry(path: path, root: item["root"] as? String ?? "", validationTime: item["validationTime"] as? String ?? "",
                         opensslResult: item["opensslVerifyAtValidationTime"] as? String ?? "")
        }
    }

    static func anchors(_ names: [String]) throws -> [X509Certificate] {
        try names.flatMap { try X509Certificate.parseChain(pem: RealSamples.text("roots/\($0).pem")) }
    }

    @Test func everyMultiCertificateChainIsCovered() throws {
        #expect(try Self.entries().count == 28)
    }

    @Test(arguments: try entries())
    func verifiesAgainstGoogleRoots(entry: Entry) throws {
        let text = try RealSamples.text(entry.path)
        let chain = try X509Certificate.parseChain(pem: text)
        let time = try #require(RealSamples.date(entry.validationTime))
        let anchors = try Self.anchors(Self.hardwareRoots)
        let shouldPass = Self.hardwareRoots.contains(entry.root) && entry.opensslResult == "OK"
        var ours: OpenSSLCommandLine.Verdict = .ok
        do {
            try ChainVerifier(trustAnchors: anchors).verify(leaf: chain[0], intermediates: Array(chain.dropFirst()), at: time)
        } catch let error as ChainVerificationError {
            ours = .error(code: error.code)
        } catch let error as AttestCryptoError {
            ours = .failure("\(error)")
        }
        #expect((ours == .ok) == shouldPass, "\(entry.path): \(ours); chains.json: root \(entry.root), \(entry.opensslResult)")
        let cli = try OpenSSLCommandLine.verify(
            anchorsPEM: anchors.map(\.pem).joined(), untrustedPEM: chain.dropFirst().map(\.pem).joined(),
            leafPEM: chain[0].pem, at: time)
        switch (ours, cli) {
        case (.failure, .failure):
            // OpenSSL 3.0 cannot load ML-DSA leaf keys; chains.json records the same decode error.
            #expect(entry.opensslResult.contains("decode error"))
        default:
            #expect(ours == cli, "\(entry.path)")
        }
    }

    @Test func softwareRootedChainsVerifyOnlyAgainstTheSoftwareRoots() throws {
        for entry in try Self.entries() where entry.root.hasPrefix("google-software-attestation-root") {
            let chain = try X509Certificate.parseChain(pem: RealSamples.text(entry.path))
            let time = try #require(RealSamples.date(entry.validationTime))
            try ChainVerifier(trustAnchors: try Self.anchors([entry.root]))
                .verify(leaf: chain[0], intermediates: Array(chain.dropFirst()), at: time)
        }
    }

    @Test func recordedTimesMatterAndExpiryIsEnforced() throws {
        // blueline chains were valid in 2018 under root 1, which expired on 2026-05-24.
        let chain = try X509Certificate.parseChain(pem: RealSamples.text("android/blueline/sdk28/TEE_EC_NONE.pem"))
        let verifier = ChainVerifier(trustAnchors: try Self.anchors(Self.hardwareRoots))
        try verifier.verify(leaf: chain[0], intermediates: Array(chain.dropFirst()), at: RealSamples.date("2018-09-28T23:40:35Z")!)
        #expect(throws: ChainVerificationError.self) {
            try verifier.verify(leaf: chain[0], intermediates: Array(chain.dropFirst()), at: RealSamples.date("2036-01-01T00:00:00Z")!)
        }
    }
}
