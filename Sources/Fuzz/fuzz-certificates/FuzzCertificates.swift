import CAttestFuzzSupport
import AttestFuzzOracles

/// libFuzzer entry point of fuzz-certificates; the property lives in AttestFuzzOracles so that swift test replays it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.certificates.fuzz(data, size)
    return 0
}

/// Structure-aware mutation inside the certificate (see `CertificateMutator`).
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    CustomMutation.apply(data, size, maxSize, seed, byteMutator: { fuzz_support_mutate($0, $1, $2) }) {
        CertificateMutator.mutate($0, maxSize: $1, seed: $2, byteMutator: $3)
    }
}
