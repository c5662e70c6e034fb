import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation

/// Structure-aware mutations of the attestation statements other than packed (WebAuthn L3 §8.3 tpm, §8.4
/// android-key, §8.5 android-safetynet, §8.8 apple), as data: each edits one field of the statement's blueprint, and
/// rendering repairs the rest (certInfo and the AIK certificate signed again, the SafetyNet JWS signed again, the
/// credential certificate issued again), so a mutant reaches the check behind the signature. A mutation applies to a
/// baseline whose last registration has that format and is nil for any other. The android-key statement's
/// KeyDescription takes the Android family's own edits (described once, in `AndroidMutations`).
package enum WebAuthnStatementMutations {
    package static var all: [WebAuthnMutation] { tpm + androidKey + apple + safetyNet }

    typealias Edit<Statement> = @Sendable (inout Statement, inout HuntRandom, WebAuthnForge) throws -> Int?

    /// `edits` of one statement format as mutations of the last registration: `open` reads that format's blueprint
    /// out of the registration's statement (nil for another format: the mutation does not apply), `close` puts the
    /// edited one back.
    static func mutations<Statement>(_ format: String, _ edits: [(field: String, kind: String, edit: Edit<Statement>)],
                                     open: @escaping @Sendable (AttestationStatementBlueprint) -> Statement?,
                                     close: @escaping @Sendable (Statement) -> AttestationStatementBlueprint) -> [WebAuthnMutation] {
        edits.map { field, kind, edit in
            WebAuthnMutation(.registration, "attStmt.\(format).\(field)", kind, .repaired { scenario, random, forge in
                try scenario.editLastStatement { statement in
                    guard var opened = open(statement) else { return nil }
                    let size = try edit(&opened, &random, forge)
                    statement = close(opened)
                    return size
                }
            })
        }
    }

    static let androidKeyStatement: @Sendable (AttestationStatementBlueprint) -> AndroidKeyStatement? = {
        if case .androidKey(let statement) = $0 { statement } else { nil }
    }

    /// Another key than any the case uses, for a statement that must certify or sign with the case's key.
    static func otherKey(_ forge: WebAuthnForge, _ algorithm: KeyAlgorithm = .ec(.p256)) throws -> PrivateKey {
        try forge.seed.key(algorithm, "hunt statement other key")
    }

    // MARK: - tpm (§8.3, §8.3.1)

    static let tpm: [WebAuthnMutation] = {
        let edits: [(field: String, kind: String, edit: Edit<TPMStatement>)] = [
            ("ver", "other", { statement, random, _ in statement.version = random.pick(["1.2", "2", "2.0 ", ""]); return 1 }),
            ("alg", "rs1", { statement, _, _ in statement.algorithm = .rs1; return 1 }),
            ("pubArea.nameAlg", "other", { statement, random, _ in
                statement.nameAlg = random.pick([TPMStructures.algorithmSHA1, TPMStructures.algorithmSHA384, TPMStructures.algorithmSHA512])
                return 2
            }),
            ("pubArea", "other-key", { statement, _, forge in statement.certifiedKey = try otherKey(forge).publicKey; return 64 }),
            ("certInfo.magic", "other", { statement, random, _ in
                statement.magic = random.pick([0, 0xFF54_4348, UInt32(truncatingIfNeeded: random.next())])
                return 4
            }),
            ("certInfo.type", "other", { statement, random, _ in
                statement.attestationType = random.pick([0x8018, 0x8014, 0x8016])  // QUOTE, SESSION_AUDIT, TIME
                return 2
            }),
            ("certInfo.extraData", "other-message", { statement, random, _ in
                statement.extraDataMessage = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return 32
            }),
            ("certInfo.attested", "other-key", { statement, _, forge in
                statement.attestedPublicArea = try TPMStatement.publicArea(try otherKey(forge).publicKey, nameAlg: statement.nameAlg)
                return 32
            }),
            ("sig", "other-message", { statement, random, _ in
                statement.signedMessage = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return 256
            }),
            ("x5c", "reordered", { statement, _, _ in statement.chainOrder = [1, 0]; return 2 }),
            ("x5c[0].subject", "non-empty", { statement, _, _ in
                statement.certificate.subject = X509Name([.commonName("attest-harness TPM")])
                return 8
            }),
            ("x5c[0].subjectAltName", "absent", { statement, _, _ in statement.certificate.alternativeName = nil; return 16 }),
            ("x5c[0].subjectAltName.manufacturer", "spelling", { statement, random, _ in
                guard let current = statement.certificate.alternativeName?.manufacturer else { return nil }
                // A registered vendor spelled otherwise (lower-case hex, no "id:"), or an id nobody registered.
                statement.certificate.alternativeName?.manufacturer = random.pick([
                    current.lowercased(), String(current.dropFirst(3)), "id:FFFFFFFF", "id:00000000",
                    TPMStatement.Vendor.microsoft.id,
                ])
                return 4
            }),
            ("x5c[0].extendedKeyUsage", "other", { statement, random, _ in
                statement.certificate.extendedKeyUsages = random.pick([[], ["1.3.6.1.5.5.7.3.2"], ["2.23.133.8.1"]])
                return 8
            }),
            ("x5c[0].basicConstraints", "ca-true", { statement, _, _ in statement.certificate.isCA = true; return 1 }),
            ("x5c[0].aaguid", "other", { statement, random, _ in
                statement.aaguidExtension = .value((0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                return 16
            }),
            ("x5c[0].aaguid", "absent", { statement, _, _ in statement.aaguidExtension = .absent; return 16 }),
            ("x5c[0].validity", "shifted", { statement, random, forge in
                statement.validity = WebAuthnMutations.validityShifted(&random, around: forge.time)
                return 8
            }),
        ]
        return mutations("tpm", edits, open: { if case .tpm(let statement) = $0 { statement } else { nil } }, close: { .tpm($0) })
    }()

    // MARK: - android-key (§8.4)

    /// The statement's own fields, then every KeyDescription edit of the Android family (the challenge aside: the
    /// statement writes the clientDataHash there, which `challenge` below changes instead).
    static var androidKey: [WebAuthnMutation] {
        let own: [(field: String, kind: String, edit: Edit<AndroidKeyStatement>)] = [
            ("attestationChallenge", "other", { statement, random, _ in
                statement.challengeOverride = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return 32
            }),
            ("sig", "other-key", { statement, _, forge in statement.signer = try otherKey(forge); return 64 }),
            ("sig", "other-message", { statement, random, _ in
                statement.signedMessage = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return 64
            }),
            ("x5c", "reversed", { statement, _, _ in statement.chainOrder = [3, 2, 1, 0]; return 4 }),
        ]
        let ownMutations = mutations("androidKey", own, open: androidKeyStatement, close: { .androidKey($0) })
        let prefix = MutationTarget.attestation.rawValue + "."
        let keyDescription = (AndroidMutations.keyDescription + AndroidMutations.authorizationLists).compactMap { mutation -> WebAuthnMutation? in
            guard case .repaired(let edit) = mutation.application, !mutation.field.rawValue.contains("attestationChallenge") else { return nil }
            let field = String(mutation.field.rawValue.dropFirst(mutation.field.rawValue.hasPrefix(prefix) ? prefix.count : 0))
            let onStatement: Edit<AndroidKeyStatement> = { statement, random, forge in try edit(&statement.android, &random, forge.android) }
            return mutations("androidKey", [(field, mutation.kind.rawValue, onStatement)], open: androidKeyStatement, close: { .androidKey($0) })[0]
        }
        return ownMutations + keyDescription
    }

    // MARK: - apple (§8.8)

    static let apple: [WebAuthnMutation] = {
        let edits: [(field: String, kind: String, edit: Edit<AppleStatement>)] = [
            ("x5c[0].nonce", "other", { statement, random, _ in
                statement.nonceOverride = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return 32
            }),
            ("x5c[0].nonce", "truncated", { statement, random, _ in
                statement.nonceOverride = (0..<31).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return 32
            }),
            ("x5c[0].publicKey", "other-key", { statement, _, forge in statement.certifiedKey = try otherKey(forge).publicKey; return 64 }),
            ("x5c[0].validity", "shifted", { statement, random, forge in
                statement.validity = WebAuthnMutations.validityShifted(&random, around: forge.time)
                return 8
            }),
        ]
        return mutations("apple", edits, open: { if case .apple(let statement) = $0 { statement } else { nil } }, close: { .apple($0) })
    }()

    // MARK: - android-safetynet (§8.5): the JWS and its payload

    static let safetyNet: [WebAuthnMutation] = {
        let edits: [(field: String, kind: String, edit: Edit<SafetyNetStatement>)] = [
            ("ver", "other", { statement, random, _ in statement.version = random.pick(["", "0", "243632036 "]); return 1 }),
            ("response.nonce", "other-message", { statement, random, _ in
                statement.nonceMessage = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return 44
            }),
            ("response.timestampMs", "shifted", { statement, random, forge in
                statement.timestamp = forge.time.addingTimeInterval(random.pick([-86_400, -120, 120, 3_600]))
                return 13
            }),
            ("response.ctsProfileMatch", "false", { statement, _, _ in statement.ctsProfileMatch = false; return 1 }),
            ("response.basicIntegrity", "false", { statement, _, _ in statement.basicIntegrity = false; return 1 }),
            ("response.signature", "other-key", { statement, _, forge in statement.signer = try otherKey(forge, .rsa(bits: 2048)); return 256 }),
            ("response.header.x5c", "empty", { statement, _, _ in statement.emptyChain = true; return 1 }),
            ("response.header.x5c[0].subjectAltName", "other-host", { statement, random, _ in
                statement.hostname = random.pick(["attest.android.co", "attest.android.com.example", "android.com", "ATTEST.ANDROID.COM"])
                return 8
            }),
            ("response.header.x5c[0].validity", "shifted", { statement, random, forge in
                statement.validity = WebAuthnMutations.validityShifted(&random, around: forge.time)
                return 8
            }),
        ]
        return mutations("safetyNet", edits, open: { if case .androidSafetyNet(let statement) = $0 { statement } else { nil } },
                         close: { .androidSafetyNet($0) })
    }()
}

extension WebAuthnScenario {
    /// Applies `change` to the last registration's statement blueprint; nil when it does not apply there.
    mutating func editLastStatement(_ change: (inout AttestationStatementBlueprint) throws -> Int?) throws -> Int? {
        guard !registrations.isEmpty else { return nil }
        return try change(&registrations[registrations.count - 1].statement)
    }
}
