/// Secrets a run was configured with (an Authorization header's value) never reach a report: a server that echoes
/// them into its error bodies would otherwise have them copied into every reason and message.
extension RunReport {
    public static let redactionMark = "[redacted]"

    /// This report with every occurrence of each secret (four characters or more) in verdict reasons, statuses and
    /// messages replaced by `[redacted]`.
    public func redacting(_ secrets: [String]) -> RunReport {
        // Each secret also as a server may echo it: JSON-escaped slashes, percent-encoded; matched ignoring case.
        var variants: Set<String> = []
        for secret in secrets {
            variants.insert(secret)
            variants.insert(secret.replacingOccurrences(of: "/", with: "\\/"))
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) { variants.insert(encoded) }
        }
        let secrets = variants.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
        guard !secrets.isEmpty else { return self }
        func clean(_ text: String?) -> String? {
            text.map { text in
                var cleaned = secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.redactionMark, options: .caseInsensitive) }
                // An excerpt cut inside a secret ends with the secret's beginning: that goes too.
                for secret in secrets {
                    for length in stride(from: secret.count - 1, through: 4, by: -1)
                    where cleaned.lowercased().hasSuffix(String(secret.prefix(length)).lowercased()) {
                        cleaned = String(cleaned.dropLast(length)) + Self.redactionMark
                        break
                    }
                }
                return cleaned
            }
        }
        var copy = self
        copy.results = results.map { result in
            var cleaned = result
            cleaned.actual = result.actual.map {
                Verdict($0.outcome, reason: clean($0.reason), rule: $0.rule, status: clean($0.status))
            }
            cleaned.message = clean(result.message)
            cleaned.requests = result.requests.map { $0.map { clean($0) ?? $0 } }
            return cleaned
        }
        return copy
    }

    /// The secrets of a configured Authorization header: the whole value and, for `Bearer`/`Basic` schemes, the
    /// credentials alone.
    public static func authorizationSecrets(_ value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        // The value as configured and as sent (trimmed), and each whitespace-separated word: the credentials alone.
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        let words = trimmed.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        return Array(Set([value, trimmed] + words.dropFirst()))
    }
}

extension RunReport {
    /// The most characters of a verifier's reason, status or message a report keeps (a verifier that answers
    /// megabytes of reason cannot make every report format megabytes long).
    public static let verifierTextLimit = 4096

    /// This report with every verdict reason, status and message cut to `limit` characters (marked `…[cut]`).
    public func boundingVerifierText(to limit: Int) -> RunReport {
        func cut(_ text: String?) -> String? {
            guard let text, text.count > limit else { return text }
            return String(text.prefix(limit)) + "…[cut]"
        }
        var copy = self
        for index in copy.results.indices {
            let result = copy.results[index]
            copy.results[index].actual = result.actual.map { Verdict($0.outcome, reason: cut($0.reason), rule: $0.rule, status: cut($0.status)) }
            copy.results[index].message = cut(result.message)
        }
        return copy
    }
}
