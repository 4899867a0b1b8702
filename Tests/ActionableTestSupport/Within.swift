import Synchronization

/// Thrown by ``within(_:limit:_:)`` when what a test waited for did not happen in time.
public struct NeverHappened: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration
    public var description: String { "waited \(limit) for \(what), and it never happened" }
}

/// Waits for `body` at most `limit`, and no longer than the calling task runs: past the limit
/// it throws ``NeverHappened`` naming `what`, and when the test's task is cancelled (a
/// `.timeLimit` trait ran out) it throws `CancellationError` at once.
///
/// A test that waits on a continuation parked in an actor (an upstream that counts arrivals, a
/// process's output) otherwise ignores both: a delivery that never comes held the whole suite
/// until CI's own limit, with nothing printed. The body runs in a task of its own, cancelled
/// when the wait ends; one that ignores cancellation stays parked, which costs a test process
/// nothing that matters. The limit is a guard against hangs, never a measurement.
public func within<T: Sendable>(
    _ what: @autoclosure () -> String, limit: Duration = .seconds(180),
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let what = what()
    let once = ResumeOnce<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let work = Task {
                do { once.resume(.success(try await body())) } catch { once.resume(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                once.resume(.failure(NeverHappened(what: what, limit: limit)))
            }
            once.set(continuation) {
                work.cancel()
                timer.cancel()
            }
        }
    } onCancel: {
        once.resume(.failure(CancellationError()))
    }
}

/// A continuation resumed once, by whichever of the work, the timer or cancellation comes first
/// (a result that comes before the continuation is set is kept for it).
private final class ResumeOnce<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var finished = false
        var onFinish: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<T, any Error>, onFinish: @escaping @Sendable () -> Void) {
        let early: Result<T, any Error>? = state.withLock { state in
            if let early = state.early {
                state.finished = true
                return early
            }
            state.continuation = continuation
            state.onFinish = onFinish
            return nil
        }
        if let early {
            onFinish()
            continuation.resume(with: early)
        }
    }

    func resume(_ result: Result<T, any Error>) {
        let taken: (CheckedContinuation<T, any Error>, (@Sendable () -> Void)?)? = state.withLock { state in
            guard !state.finished else { return nil }
            guard let continuation = state.continuation else {
                if state.early == nil { state.early = result }
                return nil
            }
            state.finished = true
            state.continuation = nil
            defer { state.onFinish = nil }
            return (continuation, state.onFinish)
        }
        guard let (continuation, onFinish) = taken else { return }
        onFinish?()
        continuation.resume(with: result)
    }
}
