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
            guard let data = try InputFile.readIfPresent(URL(fileURLWithPath: nameOrPath), limit: 1 << 20) else {
                throw UsageError("no such profile file \(nameOrPath)")
            }
            do {
                try checkProfileMembers(data)
                let profile = try JSONDecoder().decode(Profile.self, from: data)
                if let pointer = JSONDuplicateMembers.first(in: data) {
                    throw UsageError("\(pointer) is named twice in its object (which one counts is up to the reader)")
                }
                try checkProfileFile(profile)
                return profile
            } catch let error as UsageError {
                throw UsageError("profile file \(nameOrPath) is not a valid profile: \(error.description)")
            } catch {
                throw UsageError("profile file \(nameOrPath) is not a valid profile: \(error)")
            }
        }
        let names = BuiltinCatalogue.profiles.map(\.name)
        let suggestion = Suggestion.closest(to: nameOrPath, among: names).map { " (did you mean \($0)?)" } ?? ""
        throw UsageError("unknown profile \"\(nameOrPath)\"\(suggestion); built-in profiles: " + names.joined(separator: ", "))
    }

    /// A profile file is read strictly, as maps are: an unknown member, an unknown family, or a rule id that is not
    /// a rule of the profile's families (a typo would silently stop a rule from being enforced) is refused, naming
    /// it. Parameters are checked when cases are forged for them.
    static func checkProfileMembers(_ data: Data) throws {
        let members: Set<String> = ["name", "description", "families", "rules", "parameters", "leftToRelyingParty"]
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let unknown = object.keys.sorted().first(where: { !members.contains($0) }) {
            throw UsageError("unknown member \"\(unknown)\"\(didYouMean(unknown, members.sorted())); a profile has \(members.sorted().joined(separator: ", "))")
        }
    }

    static func checkProfileFile(_ profile: Profile) throws {
        let known = BuiltinCatalogue.families
        guard !profile.families.isEmpty else { throw UsageError("\"families\" is empty; families: \(known.map { $0.name.rawValue }.joined(separator: ", "))") }
        var rules = Set<RuleID>()
        for name in profile.families {
            guard let family = known.first(where: { $0.name == name }) else {
                throw UsageError("unknown family \"\(name.rawValue)\"; families: \(known.map { $0.name.rawValue }.joined(separator: ", "))")
            }
            rules.formUnion(family.rules.map(\.id))
        }
        // The parameters a family reads are the ones its built-in profiles set (and the site policy's attestationTrust,
        // which a derived profile carries): another name is a typo or a parameter of another family.
        var parameters: Set<String> = ["attestationTrust"]
        for builtin in BuiltinCatalogue.profiles where !Set(builtin.families).isDisjoint(with: profile.families) {
            parameters.formUnion(builtin.parameters.keys)
        }
        for name in profile.parameters.keys.sorted() where !parameters.contains(name) {
            throw UsageError("unknown parameter \"\(name)\"\(didYouMean(name, parameters.sorted())); its families read \(parameters.sorted().joined(separator: ", "))")
        }
        for rule in (profile.rules.union(profile.leftToRelyingParty)).sorted() where !rules.contains(rule) {
            throw UsageError("\"\(rule.rawValue)\" is not a rule of its families (\(profile.families.map(\.rawValue).joined(separator: ", ")))\(didYouMean(rule.rawValue, rules.map(\.rawValue).sorted()))")
        }
    }

    /// " (did you mean X?)" for the candidate `word` differs from only in case, or else the closest one, or "".
    static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        let match = candidates.first { $0.lowercased() == word.lowercased() } ?? Suggestion.closest(to: word, among: candidates)
        return match.map { " (did you mean \($0)?)" } ?? ""
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
