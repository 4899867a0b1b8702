public import Foundation

/// When a kept report is tried again: exponential backoff with full jitter (a random delay
/// between zero and `initial × 2^(attempts−1)`, capped at `maximum`), so that a fleet of phones
/// coming back online does not retry in step. A server's `Retry-After` wins over it.
public struct RetrySchedule: Hashable, Sendable {
    /// The upper bound of the first delay.
    public var initial: TimeInterval
    /// The upper bound of every delay.
    public var maximum: TimeInterval

    /// Two seconds doubling to at most 15 minutes, by default.
    public init(initial: TimeInterval = 2, maximum: TimeInterval = 900) {
        self.initial = max(0, initial)
        self.maximum = max(self.initial, maximum)
    }

    /// The delay after the `attempts`-th failed try (1 for the first), for a `random` number
    /// in `0..<1`.
    public func delay(afterAttempt attempts: Int, random: Double) -> TimeInterval {
        let exponent = Double(min(max(attempts, 1) - 1, 62))
        let ceiling = min(maximum, initial * pow(2, exponent))
        return ceiling * min(max(random, 0), 1)
    }
}
