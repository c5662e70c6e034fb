import AttestConformance
import AttestHunt
import AttestReference

/// A hunt of `profile` in memory, stopped after `mutants` mutants: what each family's tests run.
func boundedHunt(_ profile: Profile, _ verifiers: [any AttestationVerifier], names: [String], mutants: UInt64, seed: UInt64) async throws -> HuntState {
    var state = HuntState(configuration: .init(profile: profile.name, verifiers: names, seed: seed))
    let hunter = try await Hunter.prepare(profile: profile, verifiers: verifiers, state: &state)
    try await hunter.run(&state, stop: { $0.mutantsTried >= mutants }, interrupted: { false }, save: { _ in }, progress: { _ in })
    return state
}

/// What the reference makes of the first `draws` mutants of `profile`'s families (seed `seed`): how many mutants
/// were made, the fields they mutated, and the fields of those the reference refused.
struct ReferenceReach {
    var mutants = 0
    var made: Set<String> = []
    var refused: Set<String> = []

    init(_ profile: Profile, seed: UInt64, draws: UInt64) async throws {
        let forge = MutantForge(families: try HuntFamily.all(for: profile, seed: seed))
        for number in 0..<draws {
            guard let mutant = forge.mutant(number, seed: seed) else { continue }
            mutants += 1
            made.insert(mutant.field.rawValue)
            let verdicts = try await ReferenceVerifier(profile: profile).verdicts(for: mutant.testCase.request, profile: profile)
            if verdicts.contains(where: { $0.outcome == .reject }) { refused.insert(mutant.field.rawValue) }
        }
    }
}
