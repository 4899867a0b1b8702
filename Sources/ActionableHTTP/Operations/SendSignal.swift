import Synchronization

/// Tells the send worker that a notification was recorded, so it sends at once instead of at
/// its next poll. A signal given while nobody waits is kept for the next wait (one, however many
/// were given).
public final class SendSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    /// A signal nobody has given yet.
    public init() {}

    /// Wakes the waiter, or the next one.
    public func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns once signalled (at once when a signal is pending), or after `timeout`.
    public func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Cancelled when the signal came first: then it signals nothing.
                if (try? await Task.sleep(for: timeout)) != nil { self.signal() }
            }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
            group.cancelAll()
        }
    }
}
