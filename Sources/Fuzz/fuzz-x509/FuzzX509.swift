import AttestFuzzOracles

/// libFuzzer entry point of fuzz-x509; the property lives in FuzzOracles so that swift test replays it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.x509.fuzz(data, size)
    return 0
}
