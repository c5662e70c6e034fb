import AttestCrypto
import Foundation
import AttestTestSupport
import Testing

/// Our chain verification agrees with `openssl verify -attime` on valid and broken chains.
@Suite struct ChainVerifierTests {
    struct Chain: CustomTestStringConvertible {
        let name: String
        let anchor: X509Certificate
        let intermediates: [X509Certificate]
        let leaf: X509Certificate
        let time: Date
        /// The `X509_V_ERR_*` code OpenSSL should report, nil for a valid chain.
        let expectedError: Int32?
        var testDescription: String { name }
    }

    static func chains() throws -> [Chain] {
        let pki = try TestPKI()
        let root = try pki.root()
        let intermediate = try pki.intermediate()
        let now = TestPKI.epoch
        let attacker = try PrivateKey.derive(.ec(.p384), seed: KeyTests.seed, label: "attacker")
        return [
            Chain(name: "valid", anchor: root, intermediates: [intermediate], leaf: try pki.leaf(), time: now, expectedError: nil),
            Chain(name: "expired leaf", anchor: root, intermediates: [intermediate], leaf: try pki.leaf(),
                  time: now + 3 * TestPKI.day, expectedError: ChainVerificationError.certificateExpired),
            Chain(name: "leaf not yet valid", anchor: root, intermediates: [intermediate], leaf: try pki.leaf(),
                  time: now - 2 * TestPKI.day, expectedError: ChainVerificationError.certificateNotYetValid),
            Chain(name: "leaf signed by another key", anchor: root, intermediates: [intermediate],
                  leaf: try pki.leaf(signer: attacker), time: now, expectedError: ChainVerificationError.signatureFailure),
            Chain(name: "missing intermediate", anchor: root, intermediates: [], leaf: try pki.leaf(), time: now,
                  expectedError: ChainVerificationError.unableToGetIssuerLocally),
            Chain(name: "intermediate without CA", anchor: root, intermediates: [try pki.intermediate(ca: false)],
                  leaf: try pki.leaf(), time: now, expectedError: ChainVerificationError.invalidCA),
            // OpenSSL picks the trusted root by name, then the attacker's signature on the intermediate fails.
            Chain(name: "attacker root with the real subject", anchor: root,
                  intermediates: [try pki.intermediate(signer: attacker), try pki.root(key: attacker)],
                  leaf: try pki.leaf(), time: now, expectedError: ChainVerificationError.signatureFailure),
            Chain(name: "only the attacker root", anchor: try pki.root(key: attacker),
                  intermediates: [intermediate], leaf: try pki.leaf(), time: now,
                  expectedError: ChainVerificationError.signatureFailure),
            Chain(name: "self-signed leaf", anchor: root, intermediates: [], leaf: try pki.root(key: attacker), time: now,
                  expectedError: ChainVerificationError.selfSignedLeaf),
        ]
    }

    @Test(arguments: try chains())
    func agreesWithOpenSSLVerify(chain: Chain) throws {
        var ours: Int32?
        do {
            try ChainVerifier(trustAnchors: [chain.anchor]).verify(leaf: chain.leaf, intermediates: chain.intermediates,
                                                                    at: chain.time)
        } catch let error as ChainVerificationError {
            ours = error.code
        }
        #expect(ours == chain.expectedError)
        let cli = try OpenSSLCommandLine.verify(
            anchorsPEM: chain.anchor.pem, untrustedPEM: chain.intermediates.map(\.pem).joined(), leafPEM: chain.leaf.pem,
            at: chain.time)
        #expect(cli == (chain.expectedError.map { .error(code: $0) } ?? .ok))
    }
}
