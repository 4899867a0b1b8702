import Synchronization

/// Tells a worker of the outbox that new work was recorded — a response accepted, a notification
/// sent — so that it claims at once instead of at its next poll. A signal given while nobody waits
/// is kept for the next wait (one, however many were given). One waiter at a time.
///
/// It wakes this process's workers only; another instance sharing the database finds the work at
/// its own next poll.
public final class OutboxSignal: Sendable {
    /// What an accepted response names for the workers it wakes: its category and action.
    public struct Key: Hashable, Sendable {
        public let category: String
        public let action: String

        public init(category: String, action: String) {
            self.category = category
            self.action = action
        }
    }

    private struct State {
        var pending = false
        /// What the pending signals named; `nil` once one named nothing (wake for everything).
        var keys: Set<Key>? = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
        /// The last wait whose time ran out (or was cancelled) before it was registered.
        var expired: UInt64 = 0
        var lastID: UInt64 = 0
        /// Whether the last wait ended on a signal (not on its timeout or a cancellation).
        var signalled = false
    }
    private let state = Mutex(State())

    /// A signal nobody has given yet.
    public init() {}

    /// Whether a signal was given that no wait has taken yet.
    public var isPending: Bool { state.withLock { $0.pending } }

    /// Wakes the waiter, or the next one, for everything.
    public func signal() { signal(key: nil) }

    /// Wakes the waiter, or the next one, for the work `key` names (an accepted response's
    /// category and action): a worker can then wake only what takes it.
    public func signal(_ key: Key) { signal(key: key) }

    private func signal(key: Key?) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let key { state.keys?.insert(key) } else { state.keys = nil }
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            state.signalled = true
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Takes what the signals since the last take named: `nil` when one named nothing; empty when
    /// none came since (their keys were taken by the wake before).
    public func takeKeys() -> Set<Key>? {
        state.withLock { state in
            defer { state.keys = [] }
            return state.keys
        }
    }

    /// Waits as ``wait(upTo:)`` does, then says what woke it: the keys signalled since the last
    /// wake (empty when a signal came whose keys the wake before took already: nothing new), or
    /// `nil` for everything — a signal that named nothing, or the timeout (a poll).
    public func wake(upTo timeout: Duration) async -> Set<Key>? {
        let signalled = await wait(upTo: timeout)
        let keys = takeKeys()
        return signalled ? keys : nil
    }

    /// Returns once signalled (at once when a signal is pending), after `timeout`, or when the
    /// task is cancelled.
    @discardableResult
    public func wait(upTo timeout: Duration) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.lastID += 1
            state.signalled = false
            return state.lastID
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // Ends on the timeout, or at once when cancelled (by a signal, or a shutdown).
                try? await Task.sleep(for: timeout)
                self.expire(id)
            }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        state.signalled = true
                        return true
                    }
                    if state.expired == id { return true }
                    state.waiter = (id, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
            group.cancelAll()
        }
        return state.withLock { $0.signalled }
    }

    /// Ends wait `id`, unless a signal ended it already.
    private func expire(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter, waiter.id == id else {
                state.expired = id
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }
}
