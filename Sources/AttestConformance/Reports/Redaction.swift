/// Secrets a run was configured with (an Authorization header's value) never reach a report: a server that echoes
/// them into its error bodies would otherwise have them copied into every reason and message.
extension RunReport {
    public static let redactionMark = "[redacted]"

    /// This report with every occurrence of each secret (four characters or more) in verdict reasons, statuses and
    /// messages replaced by `[redacted]`.
    public func redacting(_ secrets: [String]) -> RunReport {
        let secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
        guard !secrets.isEmpty else { return self }
        func clean(_ text: String?) -> String? {
            text.map { text in
                var cleaned = secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.redactionMark) }
                // An excerpt cut inside a secret ends with the secret's beginning: that goes too.
                for secret in secrets {
                    for length in stride(from: secret.count - 1, through: 4, by: -1) where cleaned.hasSuffix(String(secret.prefix(length))) {
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
