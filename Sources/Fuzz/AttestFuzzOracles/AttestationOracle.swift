import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import AttestForge

/// fuzz-attestation: the reference verifier, under the strict `apple-app-attest` profile, given attestation
/// objects in place of one genuine forged attestation, never crashes, and never accepts one whose signed bytes
/// (authData and the certificates) differ from the genuine original.
enum AttestationOracle {
    struct Baseline: @unchecked Sendable {
        let profile: Profile
        let context: CaseContext
        let keyId: [UInt8]
        let challenge: [UInt8]
        let original: [UInt8]
        let authData: [UInt8]
        let certificates: [CBORValue]

        init() throws {
            profile = .appleAppAttest
            struct Unexpected: Error {}
            guard let testCase = try BuiltinCatalogue.cases(for: profile, seed: 1).first(where: { $0.rule == nil }),
                  let step = testCase.steps.first, let keyId = step.inputs[.keyId], let challenge = step.inputs[.challenge],
                  let original = step.inputs[.attestationObject] else { throw Unexpected() }
            let object = try CBORReader.decode(original)
            guard let authData = object["authData"]?.bytesValue, let certificates = object["attStmt"]?["x5c"]?.arrayValue else {
                throw Unexpected()
            }
            context = testCase.context
            self.keyId = keyId
            self.challenge = challenge
            self.original = original
            self.authData = authData
            self.certificates = certificates
        }
    }

    static let baseline: Baseline = {
        do { return try Baseline() } catch { fatalError("cannot forge the fuzzing baseline: \(error)") }
    }()

    static func check(_ input: [UInt8]) -> String? {
        let step = VerifierStep(kind: .appAttestAttestation, inputs: [
            .attestationObject: input, .keyId: baseline.keyId, .challenge: baseline.challenge,
        ])
        let verdict: Verdict
        switch ReferenceVerdict.of(step, profile: baseline.profile, context: baseline.context) {
        case .failure(let failure): return failure.description
        case .success(let answer): verdict = answer
        }
        guard verdict.outcome == .accept else { return nil }
        guard let object = try? CBORReader.decode(input),
              object["authData"]?.bytesValue == baseline.authData,
              object["attStmt"]?["x5c"]?.arrayValue == baseline.certificates else {
            return "accepted an attestation whose signed bytes differ from the genuine original"
        }
        return nil
    }
}

/// The structure-aware mutation behind fuzz-attestation's `LLVMFuzzerCustomMutator`: decode the attestation
/// object, hand one field's bytes to libFuzzer's byte mutator, re-encode. Inputs that do not decode, and one
/// call in eight, are mutated as raw bytes, so CBOR framing is explored too.
public enum AttestationMutator {
    /// - Parameter byteMutator: mutates bytes in place within a size limit (libFuzzer's `LLVMFuzzerMutate`).
    public static func mutate(_ input: [UInt8], maxSize: Int, seed: UInt32,
                              byteMutator: (inout [UInt8], Int) -> Void) -> [UInt8] {
        var raw = input
        var options = CBORReader.Options()
        options.allowDuplicateMapKeys = true
        options.allowIndefiniteLengths = true
        guard seed % 8 != 0, case .map(var entries)? = try? CBORReader.decode(input, options: options) else {
            byteMutator(&raw, maxSize)
            return raw
        }
        // Fields: each top-level value that is not a map, and each value inside a map (attStmt's x5c, receipt).
        var fields: [(Int, Int?)] = []
        for (index, entry) in entries.enumerated() {
            if case .map(let statement) = entry.value {
                fields += statement.indices.map { (index, $0) }
            } else {
                fields.append((index, nil))
            }
        }
        guard !fields.isEmpty else {
            byteMutator(&raw, maxSize)
            return raw
        }
        let (top, inner) = fields[Int(seed / 8) % fields.count]
        func mutated(_ value: CBORValue) -> CBORValue {
            switch value {
            case .bytes(var bytes):
                byteMutator(&bytes, bytes.count + 64)
                return .bytes(bytes)
            case .text(let text):
                var bytes = Array(text.utf8)
                byteMutator(&bytes, bytes.count + 16)
                return .text(String(decoding: bytes, as: UTF8.self))
            case .array(var elements) where !elements.isEmpty:
                let pick = Int(seed / 64) % elements.count
                elements[pick] = mutated(elements[pick])
                return .array(elements)
            default:
                var bytes = CBORWriter.encode(value)
                byteMutator(&bytes, bytes.count + 16)
                return (try? CBORReader.decode(bytes)) ?? value
            }
        }
        if let inner, case .map(var statement) = entries[top].value {
            statement[inner].value = mutated(statement[inner].value)
            entries[top].value = .map(statement)
        } else {
            entries[top].value = mutated(entries[top].value)
        }
        let encoded = CBORWriter.encode(.map(entries), canonical: false)
        if encoded.count <= maxSize { return encoded }
        byteMutator(&raw, maxSize)
        return raw
    }
}
