/// A list of plain values that starts in scratch memory its owner provides (a temporary allocation, on the stack
/// when small) and moves to the heap only when it outgrows it. The reader keeps its nodes and its open elements in
/// these, so reading a small input, or refusing one, allocates nothing for them.
///
/// The owner calls `release` exactly once, after the last use (it frees the heap memory the list grew into, if any).
struct ScratchList<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int
    private var onHeap: Bool

    init(scratch: UnsafeMutableBufferPointer<Element>) {
        if let address = scratch.baseAddress, scratch.count > 0 {
            base = address
            capacity = scratch.count
            onHeap = false
        } else {
            base = UnsafeMutablePointer<Element>.allocate(capacity: 16)
            capacity = 16
            onHeap = true
        }
    }

    /// Appends `element` and returns its index.
    @inline(__always)
    mutating func append(_ element: Element) -> Int {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
        return count - 1
    }

    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        if onHeap { base.deallocate() }
        base = grown
        capacity *= 2
        onHeap = true
    }

    /// Drops the last element.
    @inline(__always)
    mutating func removeLast() {
        precondition(count > 0)
        count -= 1
    }

    /// Element `index`, which must be below `count` (checked).
    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count)
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count)
            base[index] = newValue
        }
    }

    /// Changes element `index` in place, which must be below `count` (checked).
    @inline(__always)
    mutating func update<Failure: Error>(
        _ index: Int, _ change: (inout Element) throws(Failure) -> Void
    ) throws(Failure) {
        precondition(index >= 0 && index < count)
        try change(&base[index])
    }

    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// Frees the heap memory the list grew into, if any.
    func release() {
        if onHeap { base.deallocate() }
    }
}
