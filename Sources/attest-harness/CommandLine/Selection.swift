import AttestAPIMap
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
        let names = BuiltinCatalogue.profiles.map(\.name)
        let suggestion = Suggestion.closest(to: nameOrPath, among: names).map { " (did you mean \($0)?)" } ?? ""
        throw UsageError("unknown profile \"\(nameOrPath)\"\(suggestion); built-in profiles: " + names.joined(separator: ", "))
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

    /// `builtin:reference`, `builtin:reference-without:<rule>`, `exec:<command>`, or `http(s)://` (our verdict
    /// protocol, or with `api` the server's own API through its map).
    static func verifier(_ uri: String, profile: Profile, timeout: Double, seed: UInt64 = 1, api: MapOptions? = nil,
                         execSuite: Int = 1, allowProfileMismatch: Bool = false) throws -> any AttestationVerifier {
        if execSuite > 1, !uri.hasPrefix("exec:") { throw UsageError("--exec-suite goes with an exec: verifier") }
        if uri.hasPrefix("http://") || uri.hasPrefix("https://"), let url = URL(string: uri), url.user != nil || url.password != nil {
            throw UsageError("credentials in the verifier URL are neither sent nor kept out of reports; drop them and set ATTEST_HARNESS_AUTHORIZATION instead")
        }
        if api != nil, !(uri.hasPrefix("http://") || uri.hasPrefix("https://")) {
            throw UsageError("--api drives a server at an http:// or https:// URL, not \"\(uri)\"")
        }
        if uri == "builtin:reference" { return ReferenceVerifier(profile: profile, name: uri) }
        for (scheme, file) in [("civiq+", "civiq"), ("striga+", "striga"), ("fido+", "fido")] where uri.hasPrefix(scheme + "http") {
            throw UsageError("\(scheme)http:// is now an API map: --verifier \(uri.dropFirst(scheme.count)) --api apis/\(file).json")
        }
        if let api {
            guard uri.hasPrefix("http://") || uri.hasPrefix("https://"), let url = URL(string: uri), url.host != nil else {
                throw UsageError("--api drives a server at an http:// or https:// URL, not \"\(uri)\"")
            }
            guard profile.families.contains(api.map.family) else {
                throw UsageError("the \(api.map.name) map drives the \(api.map.family) family, which profile \(profile.name) does not cover")
            }
            return MapDriver(map: api.map, transport: HTTPMapTransport(baseURL: url, timeout: timeout, trustedCertificates: api.caCertificates),
                             seed: seed, realTime: api.realTime) { event in
                if case .waiting(let message) = event { Output.note("attest-harness run: \(message)\n") }
            }
        }
        if uri.hasPrefix("http://") || uri.hasPrefix("https://") {
            guard let url = URL(string: uri), url.host != nil else { throw UsageError("bad verifier URL \"\(uri)\"") }
            return HTTPVerifier(baseURL: url, timeout: timeout, expectedProfile: allowProfileMismatch ? nil : profile.name)
        }
        if uri.hasPrefix("exec:") {
            let command = String(uri.dropFirst(5)).trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty else { throw UsageError("exec: needs a command, e.g. exec:./my-adapter") }
            return ExecVerifier(command: command, timeout: timeout, suiteSize: execSuite)
        }
        let mutantPrefix = "builtin:reference-without:"
        if uri.hasPrefix(mutantPrefix) {
            let rule = RuleID(String(uri.dropFirst(mutantPrefix.count)))
            guard profile.enforces(rule) else {
                throw UsageError("profile \(profile.name) does not enforce rule \"\(rule)\"; see attest-harness list --profile \(profile.name)")
            }
            return ReferenceVerifier(profile: profile.without(rule), name: uri)
        }
        throw UsageError("unsupported verifier \"\(uri)\"; supported: builtin:reference, builtin:reference-without:<rule>, exec:<command>, http://host:port (our verdict protocol, or a server's own API with --api MAP)")
    }

    /// Shell-style glob match (`*`, `?`, `[...]`) of a case id.
    static func matches(_ glob: String, _ id: String) -> Bool { CaseFilter.matches(glob, id) }
}

/// `--api FILE` and what goes with it.
struct MapOptions {
    let map: APIMap
    /// `--cacert FILE`: PEM CA certificates trusted for https instead of the system's.
    let caCertificates: String?
    let realTime: Bool

    /// Reads and validates the map against the catalogue: its family, step kinds and rule ids must exist.
    static func load(_ path: String, caCertificates: String?, realTime: Bool) throws -> MapOptions {
        let map: APIMap
        do {
            map = try APIMap.load(contentsOf: URL(fileURLWithPath: path))
            try MapDriver.validate(map)
        } catch let error as APIMapError {
            throw UsageError("API map \(path): \(error)")
        }
        if let caCertificates {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: caCertificates, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw UsageError("no such CA file \(caCertificates)")
            }
        }
        return MapOptions(map: map, caCertificates: caCertificates, realTime: realTime)
    }
}
