import Foundation

/// What the import API keeps between start and complete: every challenge it issued, by challenge id, and
/// each user's latest one (a new start replaces an unfinished import).
struct PasskeyImportState {
    struct IssuedChallenge {
        enum Consumption { case succeeded, failed }

        let user: String
        let bytes: [UInt8]
        let issuedAt: Date
        var consumed: Consumption?
    }

    var issued: [String: IssuedChallenge] = [:]
    var latest: [String: String] = [:]
}
