import AttestFuzzOracles

/// libFuzzer entry point of fuzz-keydescription; the property lives in FuzzOracles so that swift test replays it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.keyDescription.fuzz(data, size)
    return 0
}
