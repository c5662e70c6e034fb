/// What every `LLVMFuzzerCustomMutator` of ours does around its structure-aware mutator: read the input, mutate it
/// (falling back on libFuzzer's byte mutator, passed in by the entry point that links libFuzzer), and write the
/// result back in place.
public enum CustomMutation {
    /// libFuzzer's `LLVMFuzzerMutate`: mutates `size` bytes in place, up to `maxSize`; returns the new size.
    public typealias ByteMutator = (UnsafeMutablePointer<UInt8>?, Int, Int) -> Int

    public static func apply(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32,
                             byteMutator: @escaping ByteMutator,
                             mutate: ([UInt8], Int, UInt32, (inout [UInt8], Int) -> Void) -> [UInt8]) -> Int {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        let output = mutate(input, maxSize, seed) { bytes, limit in
            let count = bytes.count
            bytes += [UInt8](repeating: 0, count: max(0, limit - count))
            let newCount = bytes.withUnsafeMutableBufferPointer { byteMutator($0.baseAddress, count, limit) }
            bytes.removeLast(bytes.count - min(newCount, bytes.count))
        }
        let written = min(output.count, maxSize)
        output.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { data.update(from: base, count: written) }
        }
        return written
    }
}
