/// A value delivered once, from a callback on another thread (a process's exit, a URL task's end, a pipe's end),
/// to every task that awaits it. Later deliveries are ignored.
actor Completion<Value: Sendable> {
    private var value: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    func deliver(_ delivered: Value) {
        guard value == nil else { return }
        value = delivered
        for waiter in waiters { waiter.resume(returning: delivered) }
        waiters = []
    }

    /// Waits for the value; any number of tasks may wait.
    func wait() async -> Value {
        if let value { return value }
        return await withCheckedContinuation { waiters.append($0) }
    }

    /// Delivers `value` from a synchronous callback.
    nonisolated func deliverSoon(_ delivered: Value) {
        Task { await deliver(delivered) }
    }
}

/// The value `completion` delivers, or nil when `seconds` pass first. On timeout `onTimeout` runs, and whatever
/// it does must make `completion` deliver (kill the process, cancel the task), because this returns only then.
func waitForCompletion<Value: Sendable>(_ completion: Completion<Value>, seconds: Double,
                                        onTimeout: @Sendable () async -> Void) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await completion.wait() }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(max(0, min(seconds, 86_400)) * 1e9))
            return nil
        }
        // Two children were added, so next() returns a value; the inner nil is the timer's.
        let first = await group.next() ?? nil
        if first == nil { await onTimeout() }
        group.cancelAll()
        return first
    }
}
