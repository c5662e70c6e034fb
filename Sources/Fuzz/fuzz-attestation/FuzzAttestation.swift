import CAttestFuzzSupport
import AttestFuzzOracles

/// libFuzzer entry point of fuzz-attestation; the property lives in FuzzOracles so that swift test replays it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.attestation.fuzz(data, size)
    return 0
}

/// Structure-aware mutation: one field of the decoded attestation object at a time (see `AttestationMutator`).
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    CustomMutation.apply(data, size, maxSize, seed, byteMutator: { fuzz_support_mutate($0, $1, $2) }) {
        AttestationMutator.mutate($0, maxSize: $1, seed: $2, byteMutator: $3)
    }
}
