import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import AttestReference
import Foundation

/// fuzz-certificates: certificates inside every family's evidence, judged by the reference verifier end to end.
///
/// An input is one slot byte (which certificate of which family's valid evidence to replace: the App Attest
/// credential certificate or intermediate, the Android leaf or intermediate, the WebAuthn packed or apple
/// attestation certificate) followed by the certificate DER that takes its place. The evidence is re-encoded around
/// it and judged from a fresh session. Properties: nothing crashes, every certificate accessor works on whatever
/// OpenSSL parses, the verifier answers every input with a verdict (`ReferenceVerdict`), and it never accepts
/// evidence whose certificate's signed parts (TBSCertificate and signature, as OpenSSL holds them) differ from the
/// genuine one's.
public enum CertificateOracle {
    /// One certificate position in one family's valid evidence.
    struct Slot: @unchecked Sendable {
        let name: String
        let profile: Profile
        let context: CaseContext
        let genuine: [UInt8]
        let genuineParts: (tbs: [UInt8], signature: [UInt8])
        /// The evidence step with `certificate` in this slot.
        let step: @Sendable ([UInt8]) -> VerifierStep
    }

    static let slots: [Slot] = {
        do { return try makeSlots() } catch { fatalError("cannot forge the fuzzing baselines: \(error)") }
    }()

    public static func check(_ input: [UInt8]) -> String? {
        guard let selector = input.first, !slots.isEmpty else { return nil }
        let slot = slots[Int(selector) % slots.count]
        let certificate = Array(input.dropFirst())
        let parsed = try? X509Certificate(der: certificate)
        if let parsed { X509Oracle.exercise(parsed) }
        let verdict: Verdict
        switch ReferenceVerdict.of(slot.step(certificate), profile: slot.profile, context: slot.context) {
        case .failure(let failure): return "\(slot.name): \(failure)"
        case .success(let answer): verdict = answer
        }
        guard verdict.outcome == .accept else { return nil }
        guard certificate != slot.genuine else { return nil }
        guard let parts = parsed?.signedParts, parts.tbs == slot.genuineParts.tbs, parts.signature == slot.genuineParts.signature else {
            return "\(slot.name): accepted a certificate whose signed parts differ from the genuine one"
        }
        return nil
    }

    /// Seed inputs: each slot's genuine certificate.
    public static var seeds: [[UInt8]] { slots.indices.map { [UInt8($0)] + slots[$0].genuine } }

    static func makeSlots() throws -> [Slot] {
        struct Missing: Error {}
        var slots: [Slot] = []
        func x5cSlots(_ family: String, profile: Profile, testCase: Case?, positions: [Int]) throws {
            guard let testCase, let step = testCase.steps.first, let object = step.inputs[.attestationObject] else { throw Missing() }
            let decoded = try CBORReader.decode(object)
            guard let x5c = decoded["attStmt"]?["x5c"]?.arrayValue else { throw Missing() }
            for position in positions where position < x5c.count {
                guard let genuine = x5c[position].bytesValue else { throw Missing() }
                let request = step.request
                slots.append(Slot(
                    name: "\(family) x5c[\(position)]", profile: profile, context: testCase.context, genuine: genuine,
                    genuineParts: try X509Certificate(der: genuine).signedParts,
                    step: { certificate in
                        var inputs = request.inputs
                        inputs[.attestationObject] = replacingCertificate(in: decoded, at: position, with: certificate)
                        return VerifierStep(kind: request.kind, inputs: inputs, time: request.time)
                    }))
            }
        }
        try x5cSlots("app-attest", profile: .appleAppAttest,
                     testCase: try BuiltinCatalogue.cases(for: .appleAppAttest, seed: 1).first { $0.rule == nil }, positions: [0, 1])
        // Only the two webauthn cases are forged: the whole webauthn catalogue (RSA keys, over two hundred cases) takes
        // longer under the fuzzing instrumentation than libFuzzer allows the first input.
        func webAuthnCase(_ id: String) throws -> Case? {
            try BuiltinCatalogue.forge(id, family: .webAuthn, parameters: Profile.webAuthnL3.parameters, seed: ForgeSeed(1))
        }
        try x5cSlots("webauthn packed", profile: .webAuthnL3, testCase: try webAuthnCase("webauthn.valid.packed"), positions: [0])
        try x5cSlots("webauthn apple", profile: .webAuthnL3, testCase: try webAuthnCase("webauthn.valid.apple-synced-counter-zero"),
                     positions: [0])

        guard let android = try BuiltinCatalogue.cases(for: .androidKeyAttestation, seed: 1).first(where: { $0.rule == nil }),
              let androidStep = android.steps.first, let chainBytes = androidStep.inputs[.certificateChain] else { throw Missing() }
        let chain = try DERReader.parseSequence(chainBytes).map(\.serialized)
        let request = androidStep.request
        for position in [0, 1] where position < chain.count - 1 {
            slots.append(Slot(
                name: "android chain[\(position)]", profile: .androidKeyAttestation, context: android.context,
                genuine: chain[position], genuineParts: try X509Certificate(der: chain[position]).signedParts,
                step: { certificate in
                    var replaced = chain
                    replaced[position] = certificate
                    var inputs = request.inputs
                    inputs[.certificateChain] = replaced.flatMap { $0 }
                    return VerifierStep(kind: request.kind, inputs: inputs, time: request.time)
                }))
        }
        return slots
    }

