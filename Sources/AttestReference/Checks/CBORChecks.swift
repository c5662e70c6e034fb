import AttestEvidence
import AttestCBOR
import AttestConformance

/// Decoding CBOR evidence under a policy: each encoding rule (`CBOREncodingRules`) the policy does not enforce
/// becomes the matching leniency, as a verifier without that check would behave.
enum CBORChecks {
    /// Decodes `bytes` under the family's encoding rules; a failure not covered by one of them violates
    /// `structureRule`.
    static func decode(_ bytes: [UInt8], policy: Policy, structureRule: RuleID, encoding: CBOREncodingRules) throws -> CBORValue {
        var options = CBORReader.Options()
        options.allowDuplicateMapKeys = !policy.enforces(encoding.duplicateMapKey)
        options.allowIndefiniteLengths = !policy.enforces(encoding.indefiniteLength)
        do {
            if policy.enforces(encoding.trailingBytes) { return try CBORReader.decode(bytes, options: options) }
            return try CBORReader.decodePrefix(bytes, options: options).0
        } catch let error as CBORDecodingError {
            let rule: RuleID
            switch error.code {
            case .duplicateMapKey: rule = encoding.duplicateMapKey
            case .indefiniteLength: rule = encoding.indefiniteLength
            case .trailingBytes: rule = encoding.trailingBytes
            default: rule = structureRule
            }
            throw RuleViolation(rule: rule, reason: "\(error)")
        }
    }

    /// A CBOR map read against the keys its format defines. Under `rule` the keys must be text and exactly
    /// `keys`; without it, byte-string spellings of a key are accepted and unknown keys ignored.
    struct FormatMap {
        let entries: [CBORMapEntry]
        let policy: Policy
        let rule: RuleID

        /// With `emptyWhenNotAMap`, a verifier without `rule` reads a value that is no map as the empty map (an
        /// attestation statement a relying party that ignores attestation never reads); otherwise no map is unreadable.
        init(_ value: CBORValue, keys: [String], policy: Policy, rule: RuleID, name: String, emptyWhenNotAMap: Bool = false) throws {
            if let entries = value.mapEntries {
                self.entries = entries
            } else if emptyWhenNotAMap {
                try policy.require(rule, false, "\(name) is not a map")
                self.entries = []
            } else {
                throw RuleViolation(rule: rule, reason: "\(name) is not a map")
            }
            self.policy = policy
            self.rule = rule
            for entry in entries {
                guard case .text(let key) = entry.key else {
                    try policy.require(rule, false, "\(name) has a key that is not a text string: \(entry.key)")
                    continue
                }
                try policy.require(rule, keys.contains(key), "\(name) has an unexpected key \"\(key)\"")
            }
        }

        /// The value for `key`; its absence always violates the rule, since nothing can be checked without it.
        func value(_ key: String) throws -> CBORValue {
            let lenient = !policy.enforces(rule)
            if let entry = entries.first(where: { $0.key == .text(key) || lenient && $0.key == .bytes(Array(key.utf8)) }) {
                return entry.value
            }
            throw RuleViolation(rule: rule, reason: "missing \"\(key)\"")
        }

        func bytes(_ key: String) throws -> [UInt8] {
            guard let bytes = try value(key).bytesValue else { throw RuleViolation(rule: rule, reason: "\"\(key)\" is not a byte string") }
            return bytes
        }
    }
}
