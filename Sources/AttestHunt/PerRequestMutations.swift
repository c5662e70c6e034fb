import AttestConformance
import AttestCrypto
import AttestEvidence
import AttestForge
import Foundation

/// The per-request mutations, as data: the attest request (on Android the Play Integrity token's verdict fields and
/// its JWS and JWE layers; on iOS every App Attest attestation edit), and the last protected request (its method,
/// target, body, account token, headers and time, and its proof: the assertion's counter and key, what it was
/// signed for, the session token). Repaired: the token is signed and encrypted again, the assertion signed again
/// over the client data of the (changed) request it claims.
package enum PerRequestMutations {
    package static var all: [PerRequestMutation] { integrityToken + iosAttestation + request }

    typealias TokenEdit = @Sendable (inout IntegrityTokenBlueprint, inout HuntRandom, PerRequestForge) throws -> Int?
    typealias RequestEdit = @Sendable (inout DeviceRequestBlueprint, inout HuntRandom, PerRequestForge) throws -> Int?

    /// An edit of the Android attest's integrity token; nil for an iOS flow.
    static func token(_ field: String, _ kind: String, _ edit: @escaping TokenEdit) -> PerRequestMutation {
        PerRequestMutation(.attestation, "integrityToken.\(field)", kind, .repaired { scenario, random, forge in
            guard let index = scenario.requests.firstIndex(where: { if case .attestAndroid = $0 { return true }; return false }),
                  case .attestAndroid(var blueprint, let challenge, let session, let time) = scenario.requests[index] else { return nil }
            let size = try edit(&blueprint, &random, forge)
            scenario.requests[index] = .attestAndroid(blueprint, challenge: challenge, sessionToken: session, time)
            return size
        })
    }

    /// An edit of the last protected request.
    static func lastRequest(_ field: String, _ kind: String, _ edit: @escaping RequestEdit) -> PerRequestMutation {
        PerRequestMutation(.request, field, kind, .repaired { scenario, random, forge in
            guard let index = scenario.requests.lastIndex(where: { if case .request = $0 { return true }; return false }),
                  case .request(var blueprint) = scenario.requests[index] else { return nil }
            let size = try edit(&blueprint, &random, forge)
            scenario.requests[index] = .request(blueprint)
            return size
        })
    }

    /// A string verdict field: changed a little, set to another of Google's values, or absent.
    static func verdictString(_ field: String, _ path: WritableKeyPath<IntegrityVerdict, String?> & Sendable, others: [String]) -> [PerRequestMutation] {
        [
            token("verdict.\(field)", "absent") { token, _, _ in
                guard token.verdict[keyPath: path] != nil else { return nil }
                token.verdict[keyPath: path] = nil
                return 1
            },
            token("verdict.\(field)", "other") { token, random, _ in
                let value = random.pick(others)
                guard token.verdict[keyPath: path] != value else { return nil }
                token.verdict[keyPath: path] = value
                return value.utf8.count
            },
        ] + WebAuthnMutations.generic.map { named in
            let edit = named.edit
            return token("verdict.\(field)", named.kind) { token, random, _ in
                guard let old = token.verdict[keyPath: path], let new = edit(old, &random), new != old else { return nil }
                token.verdict[keyPath: path] = new
                return max(1, WebAuthnMutations.changedBytes(Array(old.utf8), Array(new.utf8)))
            }
        }
    }

    // MARK: - The Play Integrity token

    static var integrityToken: [PerRequestMutation] {
        verdictString("nonce", \.nonce, others: ["AAAA", "", "bm9uY2U="])
            + [token("verdict.nonce", "padded") { token, random, _ in
                guard let nonce = token.verdict.nonce else { return nil }
                token.verdict.nonce = nonce + random.pick(["=", "=="])
                return 1
            }]
            + verdictString("requestPackageName", \.requestPackageName, others: ["com.example.other", "dev.attest_harness"])
            + verdictString("packageName", \.packageName, others: ["com.example.other", "dev.attest_harness"])
            + verdictString("timestampMillis", \.timestampMillis, others: ["0", "-1", "1e12", "99999999999999"])
            + verdictString("appRecognitionVerdict", \.appRecognitionVerdict, others: ["UNRECOGNIZED_VERSION", "UNEVALUATED", "play_recognized"])
            + verdictString("appLicensingVerdict", \.appLicensingVerdict, others: ["UNLICENSED", "UNEVALUATED"])
            + verdictString("versionCode", \.versionCode, others: ["0", "x"])
            + [
                token("verdict.timestampMillis", "stale") { token, random, _ in
                    guard let text = token.verdict.timestampMillis, let millis = Int64(text) else { return nil }
                    token.verdict.timestampMillis = String(millis - Int64(random.pick([60, 3_600, 86_400])) * 1_000)
                    return 4
                },
                token("verdict.timestampMillis", "future") { token, random, _ in
                    guard let text = token.verdict.timestampMillis, let millis = Int64(text) else { return nil }
                    token.verdict.timestampMillis = String(millis + Int64(random.pick([60, 3_600, 86_400])) * 1_000)
                    return 4
                },
                token("verdict.deviceRecognitionVerdict", "other") { token, random, _ in
                    token.verdict.deviceRecognitionVerdict = random.pick([[], ["MEETS_VIRTUAL_INTEGRITY"], ["MEETS_BASIC_INTEGRITY"], ["meets_device_integrity"]])
                    return 8
                },
                token("verdict.deviceRecognitionVerdict", "absent") { token, _, _ in
                    guard token.verdict.deviceRecognitionVerdict != nil else { return nil }
                    token.verdict.deviceRecognitionVerdict = nil
                    return 8
                },
                token("verdict.certificateSha256Digest", "other") { token, random, _ in
                    guard var digests = token.verdict.certificateSha256Digest, !digests.isEmpty else { return nil }
                    var bytes = Array(digests[0].utf8)
                    guard random.flipBit(in: &bytes) != nil, let text = String(bytes: bytes, encoding: .utf8) else { return nil }
                    digests[0] = text
                    token.verdict.certificateSha256Digest = digests
                    return 1
                },
                token("verdict.certificateSha256Digest", "empty") { token, _, _ in
                    token.verdict.certificateSha256Digest = []
                    return 8
                },
                token("jws.signature", "other-key") { token, _, forge in
                    token.signingKey = try forge.seed.key(.ec(.p256), "hunt other play integrity signer")
                    return 64
                },
                token("jwe.tag", "bit-flip") { token, _, _ in
                    token.alterTag = true
                    return 1
                },
                token("jwe", "absent") { token, _, _ in
                    token.unencrypted = true
                    return 16
                },
                token("jwe.key", "other") { token, _, forge in
                    token.encryptionKey = try forge.seed.bytes("hunt other play integrity decryption key", count: 32)
                    return 32
                },
            ]
    }

    // MARK: - The iOS attest: every App Attest attestation edit

    /// The attest request carries its own challenge: the blueprint's is not sent, so its edit is left out.
    static let iosAttestation: [PerRequestMutation] = AppAttestMutations.attestationEdits.filter { $0.field != "challenge" }.map { edit in
        PerRequestMutation(.attestation, "appAttest.\(edit.field)", edit.kind, .repaired { scenario, random, forge in
            guard let index = scenario.requests.firstIndex(where: { if case .attestIOS = $0 { return true }; return false }),
                  case .attestIOS(var blueprint, let challenge, let time) = scenario.requests[index] else { return nil }
            let size = try edit.edit(&blueprint, &random, forge.appAttest)
            scenario.requests[index] = .attestIOS(blueprint, challenge: challenge, time)
            return size
        })
    }

    // MARK: - The last protected request

    static let headerNames = ["Authorization", "X-Platform", "X-Apple-App-Attest-Assertion", "X-Apple-App-Attest-Key-ID",
                              "X-Apple-App-Attest-Challenge", "X-Android-Device-Token"]

    static let request: [PerRequestMutation] = [
        lastRequest("body", "appended") { request, random, _ in
            let extra: [UInt8] = random.pick([[0x20], Array(#","amount":"9999.00""#.utf8), [0x00]])
            request.body += extra
            return extra.count
        },
        lastRequest("target", "query-added") { request, random, _ in
            let extra = random.pick(["&page=2", "&x=1", "#f"])
            request.target += request.target.contains("?") ? extra : "?" + extra.dropFirst()
            return extra.utf8.count
        },
        lastRequest("target", "other-path") { request, random, _ in
            let path = random.pick(["/v1/transfers", "/v1/accounts/../admin", "/V1/accounts?page=1", "/v1/accounts/?page=1"])
            guard path != request.target else { return nil }
            request.target = path
            return path.utf8.count
        },
        lastRequest("method", "other") { request, random, _ in
            let method = random.pick(["PUT", "DELETE", "get", "HEAD"])
            guard method != request.method else { return nil }
            request.method = method
            return method.utf8.count
        },
        lastRequest("accountToken", "bit-flip") { request, random, _ in
            var bytes = Array(request.accountToken.utf8)
            guard random.flipBit(in: &bytes) != nil, let text = String(bytes: bytes, encoding: .utf8) else { return nil }
            request.accountToken = text
            return 1
        },
        lastRequest("time", "late") { request, random, _ in
            request.time += Double(random.pick([301, 3_601, 86_401]))
            return 4
        },
        lastRequest("header", "absent") { request, random, _ in
            let name = random.pick(headerNames)
            request.headerOverrides[name] = .some(nil)
            return name.utf8.count
        },
        lastRequest("header", "empty") { request, random, _ in
            let name = random.pick(headerNames)
            request.headerOverrides[name] = ""
            return name.utf8.count
        },
        lastRequest("header.X-Platform", "other") { request, _, _ in
            switch request.proof {
            case .appAttest: request.headerOverrides["X-Platform"] = "android"
            case .sessionToken: request.headerOverrides["X-Platform"] = "ios"
            }
            return 3
        },
        lastRequest("proof.sessionToken", "bit-flip") { request, random, _ in
            guard case .sessionToken(let token) = request.proof else { return nil }
            var bytes = Array(token.utf8)
            guard random.flipBit(in: &bytes) != nil, let text = String(bytes: bytes, encoding: .utf8) else { return nil }
            request.proof = .sessionToken(text)
            return 1
        },
        lastRequest("proof.assertion.counter", "value") { request, random, _ in
            guard case .appAttest(var assertion, let challenge, let signed) = request.proof else { return nil }
            let old = assertion.counter
            assertion.counter = random.pick([0, 1, old &- 1, UInt32.max])
            guard assertion.counter != old else { return nil }
            request.proof = .appAttest(assertion, challenge: challenge, signedFor: signed)
            return 4
        },
        lastRequest("proof.assertion.key", "other") { request, _, forge in
            guard case .appAttest(var assertion, let challenge, let signed) = request.proof else { return nil }
            assertion.signingKey = try forge.appAttest.otherKey()
            request.proof = .appAttest(assertion, challenge: challenge, signedFor: signed)
            return 64
        },
        lastRequest("proof.signedFor", "other-request") { request, random, _ in
            guard case .appAttest(let assertion, let challenge, var signed) = request.proof else { return nil }
            switch random.index(4) {
            case 0: signed.method = "DELETE"
            case 1: signed.target += "&x=1"
            case 2: signed.body += [0x20]
            default: signed.bodyHashLine = hex(sha256(signed.body)).uppercased()
            }
            request.proof = .appAttest(assertion, challenge: challenge, signedFor: signed)
            return 1
        },
        lastRequest("proof.challenge", "bit-flip") { request, random, _ in
            guard case .appAttest(let assertion, var challenge, let signed) = request.proof else { return nil }
            guard random.flipBit(in: &challenge) != nil else { return nil }
            request.proof = .appAttest(assertion, challenge: challenge, signedFor: signed)
            return 1
        },
    ]
}
