import Synchronization

/// Attempts in flight, at most ``limit``: a worker claims as many as there are free slots, starts
/// each on its own, and claims again as each ends — one slow or stalled attempt holds its own slot,
/// never a batch. ``waitForRoom(_:)`` and ``waitUntilEmpty()`` let the worker wait without polling.
public final class AttemptWindow: Sendable {
    private struct State {
        var inFlight = 0
        var roomWaiters: [(room: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var endWaiters: [CheckedContinuation<Void, Never>] = []
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    }
    /// The most attempts in flight.
    public let limit: Int
    private let state = Mutex(State())

    /// A window of `limit` slots.
    public init(limit: Int) { self.limit = max(1, limit) }

    /// Free slots.
    public var room: Int { state.withLock { limit - $0.inFlight } }

    /// Attempts in flight.
    public var inFlight: Int { state.withLock { $0.inFlight } }

    /// An attempt starts: one slot is taken.
    public func take() { state.withLock { $0.inFlight += 1 } }

    /// An attempt ended: its slot is free.
    public func release() {
        let (room, empty) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [CheckedContinuation<Void, Never>]) in
            state.inFlight -= 1
            let free = limit - state.inFlight
            var room = state.endWaiters
            state.endWaiters = []
            state.roomWaiters.removeAll { waiter in
                guard free >= waiter.room || state.inFlight == 0 else { return false }
                room.append(waiter.continuation)
                return true
            }
            guard state.inFlight == 0 else { return (room, []) }
            defer { state.emptyWaiters = [] }
            return (room, state.emptyWaiters)
        }
        for waiter in room + empty { waiter.resume() }
    }

    /// Returns once `slots` slots are free (at most ``limit``), or none is in flight.
    public func waitForRoom(_ slots: Int = 1) async {
        let slots = min(max(1, slots), limit)
        await withCheckedContinuation { continuation in
            let free = state.withLock { state -> Bool in
                guard limit - state.inFlight < slots, state.inFlight > 0 else { return true }
                state.roomWaiters.append((slots, continuation))
                return false
            }
            if free { continuation.resume() }
        }
    }

    /// Returns once the next attempt in flight ends (at once when none is in flight).
    public func waitForNextEnd() async {
        await withCheckedContinuation { continuation in
            let none = state.withLock { state -> Bool in
                guard state.inFlight > 0 else { return true }
                state.endWaiters.append(continuation)
                return false
            }
            if none { continuation.resume() }
        }
    }

    /// Returns once no attempt is in flight.
    public func waitUntilEmpty() async {
        await withCheckedContinuation { continuation in
            let empty = state.withLock { state -> Bool in
                guard state.inFlight > 0 else { return true }
                state.emptyWaiters.append(continuation)
                return false
            }
            if empty { continuation.resume() }
        }
    }
}
