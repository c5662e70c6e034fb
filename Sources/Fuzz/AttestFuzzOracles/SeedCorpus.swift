import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import Foundation

/// The seed inputs of each target: forge output of every family's cases and the real samples.
public enum SeedCorpus {
    /// Inputs per target, from the catalogue (seed 1) and the real-samples folder.
    public static func inputs(realSamples: URL) throws -> [FuzzTarget: [[UInt8]]] {
        var cbor: [[UInt8]] = []
        var certificates: [[UInt8]] = []
        var attestations: [[UInt8]] = []
        var webAuthn: [[UInt8]] = []
        for testCase in try BuiltinCatalogue.allCases(seed: 1) {
            for step in testCase.steps {
                if testCase.family == WebAuthnFamily.name, let clientData = step.inputs[.clientDataJSON] { webAuthn.append(clientData) }
                for name in [InputKey.attestationObject, .assertion] {
                    guard let bytes = step.inputs[name] else { continue }
                    cbor.append(bytes)
                    if name == .attestationObject { attestations.append(bytes) }
                    if testCase.family == WebAuthnFamily.name, name == .attestationObject { webAuthn.append(bytes) }
                    let x5c = (try? CBORReader.decode(bytes))?["attStmt"]?["x5c"]?.arrayValue ?? []
                    certificates += x5c.compactMap(\.bytesValue)
                }
            }
        }
        let files = FileManager.default.enumerator(atPath: realSamples.path)?.allObjects as? [String] ?? []
        for path in files.sorted() {
            let url = realSamples.appendingPathComponent(path)
            if path.hasSuffix(".pem") {
                let documents = try PEMBlock.parseAll(String(contentsOf: url, encoding: .utf8))
                certificates += documents.filter { $0.label == "CERTIFICATE" }.map(\.der)
            } else if path.hasPrefix("webauthn/w3c-"), path.hasSuffix(".json"),
                      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
                      let registration = json["registration"] as? [String: Any] {
                // The W3C vectors: every format, the TPM structures and COSE keys of every algorithm.
                for key in ["attestationObject", "clientDataJSON"] {
                    if let bytes = bytes(fromHex: registration[key] as? String ?? "") { webAuthn.append(bytes) }
                }
            } else if path.hasPrefix("appattest/"), path.hasSuffix(".json"),
                      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] {
                let objects = [json["attestationObject"] as? String]
                    + (json["assertions"] as? [[String: Any]] ?? []).map { $0["assertion"] as? String }
                for case let text? in objects {
                    guard let data = Data(base64Encoded: text) else { continue }
                    cbor.append(Array(data))
                    if text == objects[0] { attestations.append(Array(data)) }
                }
            }
        }
        // DER beyond whole certificates: each certificate's extension values.
        let extensions = certificates.compactMap { try? CertificateFields(der: $0) }.flatMap { $0.extensions }
        let keyDescriptions = extensions.filter { $0.oid == KeyDescription.extensionOID }.map(\.value)
        return [.cbor: unique(cbor), .der: unique(certificates + extensions.map(\.value)), .x509: unique(certificates),
                .keyDescription: unique(keyDescriptions), .attestation: unique(attestations), .webAuthn: unique(webAuthn),
                .certificates: unique(CertificateOracle.seeds),
                .differential: unique(DifferentialOracle.seeds)]
    }

    static func unique(_ inputs: [[UInt8]]) -> [[UInt8]] {
        var seen = Set<[UInt8]>()
        return inputs.filter { seen.insert($0).inserted }
    }

    /// libFuzzer's naming: the input's hash (here SHA-256, 40 hex digits).
    public static func fileName(_ input: [UInt8]) -> String { String(hex(sha256(input)).prefix(40)) }
}
