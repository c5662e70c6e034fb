import AttestFuzzOracles

/// libFuzzer entry point of fuzz-differential; the property lives in FuzzOracles so that swift test replays it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.differential.fuzz(data, size)
    return 0
}
