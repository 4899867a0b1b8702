import Foundation

/// When a failed delivery is tried again: exponential backoff with full jitter,
/// first retry after about `firstDelay`, doubling, capped, and a limit on attempts.
public struct RetryPolicy: Hashable, Sendable {
    /// The backoff before the first retry.
    public var firstDelay: TimeInterval
    /// The longest backoff.
    public var maximumDelay: TimeInterval
    /// Attempts in all, the first included; then the response is dead.
    public var maximumAttempts: Int

    /// The defaults: about 1 s, doubling, capped at 5 minutes, 15 tries.
    public init(firstDelay: TimeInterval = 1, maximumDelay: TimeInterval = 300, maximumAttempts: Int = 15) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// The delay after attempt `attempt` (1 for the first) failed: uniform in
    /// `0 ... min(maximumDelay, firstDelay × 2^(attempt − 1))`, with `unit` in `0..<1` the random
    /// draw. Full jitter spreads the retries of many responses that failed together.
    public func delay(afterAttempt attempt: Int, unit: Double) -> TimeInterval {
        let exponent = Double(max(0, min(attempt - 1, 62)))
        let ceiling = min(maximumDelay, firstDelay * pow(2, exponent))
        return ceiling * min(max(unit, 0), 1)
    }
}
