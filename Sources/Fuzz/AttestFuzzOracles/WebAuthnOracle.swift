import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestReference
import AttestCrypto
import AttestEvidence

/// fuzz-webauthn: the WebAuthn parsers that read untrusted bytes (COSE_Key, clientDataJSON, the TPM structures)
/// never crash on any input; and the reference verifier, under the strict `webauthn-l3` profile, given attestation
/// objects in place of a genuine packed registration, never crashes and never accepts one whose signed parts
/// (authData, the statement's sig and x5c) differ from every genuine registration for that clientDataJSON (the
/// valid packed and apple cases share it, so either may be accepted).
enum WebAuthnOracle {
    struct Baseline: @unchecked Sendable {
        let profile: Profile
        let context: CaseContext
        let step: Step
        /// The signed parts of each genuine registration with the baseline's clientDataJSON.
        let genuine: [SignedParts]

        init() throws {
            profile = .webAuthnL3
            let cases = try BuiltinCatalogue.cases(for: profile, seed: 1)
            let testCase = cases.first { $0.id == "webauthn.valid.packed" }!
            let registration = testCase.steps[0]
            context = testCase.context
            step = registration
            genuine = cases.filter { $0.rule == nil }.map { $0.steps[0] }
                .filter { $0.inputs[.clientDataJSON] == registration.inputs[.clientDataJSON] }
                .compactMap { $0.inputs[.attestationObject].flatMap(SignedParts.init) }
        }
    }

    /// What a registration's signatures cover.
    struct SignedParts: Equatable {
        let authData: [UInt8]
        let signature: CBORValue?
        let certificates: CBORValue?

        init?(_ attestationObject: [UInt8]) {
            guard let object = try? CBORReader.decode(attestationObject), let authData = object["authData"]?.bytesValue else { return nil }
            self.authData = authData
            signature = object["attStmt"]?["sig"]
            certificates = object["attStmt"]?["x5c"]
        }
    }

    static let baseline: Baseline = {
        do { return try Baseline() } catch { fatalError("cannot forge the fuzzing baseline: \(error)") }
    }()

    static func check(_ input: [UInt8]) -> String? {
        _ = try? COSEKey(cbor: input)
        _ = try? COSEKey(cbor: input, requireAlgorithmFit: false)
        _ = try? CollectedClientData(parsing: input)
        _ = try? TPMStructures.PublicArea(parsing: input)
        _ = try? TPMStructures.Attestation(parsing: input)

        var inputs = baseline.step.inputs
        inputs[.attestationObject] = input
        let verdict: Verdict
        switch ReferenceVerdict.of(VerifierStep(kind: baseline.step.kind, inputs: inputs), profile: baseline.profile, context: baseline.context) {
        case .failure(let failure): return failure.description
        case .success(let answer): verdict = answer
        }
        guard verdict.outcome == .accept else { return nil }
        guard let parts = SignedParts(input), baseline.genuine.contains(parts) else {
            return "accepted a registration whose signed parts differ from every genuine one"
        }
        return nil
    }
}
