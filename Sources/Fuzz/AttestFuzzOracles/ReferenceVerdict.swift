import AttestConformance
import AttestReference

/// The property every oracle that judges evidence checks first: the reference verifier answers any step, however
/// hostile, with a verdict. A thrown error would be a whole suite lost in `exec-reference` and a 422 for the whole
/// request in `serve`, so it is a finding here, never an input the oracle skips.
enum ReferenceVerdict {
    /// The verdict on `step` from a fresh session under `profile` and `context`, or why there is none.
    static func of(_ step: VerifierStep, profile: Profile, context: CaseContext) -> Result<Verdict, Failure> {
        do {
            var session = try ReferenceVerifier(profile: profile).startCase(context)
            return .success(try session.verify(step))
        } catch {
            return .failure(Failure(description: "the reference verifier gave no verdict for a \(step.kind) step: \(error)"))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
