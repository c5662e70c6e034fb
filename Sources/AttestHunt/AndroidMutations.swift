import AttestConformance
import AttestCrypto
import AttestDER
import AttestEvidence
import AttestForge
import Foundation

/// The Android key attestation mutations, as data: per field of the KeyDescription (its versions, security levels,
/// challenge, unique id, and each authorization list's root of trust, purposes, algorithm, origin, patch levels and
/// application id, tags moved, repeated, dropped, reordered or unknown), of its DER encoding, of the leaf and of the
/// chain (order, length, an expired or attacker's authority, a revoked leaf), and of what the app sends beside it.
/// Repaired ones change the scenario before rendering, so the leaf is issued again over the changed KeyDescription
/// and the chain stays signed; raw ones change the rendered chain's bytes.
package enum AndroidMutations {
    package static var all: [AndroidMutation] { keyDescription + authorizationLists + encoding + chain + inputs + raw }

    typealias Edit = @Sendable (inout AndroidScenario, inout HuntRandom, AndroidForge) throws -> Int?

    static func mutation(_ field: String, _ kind: String, _ edit: @escaping Edit) -> AndroidMutation {
        AndroidMutation(.attestation, field, kind, .repaired(edit))
    }

    // MARK: - The KeyDescription's own fields

    static let keyDescription: [AndroidMutation] = [
        mutation("keyDescription.attestationVersion", "value") { scenario, random, _ in
            let old = scenario.attestation.keyDescription.attestationVersion
            scenario.attestation.keyDescription.attestationVersion = random.pick([1, 2, 3, 4, 100, 200, 300, 400, -1])
            return scenario.attestation.keyDescription.attestationVersion == old ? nil : 1
        },
        mutation("keyDescription.attestationSecurityLevel", "value") { scenario, random, _ in
            let old = scenario.attestation.keyDescription.attestationSecurityLevel
            scenario.attestation.keyDescription.attestationSecurityLevel = random.pick([0, 1, 2, 3, 7])
            return scenario.attestation.keyDescription.attestationSecurityLevel == old ? nil : 1
        },
        mutation("keyDescription.keyMintSecurityLevel", "value") { scenario, random, _ in
            let old = scenario.attestation.keyDescription.keyMintSecurityLevel
            scenario.attestation.keyDescription.keyMintSecurityLevel = random.pick([0, 1, 2, 3])
            return scenario.attestation.keyDescription.keyMintSecurityLevel == old ? nil : 1
        },
        mutation("keyDescription.keyMintVersion", "value") { scenario, random, _ in
            let old = scenario.attestation.keyDescription.keyMintVersion
            scenario.attestation.keyDescription.keyMintVersion = random.pick([0, 1, 4, 100, 300, 400])
            return scenario.attestation.keyDescription.keyMintVersion == old ? nil : 1
        },
        mutation("keyDescription.attestationChallenge", "bit-flip") { scenario, random, _ in
            random.flipBit(in: &scenario.attestation.keyDescription.attestationChallenge)
        },
        mutation("keyDescription.attestationChallenge", "truncate") { scenario, random, _ in
            guard !scenario.attestation.keyDescription.attestationChallenge.isEmpty else { return nil }
            let count = 1 + random.index(min(4, scenario.attestation.keyDescription.attestationChallenge.count))
            scenario.attestation.keyDescription.attestationChallenge.removeLast(count)
            return count
        },
        mutation("keyDescription.attestationChallenge", "empty") { scenario, _, _ in
            let count = scenario.attestation.keyDescription.attestationChallenge.count
            scenario.attestation.keyDescription.attestationChallenge = []
            return count == 0 ? nil : count
        },
        mutation("keyDescription.uniqueId", "non-empty") { scenario, random, _ in
            scenario.attestation.keyDescription.uniqueId = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return 16
        },
    ]

    // MARK: - The authorization lists

    /// Which list a mutation edits.
    enum List: String, CaseIterable, Sendable {
        case hardwareEnforced, softwareEnforced

        func edit(_ scenario: inout AndroidScenario, _ change: (inout AuthorizationList) -> Int?) -> Int? {
            switch self {
            case .hardwareEnforced: change(&scenario.attestation.keyDescription.hardwareEnforced)
            case .softwareEnforced: change(&scenario.attestation.keyDescription.softwareEnforced)
            }
        }

        var other: List { self == .hardwareEnforced ? .softwareEnforced : .hardwareEnforced }
    }

    static func rootOfTrust(_ list: List, _ change: @escaping @Sendable (inout RootOfTrust, inout HuntRandom) -> Int?) -> Edit {
        { scenario, random, _ in
            list.edit(&scenario) { authorizations in
                guard var root = authorizations.rootOfTrust, let size = change(&root, &random) else { return nil }
                authorizations.set(.rootOfTrust, .rootOfTrust(root))
                return size
            }
        }
    }

    /// The value edits of each list's own tags (KeyMint puts the root of trust, purposes, algorithm, origin and
    /// patch levels in hardwareEnforced, the application id in softwareEnforced), then the edits of any list's
    /// shape: a tag moved to the other list, repeated, dropped, out of order or unknown.
    static var authorizationLists: [AndroidMutation] {
        hardwareTags(.hardwareEnforced) + applicationId(.softwareEnforced) + List.allCases.flatMap(listShape)
    }

    static func hardwareTags(_ list: List) -> [AndroidMutation] {
        let prefix = "keyDescription.\(list.rawValue)"
        return [
            mutation("\(prefix).rootOfTrust.deviceLocked", "toggle", rootOfTrust(list) { root, _ in
                root.deviceLocked.toggle()
                return 1
            }),
            mutation("\(prefix).rootOfTrust.verifiedBootState", "value", rootOfTrust(list) { root, random in
                let old = root.verifiedBootState
                root.verifiedBootState = random.pick([RootOfTrust.verified, RootOfTrust.selfSigned, RootOfTrust.unverified, RootOfTrust.failed, 9])
                return root.verifiedBootState == old ? nil : 1
            }),
            mutation("\(prefix).rootOfTrust.verifiedBootKey", "bit-flip", rootOfTrust(list) { root, random in
                random.flipBit(in: &root.verifiedBootKey)
            }),
            mutation("\(prefix).rootOfTrust.verifiedBootKey", "zero", rootOfTrust(list) { root, _ in
                guard root.verifiedBootKey.contains(where: { $0 != 0 }) else { return nil }
                root.verifiedBootKey = Array(repeating: 0, count: root.verifiedBootKey.count)
                return root.verifiedBootKey.count
            }),
            mutation("\(prefix).rootOfTrust.verifiedBootHash", "absent", rootOfTrust(list) { root, _ in
                guard root.verifiedBootHash != nil else { return nil }
                root.verifiedBootHash = nil
                return 32
            }),
            mutation("\(prefix).purpose", "other") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard authorizations.contains(.purpose) else { return nil }
                    authorizations.set(.purpose, .integerSet(random.pick([[0], [1], [2, 3], [7], [2, 7], []])))
                    return 1
                }
            },
            mutation("\(prefix).algorithm", "other") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard let old = authorizations.integer(.algorithm) else { return nil }
                    let value: Int64 = random.pick([1, 3, 32, 128, 9])
                    guard value != old else { return nil }
                    authorizations.set(.algorithm, .integer(value))
                    return 1
                }
            },
            mutation("\(prefix).origin", "other") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard let old = authorizations.integer(.origin) else { return nil }
                    let value: Int64 = random.pick([1, 2, 3, 4])
                    guard value != old else { return nil }
                    authorizations.set(.origin, .integer(value))
                    return 1
                }
            },
            mutation("\(prefix).patchLevel", "value") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    let tag: AuthorizationTag = random.pick([.osPatchLevel, .vendorPatchLevel, .bootPatchLevel])
                    guard authorizations.contains(tag) else { return nil }
                    authorizations.set(tag, .integer(random.pick([0, 201_001, 20_100_101, 999_999])))
                    return 4
                }
            },
        ]
    }

    static func applicationId(_ list: List) -> [AndroidMutation] {
        let prefix = "keyDescription.\(list.rawValue)"
        return [
            mutation("\(prefix).attestationApplicationId", "other-package") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard var application = authorizations.attestationApplicationId, !application.packages.isEmpty else { return nil }
                    var name = application.packages[0].name
                    _ = random.pick([true, false]) ? random.flipBit(in: &name) : { name += Array(".evil".utf8); return 5 }()
                    application.packages[0].name = name
                    authorizations.set(.attestationApplicationId, .attestationApplicationId(application))
                    return 1
                }
            },
            mutation("\(prefix).attestationApplicationId", "other-signature") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard var application = authorizations.attestationApplicationId, !application.signatureDigests.isEmpty else { return nil }
                    if random.pick([true, false]) {
                        _ = random.flipBit(in: &application.signatureDigests[0])
                    } else {
                        application.signatureDigests.append(Array(repeating: 0xAB, count: 32))
                    }
                    authorizations.set(.attestationApplicationId, .attestationApplicationId(application))
                    return 1
                }
            },
        ]
    }

    static func listShape(_ list: List) -> [AndroidMutation] {
        let prefix = "keyDescription.\(list.rawValue)"
        return [
            mutation("\(prefix)", "move-tag") { scenario, random, _ in
                // A field taken out of this list and put in the other (a root of trust only software vouches for).
                var moved: AuthorizationList.Field?
                _ = list.edit(&scenario) { authorizations in
                    guard !authorizations.fields.isEmpty else { return nil }
                    moved = authorizations.fields.remove(at: random.index(authorizations.fields.count))
                    return 1
                }
                guard let moved else { return nil }
                return list.other.edit(&scenario) { authorizations in
                    authorizations.fields.removeAll { $0.tag == moved.tag }
                    authorizations.fields.insert(moved, at: authorizations.fields.firstIndex { $0.tag > moved.tag } ?? authorizations.fields.count)
                    return 1
                }
            },
            mutation("\(prefix)", "repeat-tag") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard !authorizations.fields.isEmpty else { return nil }
                    let index = random.index(authorizations.fields.count)
                    authorizations.fields.insert(authorizations.fields[index], at: index + 1)
                    return 4
                }
            },
            mutation("\(prefix)", "drop-tag") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard !authorizations.fields.isEmpty else { return nil }
                    authorizations.fields.remove(at: random.index(authorizations.fields.count))
                    return 4
                }
            },
            mutation("\(prefix)", "swap-tags") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    guard authorizations.fields.count >= 2 else { return nil }
                    let index = random.index(authorizations.fields.count - 1)
                    authorizations.fields.swapAt(index, index + 1)
                    return 2
                }
            },
            mutation("\(prefix)", "unknown-tag") { scenario, random, _ in
                list.edit(&scenario) { authorizations in
                    let tag: UInt64 = random.pick([9, 250, 999, 4_000])
                    authorizations.fields.append(.init(tag, .unknown(.explicit(tag, .integer(1)))))
                    return 6
                }
            },
            mutation("\(prefix).noAuthRequired", "toggle") { scenario, _, _ in
                list.edit(&scenario) { authorizations in
                    if authorizations.contains(.noAuthRequired) { authorizations.remove(.noAuthRequired) } else { authorizations.set(.noAuthRequired, .flag) }
                    return 2
                }
            },
            mutation("\(prefix).allApplications", "present") { scenario, _, _ in
                list.edit(&scenario) { authorizations in
                    guard !authorizations.contains(.allApplications) else { return nil }
                    authorizations.set(.allApplications, .flag)
                    return 4
                }
            },
        ]
    }

    // MARK: - The KeyDescription's encoding and count

    static let encoding: [AndroidMutation] = [
        mutation("keyDescription", "extension-count") { scenario, random, _ in
            scenario.attestation.keyDescriptionCount = random.pick([0, 2])
            return 1
        },
        mutation("keyDescription", "trailing-bytes") { scenario, random, _ in
            let extra: [UInt8] = random.pick([[0x00], [0x05, 0x00], [0x30, 0x00]])
            scenario.keyDescriptionBytes = { $0 + extra }
            return extra.count
        },
        mutation("keyDescription", "long-form-length") { scenario, _, _ in
            scenario.keyDescriptionBytes = { der in
                guard der.count > 2, der[1] & 0x80 != 0 else { return der }
                // One length byte more than needed: BER, not DER.
                let count = Int(der[1] & 0x7F)
                return [der[0], 0x80 | UInt8(count + 1), 0x00] + der[2...]
            }
            return 1
        },
        mutation("keyDescription", "extra-element") { scenario, _, _ in
            scenario.keyDescriptionBytes = { der in
                guard let children = (try? DERReader.parse(der))?.children else { return der }
                return DERElement.sequence(children + [.integer(0)]).serialized
            }
            return 3
        },
    ]

    // MARK: - The leaf and the chain

    static let chain: [AndroidMutation] = [
        mutation("leaf.validity", "expired") { scenario, random, forge in
            let end = forge.time - Double(random.pick([1, 3_600, 86_400]))
            scenario.attestation.leafValidity = (end - 365 * 86_400, end)
            return 13
        },
        mutation("leaf.validity", "not-yet-valid") { scenario, random, forge in
            let start = forge.time + Double(random.pick([60, 86_400]))
            scenario.attestation.leafValidity = (start, start + 365 * 86_400)
            return 13
        },
        mutation("leaf.serial", "other") { scenario, random, _ in
            scenario.attestation.leafSerial = random.pick([[0], [0x7F], [0x01, 0x00], Array(repeating: 0x11, count: 20)])
            return scenario.attestation.leafSerial.count
        },
        mutation("chain", "reversed") { scenario, _, _ in
            scenario.reversed = true
            return 1
        },
        mutation("chain", "without-root") { scenario, _, _ in
            scenario.withoutRoot = true
            return 1
        },
        mutation("chain", "leaf-only") { scenario, _, _ in
            scenario.leafOnly = true
            return 1
        },
        mutation("chain", "leaf-and-root") { scenario, _, _ in
            scenario.leafAndRoot = true
            return 1
        },
        mutation("chain", "attacker-pki") { scenario, _, forge in
            scenario.attackerPKI = try forge.attackerPKI()
            return 64
        },
        mutation("chain.authority", "expired") { scenario, random, _ in
            scenario.expiredAuthority = random.index(2)
            return 13
        },
        mutation("chain.authority", "end-entity") { scenario, random, _ in
            scenario.endEntityAuthority = random.index(2)
            return 8
        },
        mutation("chain.authority", "key-description") { scenario, _, _ in
            scenario.keyDescriptionOnIntermediate = true
            return 8
        },
        mutation("chain", "extended-below-leaf") { scenario, _, forge in
            scenario.extensionKey = try forge.key("hunt chain extension")
            return 64
        },
        mutation("statusList", "leaf-authority-revoked") { scenario, random, forge in
            let chain = try scenario.render(pki: forge.pki)
            guard chain.count >= 2 else { return nil }
            scenario.revoke(chain[1 + random.index(chain.count - 1)], random.pick([.revoked, .suspended]))
            return 16
        },
    ]

    // MARK: - What the app sends beside the chain

    static let inputs: [AndroidMutation] = [
        mutation("challenge", "bit-flip") { scenario, random, _ in random.flipBit(in: &scenario.challenge) },
        mutation("publicKey", "other-key") { scenario, _, forge in
            scenario.submittedKey = try forge.key("hunt other submitted key").publicKey
            return 64
        },
    ]

    static let raw: [AndroidMutation] = WebAuthnMutations.byteEdits.map { named in
        AndroidMutation(.attestation, "certificateChain[bytes]", named.kind, .raw(.certificateChain, named.edit))
    }
}
