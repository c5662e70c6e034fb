import AttestCatalogue
import AttestConformance
import AttestEvidence
import AttestReference
import Foundation
import AttestVerifiers

/// Resolving what the options name: profiles, cases, verifiers.
enum Selection {
    /// A built-in profile by name, or a profile JSON file by path.
    static func profile(_ nameOrPath: String) throws -> Profile {
        if let profile = BuiltinCatalogue.profile(named: nameOrPath) { return profile }
        if nameOrPath.hasSuffix(".json") || nameOrPath.contains("/") {
            guard FileManager.default.fileExists(atPath: nameOrPath) else { throw UsageError("no such profile file \(nameOrPath)") }
            do {
                return try Profile.load(from: URL(fileURLWithPath: nameOrPath))
            } catch {
                throw UsageError("profile file \(nameOrPath) is not a valid profile: \(error)")
            }
        }
        throw UsageError("unknown profile \"\(nameOrPath)\"; built-in profiles: "
                         + BuiltinCatalogue.profiles.map(\.name).joined(separator: ", "))
    }

    /// The cases `profile` covers, or every family's cases when there is none.
    static func cases(profile: Profile?, seed: UInt64) throws -> [Case] {
        do {
            if let profile { return try BuiltinCatalogue.cases(for: profile, seed: seed) }
            return try BuiltinCatalogue.allCases(seed: seed)
        } catch let error as CatalogueError {
            throw UsageError("\(error)")
        } catch let error as ParameterError {
            throw UsageError("profile: \(error)")
        }
    }

    /// `builtin:reference`, `builtin:reference-without:<rule>`, `exec:<command>`, `http://` or `civiq+http://`.
    static func verifier(_ uri: String, profile: Profile, timeout: Double, seed: UInt64 = 1) throws -> any AttestationVerifier {
        if uri == "builtin:reference" { return ReferenceVerifier(profile: profile, name: uri) }
        if uri.hasPrefix("civiq+http://") || uri.hasPrefix("civiq+https://") {
            guard let url = URL(string: String(uri.dropFirst(6))), url.host != nil else { throw UsageError("bad verifier URL \"\(uri)\"") }
            guard profile.families == [PerRequestFamily.name] else {
                throw UsageError("civiq+http drives the per-request family only; use --profile per-request-device-attestation or a profile of that family")
            }
            return CiviqDriver(baseURL: url, seed: seed, timeout: timeout)
        }
        if uri.hasPrefix("fido+http://") || uri.hasPrefix("fido+https://") {
            guard let url = URL(string: String(uri.dropFirst(5))), url.host != nil else { throw UsageError("bad verifier URL \"\(uri)\"") }
            guard profile.families == [WebAuthnFamily.name] else {
                throw UsageError("fido+http drives the webauthn family only; use --profile webauthn-l3 or a profile of that family")
            }
            return FidoDriver(baseURL: url, seed: seed, timeout: timeout)
        }
        if uri.hasPrefix("striga+http://") || uri.hasPrefix("striga+https://") {
            guard let url = URL(string: String(uri.dropFirst(7))), url.host != nil else { throw UsageError("bad verifier URL \"\(uri)\"") }
            guard profile.families.contains(PasskeyImportFamily.name) else {
                throw UsageError("striga+http drives the passkey-import family; use --profile device-bound-passkey-import --filter 'import.*'")
            }
            return StrigaDriver(baseURL: url, seed: seed, timeout: timeout)
        }
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") {
            guard let url = URL(string: uri), url.host != nil else { throw UsageError("bad verifier URL \"\(uri)\"") }
            return HTTPVerifier(baseURL: url, timeout: timeout)
        }
        if uri.hasPrefix("exec:") {
            let command = String(uri.dropFirst(5)).trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty else { throw UsageError("exec: needs a command, e.g. exec:./my-adapter") }
            return ExecVerifier(command: command, timeout: timeout)
        }
        let mutantPrefix = "builtin:reference-without:"
        if uri.hasPrefix(mutantPrefix) {
            let rule = RuleID(String(uri.dropFirst(mutantPrefix.count)))
            guard profile.enforces(rule) else {
                throw UsageError("profile \(profile.name) does not enforce rule \"\(rule)\"; see attest-harness list --profile \(profile.name)")
            }
            return ReferenceVerifier(profile: profile.without(rule), name: uri)
        }
        throw UsageError("unsupported verifier \"\(uri)\"; supported: builtin:reference, builtin:reference-without:<rule>, exec:<command>, http://host:port, civiq+http://host:port, striga+http://host:port, fido+http://host:port")
    }

    /// Shell-style glob match (`*`, `?`, `[...]`) of a case id.
    static func matches(_ glob: String, _ id: String) -> Bool { CaseFilter.matches(glob, id) }
}
