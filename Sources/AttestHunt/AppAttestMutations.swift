import AttestCBOR
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation

/// The App Attest mutations, as data: per field of the attestation (its CBOR object, authenticator data, nonce,
/// credential certificate and chain) or of the last assertion (its authenticator data, signature, client data, key
/// id), the changes a hunt draws from. Repaired ones change the blueprint before rendering, so the attestation
/// object is encoded, the nonce computed, the credential certificate issued and the assertion signed again over
/// the change; the catalogue's CBOR malformations reappear as kinds; raw ones change a rendered input's bytes.
package enum AppAttestMutations {
    package static var all: [AppAttestMutation] {
        attestationEdits.map { edit in
            AppAttestMutation(.attestation, edit.field, edit.kind, .repaired { scenario, random, forge in
                try edit.edit(&scenario.attestation, &random, forge)
            })
        } + assertion + raw
    }

    typealias Attestation = @Sendable (inout AttestationBlueprint, inout HuntRandom, AppAttestForge) throws -> Int?
    typealias Assertion = @Sendable (inout AssertionBlueprint, inout HuntRandom, AppAttestForge) throws -> Int?

    /// One edit of an App Attest attestation, wherever one is sent: as App Attest's own step, or as a per-request
    /// flow's iOS attest (`PerRequestMutations`).
    struct AttestationEdit: Sendable {
        let field: String
        let kind: String
        let edit: Attestation
    }

    static func attestation(_ field: String, _ kind: String, _ edit: @escaping Attestation) -> AttestationEdit {
        AttestationEdit(field: field, kind: kind, edit: edit)
    }

    /// Every attestation edit, in the order `all` lists them.
    static var attestationEdits: [AttestationEdit] {
        attestationObject + attestationAuthenticatorData + nonce + certificates + attestationInputs
    }

    static func assertion(_ field: String, _ kind: String, _ edit: @escaping Assertion) -> AppAttestMutation {
        AppAttestMutation(.assertion, field, kind, .repaired { scenario, random, forge in
            guard !scenario.assertions.isEmpty else { return nil }
            return try edit(&scenario.assertions[scenario.assertions.count - 1], &random, forge)
        })
    }

    /// The encodings a strict CBOR reader refuses, as the catalogue's App Attest encoding cases write them.
    static let malformations: [(kind: String, make: @Sendable (inout HuntRandom) -> CBORMalformation)] = [
        ("trailing-bytes", { random in .trailingBytes(random.pick([[0x00], [0xFF], [0xA0]])) }),
        ("duplicate-key", { random in .duplicateKey(random.pick(["fmt", "attStmt", "authData"])) }),
        ("indefinite-length", { _ in .indefiniteLengthMap }),
        ("extra-key", { random in .extraKey(random.pick(["extra", "x5c", ""]), .unsigned(0)) }),
        ("byte-string-keys", { _ in .byteStringKeys }),
    ]

    // MARK: - The attestation object

    static let attestationObject: [AttestationEdit] = malformations.map { kind, make in
        attestation("attestationObject", kind) { blueprint, random, _ in
            blueprint.encoding = make(&random)
            return 1
        }
    } + WebAuthnMutations.generic.map { named in
        let edit = named.edit
        return attestation("attestationObject.fmt", named.kind) { blueprint, random, _ in
            guard let format = edit(blueprint.format, &random), format != blueprint.format else { return nil }
            blueprint.format = format
            return max(1, WebAuthnMutations.changedBytes(Array(AppAttestFormat.format.utf8), Array(format.utf8)))
        }
    } + [
        attestation("attestationObject.fmt", "other-format") { blueprint, random, _ in
            blueprint.format = random.pick(["apple", "packed", "none", "Apple-AppAttest", "apple-appattest-develop"])
            return blueprint.format.utf8.count
        },
        attestation("attestationObject.attStmt.receipt", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.receipt) },
        attestation("attestationObject.attStmt.receipt", "empty") { blueprint, _, _ in
            blueprint.receipt = []
            return 1
        },
    ]

    // MARK: - The attestation's authenticator data

    static let attestationAuthenticatorData: [AttestationEdit] = WebAuthnMutations.flagBits.map { name, bit in
        attestation("authData.flags.\(name)", "toggle") { blueprint, _, _ in
            blueprint.flags ^= bit
            return 1
        }
    } + [
        attestation("authData.signCount", "value") { blueprint, random, _ in
            let old = blueprint.signCount
            blueprint.signCount = random.pick([1, 2, UInt32.max, 0x8000_0000])
            return blueprint.signCount == old ? nil : 4
        },
        attestation("authData.rpIdHash", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.rpIdHash) },
        attestation("authData.rpIdHash", "other-app") { blueprint, random, _ in
            blueprint.rpIdHash = sha256(Array((random.pick(["A1B2C3D4E5.", "ZZZZZZZZZZ.", ""]) + blueprint.appId.split(separator: ".").dropFirst().joined(separator: ".")).utf8))
            return 32
        },
        attestation("authData.rpIdHash", "bundle-id-only") { blueprint, _, _ in
            blueprint.rpIdHash = sha256(Array(blueprint.appId.split(separator: ".").dropFirst().joined(separator: ".").utf8))
            return 32
        },
        attestation("authData.aaguid", "other-environment") { blueprint, _, _ in
            let other = AppAttestFormat.Environment.allCases.first { $0.aaguid != blueprint.aaguid }
            guard let other else { return nil }
            blueprint.aaguid = other.aaguid
            return 16
        },
        attestation("authData.aaguid", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.aaguid) },
        attestation("authData.aaguid", "zero") { blueprint, _, _ in
            blueprint.aaguid = Array(repeating: 0, count: 16)
            return 16
        },
        attestation("authData.credentialId", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.credentialId) },
        attestation("authData.credentialId", "truncate") { blueprint, random, _ in
            let count = 1 + random.index(8)
            blueprint.credentialId.removeLast(count)
            return count
        },
        attestation("authData.credentialPublicKey", "other-key") { blueprint, _, forge in
            blueprint.credentialPublicKey = CBORWriter.encode(try forge.otherKey().publicKey.coseKey)
            return 64
        },
    ]

    // MARK: - The nonce and the credential certificate's nonce extension

    static let nonce: [AttestationEdit] = [
        attestation("nonce.clientDataHash", "other-challenge") { blueprint, random, _ in
            var challenge = blueprint.challenge
            _ = random.flipBit(in: &challenge)
            blueprint.clientDataHash = sha256(challenge)
            return 32
        },
        attestation("nonce.clientDataHash", "raw-challenge") { blueprint, _, _ in
            blueprint.clientDataHash = blueprint.challenge
            return 32
        },
        attestation("nonce.clientDataHash", "hashed-twice") { blueprint, _, _ in
            blueprint.clientDataHash = sha256(sha256(blueprint.challenge))
            return 32
        },
        attestation("credCert.nonce", "random") { blueprint, random, _ in
            blueprint.nonceOverride = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return 32
        },
        attestation("credCert.nonce", "extension-count") { blueprint, random, _ in
            blueprint.nonceExtensionCount = random.pick([0, 2])
            return 1
        },
        attestation("credCert.nonce", "envelope") { blueprint, random, _ in
            let form: Int = random.index(4)
            blueprint.nonceEnvelope = { nonce in
                switch form {
                case 0: .octetString(nonce)
                case 1: .sequence([.explicit(2, .octetString(nonce))])
                case 2: .sequence([.octetString(nonce)])
                default: .sequence([.explicit(1, .octetString(nonce)), .explicit(1, .octetString(nonce))])
                }
            }
            return 2
        },
    ]

    // MARK: - The credential certificate and the chain

    static let certificates: [AttestationEdit] = [
        attestation("credCert.extensions", "unknown-critical") { blueprint, random, _ in
            blueprint.extraCredentialExtensions = [CertificateExtension(oid: random.pick(["1.2.3.4", "1.2.840.113635.100.8.7"]), critical: true,
                                                                        value: DERElement.null.serialized)]
            return 8
        },
        attestation("credCert.validity", "not-yet-valid") { blueprint, random, _ in
            blueprint.credentialCertificateNotBefore = blueprint.time + Double(random.pick([60, 86_400, 400 * 86_400]))
            blueprint.credentialCertificateNotAfter = blueprint.credentialCertificateNotBefore + 86_400
            return 13
        },
        attestation("credCert.validity", "expired") { blueprint, random, _ in
            blueprint.credentialCertificateNotAfter = blueprint.time - Double(random.pick([1, 3_600, 86_400]))
            return 13
        },
        attestation("credCert.validity", "reversed") { blueprint, _, _ in
            swap(&blueprint.credentialCertificateNotBefore, &blueprint.credentialCertificateNotAfter)
            return 26
        },
        attestation("credCert.issuer", "attacker-chain") { blueprint, _, forge in
            let attacker = try AppAttestPKI.attacker(seed: forge.seed)
            blueprint.intermediate = attacker.intermediate
            blueprint.credentialCertificateSigner = attacker.intermediateKey
            return 64
        },
        attestation("credCert.signature", "other-signer") { blueprint, _, forge in
            blueprint.credentialCertificateSigner = try forge.otherKey()
            return 64
        },
        attestation("x5c", "swapped") { blueprint, _, _ in
            blueprint.certificateList = .swapped
            return 2
        },
        attestation("x5c", "leaf-only") { blueprint, _, _ in
            blueprint.certificateList = .credentialCertificateOnly
            return 1
        },
        attestation("x5c", "root-appended") { blueprint, _, forge in
            blueprint.certificateList = .appending(forge.pki.root)
            return 1
        },
        attestation("x5c", "intermediate-twice") { blueprint, _, _ in
            blueprint.certificateList = .appending(blueprint.intermediate)
            return 1
        },
    ]

    // MARK: - What the app sends beside the attestation object

    static let attestationInputs: [AttestationEdit] = [
        attestation("keyId", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.keyId) },
        attestation("challenge", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.challenge) },
    ]

    // MARK: - The last assertion

    static let assertion: [AppAttestMutation] = malformations.map { kind, make in
        assertion("assertion", kind) { blueprint, random, _ in
            var malformation = make(&random)
            if case .duplicateKey = malformation { malformation = .duplicateKey(random.pick(["signature", "authenticatorData"])) }
            blueprint.encoding = malformation
            return 1
        }
    } + WebAuthnMutations.flagBits.map { name, bit in
        assertion("authenticatorData.flags.\(name)", "toggle") { blueprint, _, _ in
            blueprint.flags ^= bit
            return 1
        }
    } + [
        assertion("authenticatorData.counter", "value") { blueprint, random, _ in
            let old = blueprint.counter
            blueprint.counter = random.pick([0, 1, old &- 1, UInt32.max])
            return blueprint.counter == old ? nil : 4
        },
        assertion("authenticatorData.rpIdHash", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.rpIdHash) },
        assertion("signature", "raw-form") { blueprint, _, _ in
            blueprint.signatureForm = .raw
            return 8
        },
        assertion("signature", "webauthn-message") { blueprint, _, _ in
            blueprint.signedMessage = .authenticatorDataAndClientDataHash
            return 64
        },
        assertion("signature", "other-key") { blueprint, _, forge in
            blueprint.signingKey = try forge.otherKey()
            return 64
        },
        assertion("clientData", "unsigned-change") { blueprint, random, _ in
            blueprint.signedClientData = blueprint.clientData
            return random.flipBit(in: &blueprint.clientData)
        },
        assertion("clientData", "other-challenge") { blueprint, random, _ in
            // Signed, but not over the challenge the server issued.
            return random.flipBit(in: &blueprint.clientData)
        },
        assertion("keyId", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.keyId) },
        assertion("challenge", "bit-flip") { blueprint, random, _ in random.flipBit(in: &blueprint.challenge) },
    ]

    // MARK: - Raw bytes of a rendered input (nothing repaired)

    static let raw: [AppAttestMutation] = {
        let inputs: [(MutationTarget, InputKey)] = [(.attestation, .attestationObject), (.assertion, .assertion)]
        return inputs.flatMap { target, key in
            WebAuthnMutations.byteEdits.map { named in AppAttestMutation(target, "\(key.rawValue)[bytes]", named.kind, .raw(key, named.edit)) }
        }
    }()
}
