import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation

/// The Android Key Attestation family: valid baselines and one case per mutation, each breaking exactly one rule.
public enum AndroidFamily: CatalogueFamily {
    static let idPrefix = "android"
    public static let name = FamilyName.androidKey
    public static var rules: [Rule] { ChainRules.all + ChainRules.revocation + AndroidRules.all + AndroidRules.keyPolicy }

    public static let stepKinds: [StepKind: String] = [
        .androidKeyAttestation: "A key attestation the app sends. Inputs: certificateChain (DER certificates back to back, "
            + "leaf first, as the app got them from KeyStore), publicKey (the DER SubjectPublicKeyInfo the app claims), "
            + "challenge (what the server issued). Context parameters: packageName, signatureDigest (hex SHA-256 of "
            + "the signing certificate), attestationStatusList (JSON in Google's format).",
    ]

    typealias Definition = CaseDefinition<Void, AndroidScenario, AndroidForge>

    /// The hardware roots (the anchors), the software root (to recognise software attestation) and the status
    /// list the valid cases are checked against.
    public static func trustAnchors(seed: UInt64) throws -> [String: String] {
        let pki = try AndroidPKI(seed: ForgeSeed(seed))
        return ["android-rsa-root.pem": pki.rsaRoot.certificate.pem, "android-ec-root.pem": pki.ecRoot.certificate.pem,
                "android-software-root.pem": pki.softwareRoot.certificate.pem,
                "android-status.json": String(decoding: try baselineStatusList.json, as: UTF8.self) + "\n"]
    }

    /// One unrelated REVOKED entry, so that an empty list is not what every case tests.
    static let baselineStatusList = AttestationStatusList(entries: [
        "2c8cdddfd5e03bfc": .init(status: .revoked, reason: .keyCompromise),
    ])

    public static func cases(parameters: [String: String], seed: UInt64) throws -> [Case] {
        try cases(parameters: parameters, seed: ForgeSeed(seed))
    }

    /// The cases forged from `seed`, substitutions included; with `only`, just the case of that id.
    public static func cases(parameters: [String: String], seed: ForgeSeed, only: String? = nil) throws -> [Case] {
        let app = try AndroidParameters(forging: ParameterReader(parameters))
        let forge = try AndroidForge(seed: seed, packageName: app.packageName, signatureDigest: app.signatureDigest)
        let anchors = [forge.pki.rsaRoot.certificate.pem, forge.pki.ecRoot.certificate.pem]
        return try definitions.filter { only == nil || $0.id(prefix: idPrefix) == only }.map { definition in
            var scenario = try forge.scenario(statusList: baselineStatusList)
            try definition.mutate(&scenario, forge)
            let (context, step) = try rendered(scenario, forge: forge, anchors: anchors, parameters: parameters, breaking: definition.rule)
            // The control is the valid case of the same chain shape.
            return definition.makeCase(prefix: idPrefix, family: name, context: context, steps: [step],
                                       control: validVariant(scenario.attestation.shape))
        }
    }

    /// The valid case of a chain shape: the control of the cases of that shape, and a baseline a hunt mutates.
    static func validVariant(_ shape: AndroidAttestationBlueprint.Shape) -> String {
        shape == .factory ? "factory-provisioned" : "remotely-provisioned"
    }

    /// `scenario` rendered as its one step, with the context it is judged in (its status list among the parameters).
    static func rendered(_ scenario: AndroidScenario, forge: AndroidForge, anchors: [String], parameters: [String: String],
                         breaking rule: RuleID?) throws -> (CaseContext, Step) {
        var context = CaseContext(time: forge.time, trustAnchors: anchors, parameters: parameters)
        context.parameters["attestationStatusList"] = String(decoding: try scenario.statusList.json, as: UTF8.self)
        let chain = try scenario.render(pki: forge.pki)
        let step = Step(kind: .androidKeyAttestation, inputs: [
            .certificateChain: chain.flatMap(\.der), .publicKey: scenario.submittedKey.spki, .challenge: scenario.challenge,
        ], breaks: rule)
        return (context, step)
    }

