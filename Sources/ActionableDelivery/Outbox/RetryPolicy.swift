public import Foundation

/// When a failed delivery is tried again, and when it is given up: exponential backoff with full
/// jitter (about `firstDelay` first, doubling, capped at `maximumDelay`) for `retryFor` after the
/// response was queued (24 hours by default), the last try falling on the deadline itself. A
/// dead response is kept, and an operator can queue it again, which starts a new window.
public struct RetryPolicy: Hashable, Sendable {
    /// The backoff before the first retry.
    public var firstDelay: TimeInterval
    /// The longest backoff.
    public var maximumDelay: TimeInterval
    /// How long after it was queued a response is retried before it is dead.
    public var retryFor: TimeInterval
    /// Attempts in all, the first included, if they should also be counted (nil: only time counts).
    public var maximumAttempts: Int?

    /// The defaults: about 1 s, doubling, capped at 1 hour, for 24 hours.
    public init(firstDelay: TimeInterval = 1, maximumDelay: TimeInterval = 3600, retryFor: TimeInterval = 24 * 3600, maximumAttempts: Int? = nil) {
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.retryFor = retryFor
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

    /// The longest delay an upstream may ask for with `Retry-After`.
    public static let longestRequestedDelay: TimeInterval = 3600

    /// What follows attempt `attempt` of a response queued at `queuedAt`, failed at `now` (the
    /// end of the attempt, so a slow attempt does not eat its own backoff): the time of the next
    /// try, or nil when the response is dead. `requested` is a delay the upstream asked for
    /// (`Retry-After`); it wins over the backoff, but not over the deadline, and is held within
    /// [``firstDelay``, ``maximumDelay`` (at most 1 hour)]: `Retry-After: 0` (or a date in the
    /// past) does not make a hot loop, and a day-long one does not park the response.
    public func nextAttempt(
        afterAttempt attempt: Int, queuedAt: Date, now: Date, unit: Double, requested: TimeInterval? = nil
    )
        -> Date?
    {
        if let maximumAttempts, attempt >= maximumAttempts { return nil }
        let deadline = queuedAt.addingTimeInterval(retryFor)
        guard now < deadline else { return nil }
        // A peer's number: not finite is not a request at all; too long is the longest delay
        // allowed (the backoff's own cap, at most an hour); too short is the first delay.
        let longest = max(firstDelay, min(maximumDelay, Self.longestRequestedDelay))
        let wait = requested.flatMap { $0.isFinite ? min(max($0, firstDelay), longest) : nil }
        let next = now.addingTimeInterval(wait ?? delay(afterAttempt: attempt, unit: unit))
        return min(next, deadline)
    }

    /// `seconds` as 40 s, 12 min, 3 h or 2 d: a retry window in a dead delivery's reason.
    public static func describe(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<120: return "\(Int(seconds)) s"
        case ..<7200: return "\(Int(seconds / 60)) min"
        case ..<172_800: return "\(Int(seconds / 3600)) h"
        default: return "\(Int(seconds / 86400)) d"
        }
    }
}
