import Foundation

/// `--progress auto|always|never`: how a long run shows where it is on stderr.
enum ProgressMode: String, CaseIterable {
    /// A live line on a terminal; on anything else (a CI log) one line every 10 seconds or 10% of the cases.
    case auto
    /// The live line even when stderr is not a terminal (a CI viewer that renders carriage returns).
    case always
    /// Nothing.
    case never
}

/// Progress of a run on stderr: done/total, findings so far, elapsed time and an ETA from the observed rate. A
/// ticker redraws every second, so the line appears at once and moves while slow cases run.
final class ProgressReporter: @unchecked Sendable {
    enum Style { case live, lines, none }

    let style: Style
    private let label: String
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private let clock = ContinuousClock()
    private var start: ContinuousClock.Instant
    private var total = 0
    private var done = 0
    private var findings = 0
    private var lastLine: ContinuousClock.Instant?
    private var lastDecile = -1
    private var ticker: Task<Void, Never>?
    /// Whether `begin` ran: a run that stops before its cases (a usage error) ends without a progress line.
    private var begun = false

    init(mode: ProgressMode, label: String, stderrIsTerminal: Bool = Output.stderrIsTerminal,
         write: @escaping @Sendable (String) -> Void = { Output.standardErrorAsWritten($0) }) {
        switch mode {
        case .never: style = .none
        case .always: style = .live
        case .auto: style = stderrIsTerminal ? .live : .lines
        }
        self.label = label
        self.write = write
        start = clock.now
    }

    /// A phase before the cases run (forging the catalogue), on the live line only: a log gets no line that a
    /// usage error right after would follow.
    func note(_ text: String) {
        guard style == .live else { return }
        write("\r\u{1B}[K\(label): \(text)")
    }

    /// Starts counting `total` cases now, and the ticker.
    func begin(total: Int) {
        lock.withLock {
            self.total = total
            start = clock.now
            begun = true
        }
        guard style != .none else { return }
        emit(force: true)
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let self, !Task.isCancelled else { return }
                self.emit(force: false)
            }
        }
    }

    /// One more case done; `failed` when it is a finding or a hang.
    func advance(done: Int, failed: Bool) {
        lock.withLock {
            self.done = done
            if failed { findings += 1 }
        }
        emit(force: false, caseDone: true)
    }

    /// Stops the ticker and clears the live line (a line-mode log gets its last line).
    func finish() {
        ticker?.cancel()
        ticker = nil
        switch style {
        case .none: return
        case .live: write("\r\u{1B}[K")
        case .lines:
            let pending = lock.withLock { begun && lastDecile < 10 }
            if pending { emit(force: true) }
        }
    }

    /// `120/224 cases, 3 findings, 12 s elapsed, ETA 10 s`.
    var line: String {
        lock.withLock {
            let elapsed = (clock.now - start).seconds
            var text = "\(done)/\(total) cases, \(findings) finding\(findings == 1 ? "" : "s"), \(Self.duration(elapsed)) elapsed"
            if done >= total {
                text += ", done"
            } else if done > 0, elapsed > 0 {
                text += ", ETA " + Self.duration(elapsed / Double(done) * Double(total - done))
            } else {
                text += ", ETA --"
            }
            return text
        }
    }

    private func emit(force: Bool, caseDone: Bool = false) {
        switch style {
        case .none: return
        case .live: write("\r\u{1B}[K\(label): \(line)")
        case .lines:
            // A line at the start, every 10% of the cases, and every 10 s in between.
            let now = clock.now
            let due: Bool = lock.withLock {
                let decile = total == 0 ? 10 : done * 10 / total
                let timely = lastLine.map { (now - $0).seconds >= 10 } ?? true
                if force || (caseDone && decile > lastDecile) || timely {
                    lastDecile = max(lastDecile, decile)
                    lastLine = now
                    return true
                }
                return false
            }
            if due { write("\(label): \(line)\n") }
        }
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }
}

extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
