public import ActionableStore
import Synchronization

/// Readiness, in one place: the routes reach storage through this gate, which answers
/// ``StorageNotReady`` (a 503 with the reason) until the store is open and the store itself
/// from then on. `actionable serve` starts listening before its storage is reachable, so that
/// `/healthz` answers and `/readyz` says why it is not ready yet.
public final class StorageGate: Sendable {
    private enum State {
        case waiting(reason: String, waiters: [CheckedContinuation<Void, Never>])
        case open(any ActionStore)
    }

    private let state: Mutex<State>

    /// A gate closed for `reason` until ``open(_:)``.
    public init(reason: String) { state = Mutex(.waiting(reason: reason, waiters: [])) }

    /// A gate open on `store` from the start.
    public init(open store: any ActionStore) { state = Mutex(.open(store)) }

    /// Opens the gate on `store`; whoever waits in ``waitUntilOpen()`` resumes.
    public func open(_ store: any ActionStore) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state = .open(store) }
            if case .waiting(_, let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Why storage is not open yet, for the 503 answers (a gate already open stays open).
    public func waiting(because reason: String) {
        state.withLock { state in
            if case .waiting(_, let waiters) = state { state = .waiting(reason: reason, waiters: waiters) }
        }
    }

    /// Returns once the gate is open.
    public func waitUntilOpen() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withLock { state -> Bool in
                guard case .waiting(let reason, var waiters) = state else { return true }
                waiters.append(continuation)
                state = .waiting(reason: reason, waiters: waiters)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }

    /// The open store, or ``StorageNotReady`` with the reason it is not open yet.
    public func store() throws(StorageNotReady) -> any ActionStore {
        let current: Result<any ActionStore, StorageNotReady> = state.withLock { state in
            switch state {
            case .open(let store): return .success(store)
            case .waiting(let reason, _): return .failure(StorageNotReady(description: reason))
            }
        }
        return try current.get()
    }
}

/// Storage is not open yet: the description says why (the last connection error).
public struct StorageNotReady: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, for the 503 answer and `/readyz`.
    public let description: String
}
