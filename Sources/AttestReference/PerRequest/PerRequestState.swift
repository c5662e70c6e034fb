import Foundation

/// What a per-request attestation server keeps (docs/protocols/per-request-device-attestation.md): the challenges it
/// issued (by their base64url text) and whether each was used, and the Android session tokens with their issue time.
/// Attested iOS keys live in the App Attest state.
struct PerRequestState {
    struct IssuedChallenge {
        let issuedAt: Date
        var used = false
    }

    var challenges: [String: IssuedChallenge] = [:]
    var sessions: [String: Date] = [:]
}
