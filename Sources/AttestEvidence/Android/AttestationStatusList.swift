import Foundation

/// Google's attestation revocation list (https://android.googleapis.com/attestation/status):
/// only certificates that are not valid are listed, keyed by their serial number as lowercase hex without
/// leading zeros. Every certificate of a chain, root included, is looked up.
public struct AttestationStatusList: Hashable, Sendable, Codable {
    public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
        /// Permanent.
        case revoked = "REVOKED"
        /// Temporary; verifiers differ on whether it rejects (android/keyattestation ignores it).
        case suspended = "SUSPENDED"
    }

    public enum Reason: String, Hashable, Sendable, Codable, CaseIterable {
        case unspecified = "UNSPECIFIED"
        case keyCompromise = "KEY_COMPROMISE"
        case caCompromise = "CA_COMPROMISE"
        case superseded = "SUPERSEDED"
        case softwareFlaw = "SOFTWARE_FLAW"
    }

    public struct Entry: Hashable, Sendable, Codable {
        public var status: Status
        public var reason: Reason?
        public var comment: String?
        public var expires: String?

        public init(status: Status, reason: Reason? = nil, comment: String? = nil, expires: String? = nil) {
            self.status = status
            self.reason = reason
            self.comment = comment
            self.expires = expires
        }
    }

    public var entries: [String: Entry]

    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    /// The list key of a serial number given as big-endian bytes.
    public static func key(serialNumber: [UInt8]) -> String {
        let hex = serialNumber.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let trimmed = hex.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// The entry of a certificate with this serial number, if it is listed.
    public func entry(serialNumber: [UInt8]) -> Entry? { entries[Self.key(serialNumber: serialNumber)] }

    /// Reads the list as Google serves it.
    public init(json: Data) throws { self = try JSONDecoder().decode(Self.self, from: json) }

    /// The list as JSON, keys sorted (deterministic).
    public var json: Data {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return try encoder.encode(self)
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