    /// Applies `change` to the hardware-enforced list.
    static func hardware(_ scenario: inout AndroidScenario, _ change: (inout AuthorizationList) -> Void) {
        change(&scenario.attestation.keyDescription.hardwareEnforced)
    }

    /// Re-encodes the KeyDescription after `change` to its DER tree (malformed encodings).
    static func encoding(_ change: @escaping @Sendable (inout [DERElement]) -> Void) -> @Sendable ([UInt8]) -> [UInt8] {
        { bytes in
            guard var children = (try? DERReader.parse(bytes))?.children else { return bytes }
            change(&children)
            return DERElement.sequence(children).serialized
        }
    }

    /// Every order of the four-certificate factory chain but the right one (0, 1, 2, 3).
    static let factoryOrders: [[Int]] = {
        func permutations(_ items: [Int]) -> [[Int]] {
            guard let first = items.first else { return [[]] }
            return permutations(Array(items.dropFirst())).flatMap { rest in
                (0...rest.count).map { position in var order = rest; order.insert(first, at: position); return order }
            }
        }
        return permutations([0, 1, 2, 3]).filter { $0 != [0, 1, 2, 3] }.sorted { $0.lexicographicallyPrecedes($1) }
    }()

    static let definitions: [Definition] = [
        Definition(variant: "remotely-provisioned", rule: nil, importance: .critical,
                   description: "A TEE attestation of a generated P-256 signing key on a locked, verified device, RKP chain.") { _, _ in },
        Definition(variant: "factory-provisioned", rule: nil, importance: .critical,
                   description: "The same attestation through a factory-provisioned chain to the RSA root.") { scenario, _ in
            scenario.attestation.shape = .factory
        },

        // Chain.
        Definition(variant: "attacker-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The whole chain comes from an attacker's PKI whose root copies the real root's subject.") { scenario, forge in
            scenario.attackerPKI = try forge.attackerPKI()
        },
        Definition(variant: "software-root", rule: .chainTrustAnchor, importance: .critical,
                   description: "The chain ends in the software-attestation root, which is no hardware trust anchor.") { scenario, _ in
            scenario.attestation.shape = .software
        },
        Definition(variant: "expired-intermediate", rule: .chainValidity, importance: .high,
                   description: "The RKP intermediate CA3 expired before verification.") { scenario, _ in
            scenario.expiredAuthority = 1
        },
        Definition(variant: "factory-intermediate-expired", rule: .androidChainFactoryExpiry, importance: .high,
                   description: "A factory-provisioned chain whose intermediate expired before verification, as the Sony Xperia 10 III keybox's did on 2026-05-24.") { scenario, _ in
            scenario.attestation.shape = .factory
            scenario.expiredAuthority = 1
        },
        Definition(variant: "leaf-not-yet-valid", rule: .androidChainLeafValidity, importance: .medium,
                   description: "The attested key's certificate starts a day after verification, as a device whose clock runs ahead writes it.") { scenario, _ in
            scenario.attestation.leafValidity = (ForgeSeed.referenceTime + 86_400, scenario.attestation.leafValidity.1)
        },
        Definition(variant: "leaf-signs-leaf", rule: .chainBasicConstraints, importance: .critical,
                   description: "Chain extension: the attacker puts a leaf signed by the attested (non-CA) key in front.") { scenario, forge in
            scenario.extensionKey = try forge.key("chain extension")
            scenario.submittedKey = try forge.key("chain extension").publicKey
        },
        Definition(variant: "factory-keybox-end-entity", rule: .androidChainAttestationKeyIsCA, importance: .medium,
                   description: "As older factory keyboxes have it (a real Sony Xperia 10 III): the attestation key certificate is cA FALSE, digitalSignature only.") { scenario, _ in
            scenario.attestation.shape = .factory
            scenario.endEntityAuthority = 0
        },
        Definition(variant: "ec-root", rule: .chainRootRevoked, importance: .critical,
                   description: "The root's serial is REVOKED in the status list (android/keyattestation never looks the root up).") { scenario, forge in
            scenario.revoke(forge.pki.ecRoot.certificate, .revoked)
        },
        Definition(variant: "intermediate", rule: .chainRevoked, importance: .critical,
                   description: "The RKP attestation key certificate is REVOKED.") { scenario, forge in
            scenario.revoke(forge.pki.rkpAttestationKey.certificate, .revoked)
        },
        Definition(variant: "leaf", rule: .chainRevoked, importance: .high,
                   description: "The leaf's serial is REVOKED.") { scenario, forge in
            // A serial of its own, as KeyMint's CERTIFICATE_SERIAL allows, so that revoking it revokes this leaf only.
            scenario.attestation.leafSerial = [0x01] + (try forge.seed.bytes("android revoked leaf serial", count: 15))
            scenario.statusList.entries[AttestationStatusList.key(serialNumber: scenario.attestation.leafSerial)] =
                .init(status: .revoked, reason: .keyCompromise)
        },
        Definition(variant: "intermediate", rule: .chainSuspended, importance: .high,
                   description: "The RKP CA3 certificate is SUSPENDED.") { scenario, forge in
            scenario.revoke(forge.pki.rkpCA3.certificate, .suspended)
        },

        // Chain shape.
        Definition(variant: "nine-certificates", rule: .androidChainLength, importance: .low,
                   description: "Four unrelated certificates follow the root: nine in all.") { scenario, forge in
            // Ending in a self-issued root, so that only the length is wrong (not android.chain.includesRoot).
            scenario.appended = [forge.pki.factoryBatch.certificate, forge.pki.softwareIntermediate.certificate,
                                 forge.pki.rsaRoot.certificate, forge.pki.softwareRoot.certificate]
        },
        Definition(variant: "one-certificate", rule: .androidChainLength, importance: .medium,
                   description: "The leaf alone, issued straight by the root.") { scenario, _ in scenario.leafOnly = true },
        Definition(variant: "leaf-and-root", rule: .androidChainThreeOrMore, importance: .low,
                   description: "The leaf issued straight by the root, sent with the root: two certificates.") { scenario, _ in
            scenario.leafAndRoot = true
        },
        Definition(variant: "reversed", rule: .androidChainOrder, importance: .medium,
                   description: "The chain is root first.") { scenario, _ in scenario.reversed = true },
    ] + factoryOrders.map { order in
        Definition(variant: "factory-order-" + order.map(String.init).joined(), rule: .androidChainOrder, importance: .low,
                   description: "The factory chain (0 leaf, 1 batch, 2 intermediate, 3 root) sent in the order \(order.map(String.init).joined(separator: ", ")).") { scenario, _ in
            scenario.attestation.shape = .factory
            scenario.order = order
        }
    } + [
        // ATTEST_KEY on a factory-provisioned device. (On an RKP device the extra CA exceeds Droid CA2's
        // pathLenConstraint of 2, as on real RKP chains, so RFC 5280 path validation refuses it: not forged as valid.)
        Definition(variant: "factory", rule: .androidChainAttestKey, importance: .medium,
                   description: "An ATTEST_KEY chain: the leaf is issued by the app's attestation key, whose certificate (keyCertSign, cA, its own KeyDescription with purpose ATTEST_KEY) the factory chain's batch key issued.") { scenario, forge in
            scenario.attestation.shape = .factory
            scenario.attestKey = try forge.key("attest key")
        },
        Definition(variant: "attest-key-that-signs", rule: .androidKeyDescriptionPosition, importance: .high,
                   description: "An ATTEST_KEY chain whose attestation key may also SIGN: its certificate's KeyDescription is no attestation key's, so it is a KeyDescription on a CA.") { scenario, forge in
            scenario.attestation.shape = .factory
            scenario.attestKey = try forge.key("attest key")
            scenario.attestKeyPurposes = [KeyMintValues.purposeSign, KeyMintValues.purposeAttestKey]
        },
        Definition(variant: "without-root", rule: .androidChainIncludesRoot, importance: .low,
                   description: "The RKP chain without its root: the verifier pins the root by subject and key, so no copy is needed.") { scenario, _ in
            scenario.withoutRoot = true
        },

        // KeyDescription encoding and position.
        Definition(variant: "boolean-01", rule: .androidKeyDescriptionStrictDER, importance: .medium,
                   description: "RootOfTrust.deviceLocked is BOOLEAN 01, not FF, as a real device wrote it (android/keyattestation testdata malformed_rot_device_locked.pem).") { scenario, _ in
            scenario.keyDescriptionBytes = { bytes in
                guard let index = (0..<(bytes.count - 2)).first(where: { bytes[$0...($0 + 2)].elementsEqual([0x01, 0x01, 0xff]) }) else { return bytes }
                var changed = bytes
                changed[index + 2] = 0x01
                return changed
            }
        },
        Definition(variant: "tags-out-of-order", rule: .androidKeyDescriptionStrictDER, importance: .medium,
                   description: "hardwareEnforced lists algorithm [2] before purpose [1].") { scenario, _ in
            hardware(&scenario) { $0.fields.swapAt(0, 1) }
        },
        Definition(variant: "seven-elements", rule: .androidKeyDescriptionEncoding, importance: .low,
                   description: "KeyDescription lacks uniqueId: 7 elements instead of 8.") { scenario, _ in
            scenario.keyDescriptionBytes = encoding { $0.remove(at: 5) }
        },
        Definition(variant: "nine-elements", rule: .androidKeyDescriptionEncoding, importance: .low,
                   description: "KeyDescription has a ninth element.") { scenario, _ in
            scenario.keyDescriptionBytes = encoding { $0.append(.null) }
        },
        Definition(variant: "integer-for-enumerated", rule: .androidKeyDescriptionEncoding, importance: .low,
                   description: "attestationSecurityLevel is an INTEGER, not ENUMERATED.") { scenario, _ in
            scenario.keyDescriptionBytes = encoding { $0[1].identifier = .integer }
        },
        Definition(variant: "implicit-tag", rule: .androidKeyDescriptionEncoding, importance: .low,
                   description: "origin is [702] IMPLICIT INTEGER, not EXPLICIT.") { scenario, _ in
            hardware(&scenario) { list in
                guard let index = list.fields.firstIndex(where: { $0.tag == AuthorizationTag.origin.rawValue }) else { return }
                list.fields[index].value = .unknown(.implicit(702, .integer(KeyMintValues.originGenerated)))
            }
        },
        Definition(variant: "root-of-trust-twice", rule: .androidKeyDescriptionUniqueTags, importance: .high,
                   description: "hardwareEnforced carries RootOfTrust twice, unlocked then locked: a first-wins reader sees an unlocked bootloader, a last-wins reader (android/keyattestation) a locked one, so what the verifier concludes depends on its parser.") { scenario, _ in
            hardware(&scenario) { list in
                guard let index = list.fields.firstIndex(where: { $0.tag == AuthorizationTag.rootOfTrust.rawValue }),
                      var root = list.rootOfTrust else { return }
                root.deviceLocked = false
                list.fields.insert(.init(.rootOfTrust, .rootOfTrust(root)), at: index)
            }
        },
        Definition(variant: "outside-schema", rule: .androidKeyDescriptionKnownTags, importance: .low,
                   description: "hardwareEnforced ends with [1000] NULL, a tag outside the AOSP schema (a newer KeyMint's, or a vendor's).") { scenario, _ in
            hardware(&scenario) { $0.fields.append(.init(1000, .flag)) }
        },
        Definition(variant: "rollback-resistance", rule: .androidKeyDescriptionKnownTags, importance: .low,
                   description: "hardwareEnforced carries rollbackResistance [303], a schema tag a key carries when rollback resistance was requested (a system API), which android/keyattestation's parser leaves out.") { scenario, _ in
            hardware(&scenario) { $0.set(.rollbackResistance, .flag) }
        },
        Definition(variant: "twice", rule: .androidKeyDescriptionPosition, importance: .medium,
                   description: "The leaf carries the KeyDescription extension twice.") { scenario, _ in
            scenario.attestation.keyDescriptionCount = 2
        },
        Definition(variant: "on-intermediate", rule: .androidKeyDescriptionPosition, importance: .high,
                   description: "The RKP CA3, a CA two above the leaf, also carries a KeyDescription.") { scenario, _ in
            // Not the certificate right above the leaf: with keyCertSign and a KeyDescription, that one has the
            // shape of an app attestation key (android.chain.attestKey), which a Google-style profile refuses first.
            scenario.keyDescriptionAuthority = 1
        },

        // KeyDescription content.
        Definition(variant: "off-by-one", rule: .androidChallenge, importance: .critical,
                   description: "attestationChallenge differs from the issued challenge in its last byte.") { scenario, _ in
            scenario.attestation.keyDescription.attestationChallenge[31] ^= 0x01
        },
        Definition(variant: "empty", rule: .androidChallenge, importance: .critical,
                   description: "attestationChallenge is empty.") { scenario, _ in
            scenario.attestation.keyDescription.attestationChallenge = []
        },
        Definition(variant: "33-bytes", rule: .androidChallenge, importance: .high,
                   description: "attestationChallenge is the challenge and one more byte.") { scenario, _ in
            scenario.attestation.keyDescription.attestationChallenge.append(0)
        },
        Definition(variant: "software", rule: .androidSecurityLevel, importance: .critical,
                   description: "Both security levels are Software.") { scenario, _ in
            scenario.attestation.keyDescription.attestationSecurityLevel = KeyDescription.software
            scenario.attestation.keyDescription.keyMintSecurityLevel = KeyDescription.software
        },
        Definition(variant: "unequal", rule: .androidSecurityLevel, importance: .medium,
                   description: "attestationSecurityLevel is StrongBox, keyMintSecurityLevel TEE.") { scenario, _ in
            scenario.attestation.keyDescription.attestationSecurityLevel = KeyDescription.strongBox
        },
        Definition(variant: "imported", rule: .androidOrigin, importance: .critical,
                   description: "hardwareEnforced.origin is IMPORTED.") { scenario, _ in
            hardware(&scenario) { $0.set(.origin, .integer(KeyMintValues.originImported)) }
        },
        Definition(variant: "only-in-software-enforced", rule: .androidOrigin, importance: .high,
                   description: "origin GENERATED appears only in softwareEnforced.") { scenario, _ in
            hardware(&scenario) { $0.remove(.origin) }
            scenario.attestation.keyDescription.softwareEnforced.set(.origin, .integer(KeyMintValues.originGenerated))
        },
        Definition(variant: "missing", rule: .androidRootOfTrust, importance: .critical,
                   description: "hardwareEnforced has no RootOfTrust.") { scenario, _ in
            hardware(&scenario) { $0.remove(.rootOfTrust) }
        },
        Definition(variant: "unlocked", rule: .androidDeviceLocked, importance: .critical,
                   description: "The bootloader is unlocked (deviceLocked FALSE).") { scenario, _ in
            hardware(&scenario) { list in
                guard var root = list.rootOfTrust else { return }
                root.deviceLocked = false
                list.set(.rootOfTrust, .rootOfTrust(root))
            }
        },
    ] + [("self-signed", RootOfTrust.selfSigned), ("unverified", RootOfTrust.unverified), ("failed", RootOfTrust.failed)].map { name, state in
        Definition(variant: name, rule: .androidVerifiedBootState, importance: .critical,
                   description: "verifiedBootState is \(name).") { scenario, _ in
            hardware(&scenario) { list in
                guard var root = list.rootOfTrust else { return }
                root.verifiedBootState = state
                list.set(.rootOfTrust, .rootOfTrust(root))
            }
        }
    } + [
        Definition(variant: "present", rule: .androidAllApplications, importance: .high,
                   description: "allApplications is present: any app on the device may use the key.") { scenario, _ in
            hardware(&scenario) { $0.set(.allApplications, .flag) }
        },
        Definition(variant: "verify-only", rule: .androidPurpose, importance: .medium,
                   description: "purpose is {VERIFY}, without SIGN.") { scenario, _ in
            hardware(&scenario) { $0.set(.purpose, .integerSet([KeyMintValues.purposeVerify])) }
        },
        Definition(variant: "other-package", rule: .androidPackage, importance: .critical,
                   description: "attestationApplicationId names another package.") { scenario, _ in
            scenario.setApplication { $0.packages = [.init(name: Array("com.example.other".utf8), version: 1)] }
        },
        Definition(variant: "other-digest", rule: .androidSigningDigest, importance: .critical,
                   description: "attestationApplicationId carries another signing-certificate digest (a repackaged app).") { scenario, _ in
            scenario.setApplication { $0.signatureDigests = [sha256(Array("attacker signing certificate".utf8))] }
        },
        Definition(variant: "other-key", rule: .androidPublicKey, importance: .critical,
                   description: "The submitted key is not the attested key.") { scenario, forge in
            scenario.submittedKey = try forge.key("other").publicKey
        },

        // Key policy of device-bound passkeys (accepted under android-key-attestation).
        Definition(variant: "rsa", rule: .androidAlgorithm, importance: .high,
                   description: "The attested key is RSA-2048.") { scenario, forge in
            let key = try forge.seed.key(.rsa(bits: 2048), "android rsa key")
            scenario.attestation.key = key
            scenario.submittedKey = key.publicKey
            hardware(&scenario) { list in
                list.set(.algorithm, .integer(KeyMintValues.algorithmRSA))
                list.set(.keySize, .integer(2048))
                list.remove(.ecCurve)
            }
        },
        Definition(variant: "p-384", rule: .androidCurve, importance: .medium,
                   description: "The attested key is EC P-384.") { scenario, forge in
            let key = try forge.seed.key(.ec(.p384), "android p-384 key")
            scenario.attestation.key = key
            scenario.submittedKey = key.publicKey
            hardware(&scenario) { list in
                list.set(.keySize, .integer(384))
                list.set(.ecCurve, .integer(KeyMintValues.curveP384))
            }
        },
        Definition(variant: "present", rule: .androidNoAuthRequired, importance: .critical,
                   description: "noAuthRequired is present: the key signs without the user.") { scenario, _ in
            hardware(&scenario) { $0.set(.noAuthRequired, .flag) }
        },
        Definition(variant: "pin-fallback", rule: .androidUserAuthType, importance: .critical,
                   description: "userAuthType is PASSWORD | FINGERPRINT: the PIN also releases the key.") { scenario, _ in
            hardware(&scenario) {
                $0.set(.userAuthType, .integer(KeyMintValues.authenticatorPassword | KeyMintValues.authenticatorFingerprint))
            }
        },
        Definition(variant: "any", rule: .androidUserAuthType, importance: .critical,
                   description: "userAuthType is ANY (0xFFFFFFFF).") { scenario, _ in
            hardware(&scenario) { $0.set(.userAuthType, .integer(KeyMintValues.authenticatorAny)) }
        },
        Definition(variant: "five-minutes", rule: .androidAuthTimeout, importance: .high,
                   description: "authTimeout is 300: one authentication unlocks the key for five minutes.") { scenario, _ in
            hardware(&scenario) { $0.set(.authTimeout, .integer(300)) }
        },
    ]
}
