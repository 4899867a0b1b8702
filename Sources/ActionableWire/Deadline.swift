import Synchronization

/// An attempt that did not finish within its deadline.
public struct DeadlineExceeded: Error, Hashable, Sendable, CustomStringConvertible {
    /// The time the attempt was given.
    public let limit: Duration
    /// What was being done (`"the upstream's answer"`), for the message.
    public let what: String

    public init(limit: Duration, what: String) {
        self.limit = limit
        self.what = what
    }

    public var description: String { "\(what) did not finish within \(limit.components.seconds) s" }
}

/// Runs `operation` with `limit` to finish in, whole: an answer's head and its body together.
///
/// When the time is up, `operation` is cancelled and ``DeadlineExceeded`` thrown at once — the
/// caller never waits on an operation that ignores its cancellation (a peer that stalls a body
/// holds at most its own task, never the caller). Cancelling the caller cancels `operation`.
public func withDeadline<T: Sendable>(
    _ limit: Duration, what: String, timer: DeadlineTimer? = nil, operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            race.start(continuation)
            let work = Task {
                do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
            }
            let expire: @Sendable () -> Void = { race.finish(.failure(DeadlineExceeded(limit: limit, what: what))) }
            let cancelTimer: @Sendable () -> Void
            if let timer {
                cancelTimer = timer(limit, expire)
            } else {
                let sleeper = Task {
                    try? await Task.sleep(for: limit)
                    expire()
                }
                cancelTimer = { sleeper.cancel() }
            }
            race.attach(work: work, cancelTimer: cancelTimer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// Schedules `fire` after `limit` and returns what cancels it: a clock for ``withDeadline(_:what:timer:operation:)``
/// cheaper than its default (a task that sleeps, which costs a dispatch timer each) — an event
/// loop's scheduled task, for one that runs thousands of deadlines a second.
public typealias DeadlineTimer = @Sendable (_ limit: Duration, _ fire: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)

/// The first of the operation, its timer and the caller's cancellation to finish resumes the
/// caller; the others are cancelled.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var work: Task<Void, Never>?
        var cancelTimer: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func attach(work: Task<Void, Never>, cancelTimer: @escaping @Sendable () -> Void) {
        let finished = state.withLock { state -> Bool in
            state.work = work
            state.cancelTimer = cancelTimer
            return state.result != nil
        }
        if finished {
            work.cancel()
            cancelTimer()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, work, cancelTimer) = state.withLock {
            state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, (@Sendable () -> Void)?) in
            guard state.result == nil else { return (nil, nil, nil) }
            state.result = result
            defer {
                state.continuation = nil
                state.cancelTimer = nil
            }
            return (state.continuation, state.work, state.cancelTimer)
        }
        work?.cancel()
        cancelTimer?()
        continuation?.resume(with: result)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, held within what an `Int64` holds: a configured or a
    /// peer's duration handed to a clock that counts in nanoseconds (NIO's `TimeAmount`) never
    /// traps, however large (`--forward-timeout 400000d`).
    public var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? (seconds < 0 ? .min : .max) : sum
    }
}
