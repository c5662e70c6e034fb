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
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let output = CertificateMutator.mutate(input, maxSize: maxSize, seed: seed) { bytes, limit in
        let count = bytes.count
        bytes += [UInt8](repeating: 0, count: max(0, limit - count))
        let newCount = bytes.withUnsafeMutableBufferPointer { fuzz_support_mutate($0.baseAddress, count, limit) }
        bytes.removeLast(bytes.count - min(newCount, bytes.count))
    }
    output.withUnsafeBufferPointer { buffer in
        if let base = buffer.baseAddress { data.update(from: base, count: buffer.count) }
    }
    return output.count
}