    /// The attestation object with x5c[position] replaced, keys and order kept.
    static func replacingCertificate(in object: CBORValue, at position: Int, with certificate: [UInt8]) -> [UInt8] {
        guard case .map(var entries) = object,
              let statementIndex = entries.firstIndex(where: { $0.key == .text("attStmt") }),
              case .map(var statement) = entries[statementIndex].value,
              let x5cIndex = statement.firstIndex(where: { $0.key == .text("x5c") }),
              case .array(var certificates) = statement[x5cIndex].value, position < certificates.count else {
            return CBORWriter.encode(object, canonical: false)
        }
        certificates[position] = .bytes(certificate)
        statement[x5cIndex].value = .array(certificates)
        entries[statementIndex].value = .map(statement)
        return CBORWriter.encode(.map(entries), canonical: false)
    }
}

/// Structure-aware mutation for fuzz-certificates: the slot byte is kept (now and then moved), and the certificate
/// is decoded into its DER tree, where one node is changed the way real-world bugs do: an extension OID (huge arcs,
/// long ones, known extensions), a criticality or other BOOLEAN, an INTEGER (serial, version), a name's string and
/// its string type, a validity time, a child dropped, duplicated or swapped (a repeated extension), a non-minimal
/// length, or the node's bytes handed to libFuzzer's own mutator. Input that does not decode is mutated as bytes.
public enum CertificateMutator {
    /// Interesting OIDs: extensions the verifiers read, key types, and ones OpenSSL reads but 64-bit arcs cannot hold.
    static let oids: [[UInt8]] = [
        DERObjectIdentifier("2.5.29.19").contentBytes,                 // basicConstraints
        DERObjectIdentifier("2.5.29.15").contentBytes,                 // keyUsage
        DERObjectIdentifier("1.2.840.113635.100.8.2").contentBytes,    // App Attest nonce
        DERObjectIdentifier("1.3.6.1.4.1.11129.2.1.17").contentBytes,  // Android KeyDescription
        DERObjectIdentifier("1.3.6.1.4.1.45724.1.1.4").contentBytes,   // FIDO AAGUID
        DERObjectIdentifier("1.2.840.10045.2.1").contentBytes,         // EC public key
        DERObjectIdentifier("1.2.840.113549.1.1.1").contentBytes,      // RSA public key
        DERObjectIdentifier("1.3.101.112").contentBytes,               // Ed25519
        [0x2a, 0x82] + [UInt8](repeating: 0x80, count: 8) + [0x00],   // 1.2.2^64
        [0x2a] + Array([[UInt8]](repeating: [0x87, 0xc4, 0x40], count: 40).joined()),  // over 127 characters dotted
    ]

