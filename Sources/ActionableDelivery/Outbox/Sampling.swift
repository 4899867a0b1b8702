import Synchronization

/// Says when something sampled — a gauge read from storage — is due again: at the first ask,
/// then at most once every `interval`. Shared by copies of the value that holds it.
final class Sampling: Sendable {
    private let interval: Duration
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    init(every interval: Duration) { self.interval = interval }

    /// Whether to sample now; if so, the next sample is due `interval` from now.
    func isDue(now: ContinuousClock.Instant = .now) -> Bool {
        last.withLock { last in
            if let previous = last, now - previous < interval { return false }
            last = now
            return true
        }
    }
}
