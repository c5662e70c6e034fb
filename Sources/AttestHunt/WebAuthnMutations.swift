import AttestCBOR
import AttestCatalogue
import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation

/// The WebAuthn mutations, as data: per field of a registration or an assertion, the changes a hunt draws from.
/// Each is one structure-aware edit (a JSON member, a flag bit, a DER element, a CBOR entry, a certificate field)
/// or a raw byte edit of a rendered input; the catalogue's malformations reappear here as kinds, so a hunt also
/// tries them on baselines the catalogue never combined them with.
package enum WebAuthnMutations {
    package static var all: [WebAuthnMutation] {
        clientData(.registration) + clientData(.assertion) + authenticatorData(.registration) + authenticatorData(.assertion)
            + assertionSignature + credentialJSON(.registration) + credentialJSON(.assertion) + packedStatement + credentialKey
            + attestationObject + WebAuthnStatementMutations.all + raw
    }

    // MARK: - clientDataJSON

    typealias StringEdit = @Sendable (String, inout HuntRandom) -> String?

    /// A change and the kind it is reported under.
    struct Named<Edit: Sendable>: Sendable {
        let kind: String
        let edit: Edit
    }

    static func stringEdit(_ kind: String, _ edit: @escaping StringEdit) -> Named<StringEdit> { Named(kind: kind, edit: edit) }
    static func derEdit(_ kind: String, _ edit: @escaping DEREdit) -> Named<DEREdit> { Named(kind: kind, edit: edit) }
    static func byteEdit(_ kind: String, _ edit: @escaping ByteEdit) -> Named<ByteEdit> { Named(kind: kind, edit: edit) }

    static var originEdits: [Named<StringEdit>] { originSpellings + generic }

    /// Spellings of an origin that a URL parser may read as the same site, and ones that are plainly another.
    static let originSpellings: [Named<StringEdit>] = [
        stringEdit("append-path") { origin, random in origin + random.pick(["/", "/x", "/login", "/..", "/%2e%2e"]) },
        stringEdit("userinfo") { origin, random in origin.replacingOccurrences(of: "://", with: "://" + random.pick(["u@", "u:p@", "@"])) },
        stringEdit("default-port") { origin, _ in origin.hasPrefix("https://") ? origin + ":443" : origin + ":80" },
        stringEdit("other-port") { origin, random in origin + ":" + String(random.pick([8443, 444, 1, 65535])) },
        stringEdit("upper-case") { origin, _ in origin.uppercased() },
        stringEdit("suffix-domain") { origin, random in origin + random.pick([".evil.test", "evil.test", "-evil.test"]) },
        stringEdit("subdomain") { origin, random in origin.replacingOccurrences(of: "://", with: "://" + random.pick(["evil.", "a.b.", "www."])) },
        stringEdit("scheme") { origin, random in
            let rest = origin.components(separatedBy: "://").dropFirst().joined(separator: "://")
            return random.pick(["http", "wss", "HTTPS", "android", "ftp"]) + "://" + rest
        },
        stringEdit("trailing-dot") { origin, _ in origin + "." },
        stringEdit("query-or-fragment") { origin, random in origin + random.pick(["?", "?a=1", "#", "#x"]) },
        stringEdit("control-character") { origin, random in origin + random.pick(["\u{0}", "\t", "\n", " "]) },
        stringEdit("leading-space") { origin, _ in " " + origin },
    ]

    /// Edits that make any string another one by a small step.
    static let generic: [Named<StringEdit>] = [
        stringEdit("bit-flip") { text, random in
            var bytes = Array(text.utf8)
            guard !bytes.isEmpty else { return nil }
            let position = random.index(bytes.count)
            bytes[position] ^= UInt8(1) << UInt8(random.index(7))
            return String(decoding: bytes, as: UTF8.self)
        },
        stringEdit("truncate") { text, random in
            guard !text.isEmpty else { return nil }
            return String(text.dropLast(1 + random.index(min(4, text.count))))
        },
        stringEdit("empty") { _, _ in "" },
        stringEdit("append-character") { text, random in text + random.pick(["a", "=", "\\", "\u{e9}", "\u{200b}"]) },
    ]

    static var challengeEdits: [Named<StringEdit>] { challengeSpellings + generic }
    static let challengeSpellings: [Named<StringEdit>] = [
        stringEdit("padded") { text, random in text + random.pick(["=", "=="]) },
        stringEdit("standard-alphabet") { text, _ in
            let swapped = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            return swapped == text ? text + "+" : swapped
        },
        stringEdit("upper-case") { text, _ in text.uppercased() == text ? nil : text.uppercased() },
    ]

    static var typeEdits: [Named<StringEdit>] { typeSpellings + generic }
    static let typeSpellings: [Named<StringEdit>] = [
        stringEdit("other-ceremony") { type, _ in type == WebAuthnFormat.createType ? WebAuthnFormat.getType : WebAuthnFormat.createType },
        stringEdit("upper-case") { type, _ in type.uppercased() },
        stringEdit("prefix") { type, _ in "x" + type },
    ]

    /// The string members of client data a hunt edits.
    enum ClientDataMember: String, Sendable {
        case origin, challenge, type

        func value(of clientData: CollectedClientData) -> String {
            switch self {
            case .origin: clientData.origin
            case .challenge: clientData.challenge
            case .type: clientData.type
            }
        }

        func set(_ value: String, in clientData: inout CollectedClientData) {
            switch self {
            case .origin: clientData.origin = value
            case .challenge: clientData.challenge = value
            case .type: clientData.type = value
            }
        }
    }

    static func clientData(_ target: MutationTarget) -> [WebAuthnMutation] {
        var mutations: [WebAuthnMutation] = []
        let members: [(field: ClientDataMember, edits: [Named<StringEdit>])] = [
            (.origin, originEdits), (.challenge, challengeEdits), (.type, typeEdits),
        ]
        for (field, edits) in members {
            for named in edits {
                let edit = named.edit
                mutations.append(WebAuthnMutation(target, "clientDataJSON.\(field.rawValue)", named.kind, .repaired { scenario, random, _ in
                    scenario.editClientData(target) { clientData in
                        let old = field.value(of: clientData)
                        guard let new = edit(old, &random), new != old else { return nil }
                        field.set(new, in: &clientData)
                        return changedBytes(Array(old.utf8), Array(new.utf8))
                    }
                }))
            }
        }
        mutations += [
            WebAuthnMutation(target, "clientDataJSON.crossOrigin", "true", .repaired { scenario, _, _ in
                scenario.editClientData(target) { $0.crossOrigin == true ? nil : { $0.crossOrigin = true; return 1 }(&$0) }
            }),
            WebAuthnMutation(target, "clientDataJSON.crossOrigin", "absent", .repaired { scenario, _, _ in
                scenario.editClientData(target) { $0.crossOrigin == nil ? nil : { $0.crossOrigin = nil; return 1 }(&$0) }
            }),
            WebAuthnMutation(target, "clientDataJSON.topOrigin", "present", .repaired { scenario, random, _ in
                scenario.editClientData(target) { clientData in
                    clientData.topOrigin = random.pick([clientData.origin, "https://evil.test", clientData.origin + "/x"])
                    return 1
                }
            }),
            // Members after the fixed ones: an unknown one (§5.8.1: to be ignored), or a second copy of a fixed
            // one whose value differs, so that first-wins and last-wins parsers disagree.
            WebAuthnMutation(target, "clientDataJSON", "unknown-member", .repaired { scenario, random, _ in
                scenario.editClientData(target) { clientData in
                    let member = random.pick(["\"other\":1", "\"tokenBinding\":{\"status\":\"present\",\"id\":\"AA\"}", "\"extra\":\"\""])
                    clientData.remainder = member
                    return member.utf8.count
                }
            }),
            WebAuthnMutation(target, "clientDataJSON", "duplicate-member", .repaired { scenario, random, _ in
                scenario.editClientData(target) { clientData in
                    let name = random.pick(["type", "challenge", "origin"])
                    let value = random.pick(["\"AAAA\"", "\"https://evil.test\"", "\"webauthn.create\"", "\"webauthn.get\""])
                    clientData.remainder = "\"\(name)\":\(value)"
                    return clientData.remainder?.utf8.count
                }
            }),
        ]
        return mutations
    }

    // MARK: - authenticatorData

    static let flagBits: [(name: String, bit: UInt8)] = [
        ("UP", 0x01), ("RFU1", 0x02), ("UV", 0x04), ("BE", 0x08), ("BS", 0x10), ("RFU2", 0x20), ("AT", 0x40), ("ED", 0x80),
    ]

    static func authenticatorData(_ target: MutationTarget) -> [WebAuthnMutation] {
        var mutations = flagBits.map { name, bit in
            WebAuthnMutation(target, "authenticatorData.flags.\(name)", "toggle", .repaired { scenario, _, _ in
                scenario.editAuthenticatorData(target) { flags, _, _, _ in
                    flags = AuthenticatorData.Flags(rawValue: flags.rawValue ^ bit)
                    return 1
                }
            })
        }
        mutations += [
            WebAuthnMutation(target, "authenticatorData.signCount", "value", .repaired { scenario, random, _ in
                scenario.editAuthenticatorData(target) { _, signCount, _, _ in
                    let old = signCount
                    signCount = random.pick([0, 1, old &- 1, old &+ 1, UInt32.max, 0x8000_0000])
                    return signCount == old ? nil : 4
                }
            }),
            WebAuthnMutation(target, "authenticatorData.rpIdHash", "bit-flip", .repaired { scenario, random, _ in
                scenario.editAuthenticatorData(target) { _, _, rpIdHash, _ in random.flipBit(in: &rpIdHash) }
            }),
            WebAuthnMutation(target, "authenticatorData", "trailing-bytes", .repaired { scenario, random, _ in
                scenario.editAuthenticatorData(target) { _, _, _, suffix in
                    let added: [UInt8] = random.pick([[0x00], [0xA0], [0xA1, 0x61, 0x78, 0x01], [0xFF, 0xFF]])
                    suffix += added
                    return added.count
                }
            }),
        ]
        return mutations
    }

    // MARK: - The assertion signature (DER Ecdsa-Sig-Value)

    typealias DEREdit = @Sendable (ECDSASignatureValue, [UInt8]) -> [UInt8]?

    static let signatureEdits: [Named<DEREdit>] = [
        derEdit("long-form-length") { _, der in [der[0], 0x81] + der[1...] },
        derEdit("extra-integer") { value, _ in
            DERElement.sequence([.integer(unsignedBigEndian: value.r), .integer(unsignedBigEndian: value.s),
                                 .integer(unsignedBigEndian: [0x01])]).serialized
        },
        derEdit("trailing-bytes") { _, der in der + [0x00] },
        derEdit("padded-integer") { value, _ in
            DERElement.sequence([.primitive(.integer, [0x00, 0x00] + value.r), .integer(unsignedBigEndian: value.s)]).serialized
        },
        derEdit("raw") { value, _ in value.raw(curve: .p256) },
        derEdit("high-s") { value, _ in value.highS(curve: .p256) == value ? nil : value.highS(curve: .p256).der },
        derEdit("low-s") { value, _ in value.lowS(curve: .p256) == value ? nil : value.lowS(curve: .p256).der },
        derEdit("zero-r-and-s") { _, _ in DERElement.sequence([.integer(unsignedBigEndian: [0]), .integer(unsignedBigEndian: [0])]).serialized },
        derEdit("r-is-order") { value, _ in
            DERElement.sequence([.integer(unsignedBigEndian: ECCurve.p256.order), .integer(unsignedBigEndian: value.s)]).serialized
        },
        derEdit("swap-r-s") { value, _ in DERElement.sequence([.integer(unsignedBigEndian: value.s), .integer(unsignedBigEndian: value.r)]).serialized },
        derEdit("negative-r") { value, _ in
            // r's magnitude written without the 0x00 that keeps its top bit from being a sign.
            var r = value.r
            r[0] |= 0x80
            return DERElement.sequence([.primitive(.integer, r), .integer(unsignedBigEndian: value.s)]).serialized
        },
        derEdit("set-instead-of-sequence") { _, der in [0x31] + der.dropFirst() },
        derEdit("indefinite-length") { _, der in
            guard der.count > 2, der[1] < 0x80 else { return nil }
            return [0x30, 0x80] + der.dropFirst(2) + [0x00, 0x00]
        },
    ]

    static let assertionSignature: [WebAuthnMutation] = signatureEdits.map { named in
        let edit = named.edit
        return WebAuthnMutation(.assertion, "signature", named.kind, .repaired { scenario, _, _ in
            guard !scenario.assertions.isEmpty, case .ec = scenario.lastAssertion.signingKey.publicKey.algorithm else { return nil }
            scenario.lastAssertion.signatureEncoding = { der in
                guard let value = try? ECDSASignatureValue(der: der), !value.r.isEmpty, let edited = edit(value, der) else { return der }
                return edited
            }
            return 8
        })
    }

    // MARK: - The credential's JSON envelope

    static func credentialJSON(_ target: MutationTarget) -> [WebAuthnMutation] {
        typealias Edit = @Sendable (inout CredentialJSON.Members, inout HuntRandom) -> Int?
        let edits: [(field: String, kind: String, edit: Edit)] = [
            ("id", "absent", { members, _ in members.removeValue(forKey: "id") == nil ? nil : 1 }),
            ("id", "number", { members, _ in members["id"] = .number(1); return 1 }),
            ("id", "bit-flip", { members, random in
                guard case .text(let id)? = members["id"], !id.isEmpty else { return nil }
                var bytes = Array(id.utf8)
                bytes[random.index(bytes.count)] = UInt8(ascii: random.pick(["A", "B", "-", "_"]))
                members["id"] = .text(String(decoding: bytes, as: UTF8.self))
                return 1
            }),
            ("rawId", "absent", { members, _ in members.removeValue(forKey: "rawId") == nil ? nil : 1 }),
            ("type", "other", { members, random in members["type"] = .text(random.pick(["public-key ", "Public-Key", "password"])); return 1 }),
            ("clientExtensionResults", "absent", { members, _ in members.removeValue(forKey: "clientExtensionResults") == nil ? nil : 1 }),
            ("clientExtensionResults", "unrequested", { members, _ in
                members["clientExtensionResults"] = .object(["credProps": .object(["rk": .boolean(true)])])
                return 1
            }),
            ("authenticatorAttachment", "other", { members, random in
                members["authenticatorAttachment"] = .text(random.pick(["platform", "cross-platform", "x"]))
                return 1
            }),
            ("", "unknown-member", { members, _ in members["x-unknown"] = .text("1"); return 1 }),
        ]
        return edits.map { field, kind, edit in
            WebAuthnMutation(target, field.isEmpty ? "credentialJSON" : "credentialJSON.\(field)", kind, .repaired { scenario, random, _ in
                // The edit draws its choices from a copy of the state now, so rendering gives the same mutant.
                let frozen = random
                _ = random.next()
                let apply: @Sendable (inout CredentialJSON.Members) -> Void = { members in
                    var local = frozen
                    _ = edit(&members, &local)
                }
                switch target {
                case .attestation, .request, .approval: return nil
                case .registration:
                    scenario.registrations[scenario.registrations.count - 1].credentialJSONEdit = apply
                case .assertion:
                    guard !scenario.assertions.isEmpty else { return nil }
                    scenario.lastAssertion.credentialJSONEdit = apply
                }
                return 1
            })
        }
    }

    // MARK: - The packed attestation statement and its certificate

    static let packedStatement: [WebAuthnMutation] = {
        typealias EntriesEdit = @Sendable ([CBORMapEntry]) -> [CBORMapEntry]
        func member(_ key: String, _ value: CBORValue?) -> EntriesEdit {
            { entries in entries.compactMap { $0.key == .text(key) ? value.map { CBORMapEntry(.text(key), $0) } : $0 } }
        }
        let entryEdits: [(field: String, kind: String, edit: EntriesEdit)] = [
            ("alg", "absent", member("alg", nil)),
            ("alg", "text", member("alg", .text("-7"))),
            ("alg", "other", member("alg", .int(-257))),
            ("alg", "unknown", member("alg", .int(-65000))),
            ("alg", "duplicate", { entries in entries + [CBORMapEntry("alg", .int(-257))] }),
            ("sig", "absent", member("sig", nil)),
            ("sig", "empty", member("sig", .bytes([]))),
            ("x5c", "absent", member("x5c", nil)),
            ("x5c", "empty", member("x5c", .array([]))),
            ("x5c", "not-array", { entries in
                entries.map { $0.key == .text("x5c") ? CBORMapEntry("x5c", $0.value.arrayValue?.first ?? .bytes([])) : $0 }
            }),
            ("x5c", "leaf-twice", { entries in
                entries.map { entry in
                    guard entry.key == .text("x5c"), let items = entry.value.arrayValue, let first = items.first else { return entry }
                    return CBORMapEntry("x5c", .array([first] + items))
                }
            }),
            ("", "unknown-entry", { entries in entries + [CBORMapEntry("ecdaaKeyId", .bytes([0x01]))] }),
            ("", "reordered", { entries in entries.reversed() }),
        ]
        typealias StatementEdit = @Sendable (inout PackedStatement, inout HuntRandom, WebAuthnForge) throws -> Int?
        let certificateEdits: [(field: String, kind: String, edit: StatementEdit)] = [
            ("x5c[0].basicConstraints", "ca-true", { statement, _, _ in statement.certificateIsCA = true; return 1 }),
            ("x5c[0].version", "v1", { statement, _, _ in statement.certificateVersion = 0; return 1 }),
            ("x5c[0].aaguid", "other", { statement, random, _ in
                statement.aaguidExtension = .value((0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                return 16
            }),
            ("x5c[0].aaguid", "absent", { statement, _, _ in statement.aaguidExtension = .absent; return 16 }),
            ("x5c[0].subject", "other", { statement, random, _ in
                statement.subject = random.pick([
                    X509Name([.country("US"), .organization("Vendor"), .organizationalUnit("Other Unit"), .commonName("A")]),
                    X509Name([.country("us"), .organization("Vendor"), .organizationalUnit(WebAuthnFormat.packedOrganizationalUnit), .commonName("A")]),
                    X509Name([.country("US"), .organization("Vendor"), .organizationalUnit(WebAuthnFormat.packedOrganizationalUnit)]),
                    X509Name([.organization("Vendor"), .organizationalUnit(WebAuthnFormat.packedOrganizationalUnit), .commonName("A")]),
                ])
                return 4
            }),
            ("x5c[0].validity", "shifted", { statement, random, forge in
                statement.validity = WebAuthnMutations.validityShifted(&random, around: forge.time)
                return 8
            }),
        ]
        var mutations: [WebAuthnMutation] = entryEdits.map { field, kind, edit in
            WebAuthnMutation(.registration, field.isEmpty ? "attStmt" : "attStmt.\(field)", kind, .repaired { scenario, _, _ in
                try scenario.editPacked { statement in
                    statement.entriesEdit = edit
                    return 1
                }
            })
        }
        mutations += certificateEdits.map { field, kind, edit in
            WebAuthnMutation(.registration, "attStmt.\(field)", kind, .repaired { scenario, random, forge in
                try scenario.editPacked { statement in try edit(&statement, &random, forge) }
            })
        }
        return mutations
    }()

    /// A certificate validity of two days, ten years before or after `time`: expired or not yet valid.
    static func validityShifted(_ random: inout HuntRandom, around time: Date) -> (Date, Date) {
        let day: TimeInterval = 86_400
        let shift = random.pick([-3650 * day, 3650 * day])
        return (time.addingTimeInterval(shift - day), time.addingTimeInterval(shift + day))
    }

    // MARK: - The attestation object's shape

    /// The catalogue's shape faults (FIDO Resp-3), on every baseline's last registration, whatever its format.
    static let attestationObject: [WebAuthnMutation] = WebAuthnFamily.attestationObjectShapes.map { shape in
        WebAuthnMutation(.registration, "attestationObject", shape.variant, .repaired { scenario, _, _ in
            guard !scenario.registrations.isEmpty else { return nil }
            scenario.registrations[scenario.registrations.count - 1].objectEdit = shape.edit
            return 1
        })
    }

    // MARK: - The credential public key

    static let credentialKey: [WebAuthnMutation] = [
        WebAuthnMutation(.registration, "credentialPublicKey.alg", "other", .repaired { scenario, random, _ in
            let index = scenario.registrations.count - 1
            let algorithm: COSEKey.Algorithm = random.pick([.es384, .es512, .rs256, .ps256, .edDSA])
            scenario.registrations[index].credentialAlgorithm = algorithm
            return 1
        }),
    ]

    // MARK: - Raw bytes of a rendered input (nothing repaired)

    typealias ByteEdit = @Sendable (inout [UInt8], inout HuntRandom) -> Int?

    static let byteEdits: [Named<ByteEdit>] = [
        byteEdit("bit-flip") { bytes, random in random.flipBit(in: &bytes) },
        byteEdit("truncate") { bytes, random in
            guard !bytes.isEmpty else { return nil }
            let count = 1 + random.index(min(8, bytes.count))
            bytes.removeLast(count)
            return count
        },
        byteEdit("append-byte") { bytes, random in
            bytes.append(random.pick([0x00, 0xFF, 0xA0, 0x80]))
            return 1
        },
        byteEdit("byte-set") { bytes, random in
            guard !bytes.isEmpty else { return nil }
            let position = random.index(bytes.count)
            let value: UInt8 = random.pick([0x00, 0xFF, 0x7F, 0x80, 0x1F])
            guard bytes[position] != value else { return nil }
            bytes[position] = value
            return 1
        },
    ]

    static let raw: [WebAuthnMutation] = {
        let inputs: [(MutationTarget, InputKey)] = [
            (.registration, .attestationObject), (.registration, .clientDataJSON), (.assertion, .authenticatorData),
            (.assertion, .signature), (.assertion, .clientDataJSON),
        ]
        return inputs.flatMap { target, key in
            byteEdits.map { named in WebAuthnMutation(target, "\(key.rawValue)[bytes]", named.kind, .raw(key, named.edit)) }
        }
    }()

    /// Bytes that differ between `old` and `new` once their common prefix and suffix are set aside.
    static func changedBytes(_ old: [UInt8], _ new: [UInt8]) -> Int {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        return max(old.count, new.count) - prefix - suffix
    }
}

extension WebAuthnScenario {
    /// Applies `change` to the client data of the target ceremony; nil when there is none.
    mutating func editClientData(_ target: MutationTarget, _ change: (inout CollectedClientData) -> Int?) -> Int? {
        switch target {
        case .attestation, .request, .approval: return nil
        case .registration:
            return change(&registrations[registrations.count - 1].clientData)
        case .assertion:
            guard !assertions.isEmpty else { return nil }
            return change(&assertions[assertions.count - 1].clientData)
        }
    }

    /// Applies `change` to the target ceremony's flags, signCount, rpIdHash and bytes after its authenticator data.
    mutating func editAuthenticatorData(_ target: MutationTarget,
                                        _ change: (inout AuthenticatorData.Flags, inout UInt32, inout [UInt8], inout [UInt8]) -> Int?) -> Int? {
        switch target {
        case .attestation, .request, .approval: return nil
        case .registration:
            let index = registrations.count - 1
            var registration = registrations[index]
            defer { registrations[index] = registration }
            return change(&registration.flags, &registration.signCount, &registration.rpIdHash, &registration.authenticatorDataSuffix)
        case .assertion:
            guard !assertions.isEmpty else { return nil }
            var assertion = lastAssertion
            defer { lastAssertion = assertion }
            return change(&assertion.flags, &assertion.signCount, &assertion.rpIdHash, &assertion.authenticatorDataSuffix)
        }
    }

    /// Applies `change` to the last registration's packed statement with an x5c; nil for any other statement.
    mutating func editPacked(_ change: (inout PackedStatement) throws -> Int?) throws -> Int? {
        let index = registrations.count - 1
        guard case .packed(var statement) = registrations[index].statement, statement.issuer != nil else { return nil }
        let size = try change(&statement)
        registrations[index].statement = .packed(statement)
        return size
    }
}
