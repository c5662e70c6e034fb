import AttestConformance
import AttestHunt

/// A hunt of `profile` in memory, stopped after `mutants` mutants: what each family's tests run.
func boundedHunt(_ profile: Profile, _ verifiers: [any AttestationVerifier], names: [String], mutants: UInt64, seed: UInt64) async throws -> HuntState {
    var state = HuntState(configuration: .init(profile: profile.name, verifiers: names, seed: seed))
    let hunter = try await Hunter.prepare(profile: profile, verifiers: verifiers, state: &state)
    try await hunter.run(&state, stop: { $0.mutantsTried >= mutants }, interrupted: { false }, save: { _ in }, progress: { _ in })
    return state
}