    public static func mutate(_ input: [UInt8], maxSize: Int, seed: UInt32,
                              byteMutator: (inout [UInt8], Int) -> Void) -> [UInt8] {
        var random = seed &* 2_654_435_761 | 1
        func next(_ bound: Int) -> Int {
            random ^= random << 13
            random ^= random >> 17
            random ^= random << 5
            return Int(random % UInt32(max(1, bound)))
        }
        var selector = input.first ?? 0
        if next(16) == 0 { selector = UInt8(truncatingIfNeeded: next(256)) }
        var certificate = Array(input.dropFirst())
        let options = DERReader.Options.ber
        if let tree = try? DERReader.parse(certificate, options: options) {
            var nodes: [[Int]] = []
            collect(tree, path: [], into: &nodes)
            let path = nodes[next(nodes.count)]
            certificate = change(tree, at: path, kind: next(9), next: next, byteMutator: byteMutator).serialized
        } else {
            byteMutator(&certificate, max(0, maxSize - 1))
        }
        let output = [selector] + certificate
        return output.count <= maxSize ? output : Array(output.prefix(maxSize))
    }

    static func collect(_ element: DERElement, path: [Int], into nodes: inout [[Int]]) {
        nodes.append(path)
        for (index, child) in (element.children ?? []).enumerated() { collect(child, path: path + [index], into: &nodes) }
    }

    static func change(_ element: DERElement, at path: [Int], kind: Int, next: (Int) -> Int,
                       byteMutator: (inout [UInt8], Int) -> Void) -> DERElement {
        guard let first = path.first else { return mutateNode(element, kind: kind, next: next, byteMutator: byteMutator) }
        guard var children = element.children, first < children.count else { return element }
        children[first] = change(children[first], at: Array(path.dropFirst()), kind: kind, next: next, byteMutator: byteMutator)
        var copy = element
        copy.content = .constructed(children)
        return copy
    }

    static func mutateNode(_ element: DERElement, kind: Int, next: (Int) -> Int,
                           byteMutator: (inout [UInt8], Int) -> Void) -> DERElement {
        var node = element
        switch (node.content, node.identifier) {
        case (.primitive, .objectIdentifier) where kind < 5:
            node.content = .primitive(oids[next(oids.count)])
        case (.primitive, .boolean):
            node.content = .primitive([[0x00], [0xff], [0x01], [], [0xff, 0xff]][next(5)])
        case (.primitive, .integer) where kind < 6:
            node.content = .primitive([[0x00], [0x01], [0x80], [0x00, 0x80], [0xff], [0x02], [UInt8](repeating: 0x7f, count: 21)][next(7)])
        case (.primitive(let bytes), let identifier) where [12, 19, 22, 20, 30].contains(identifier.tagNumber) && identifier.tagClass == .universal:
            // A name's string: another type, or other characters.
            let types: [UInt64] = [12, 19, 22, 20, 30]
            if kind % 2 == 0 {
                node.identifier = DERIdentifier(tagClass: .universal, tagNumber: types[next(types.count)], isConstructed: false)
            } else {
                node.content = .primitive([Array("TEST".utf8), [], Array("é\u{0}*".utf8), bytes + bytes][next(4)])
            }
        case (.primitive, let identifier) where identifier.tagClass == .universal && (identifier.tagNumber == 23 || identifier.tagNumber == 24):
            let times = ["700101000000Z", "491231235959Z", "500101000000Z", "20500101000000Z", "99991231235959Z", "19500101000000Z"]
            let text = times[next(times.count)]
            node.identifier = DERIdentifier(tagClass: .universal, tagNumber: text.count == 13 ? 23 : 24, isConstructed: false)
            node.content = .primitive(Array(text.utf8))
        case (.constructed(var children), _) where kind < 6 && !children.isEmpty:
            let index = next(children.count)
            switch kind % 3 {
            case 0: children.remove(at: index)
            case 1: children.insert(children[index], at: index)
            default: children.swapAt(index, next(children.count))
            }
            node.content = .constructed(children)
        case _ where kind == 8:
            node.lengthEncoding = .longForm(octets: 2 + next(3))
        case (.primitive(var bytes), _):
            byteMutator(&bytes, max(bytes.count + 16, 64))
            node.content = .primitive(bytes)
        default:
            node.lengthEncoding = .longForm(octets: 2)
        }
        return node
    }
}
