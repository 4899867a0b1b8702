import ActionableStore
import Foundation
import Synchronization

/// The store the HTTP routes are built on before the real one is open: until storage is
/// reachable and migrated, every call throws ``StorageNotReady`` (so `/readyz` and
/// `POST /v1/actions` answer 503 with the reason, and `/healthz` still answers 200); from then
/// on, every call goes to the opened store.
final class PendingActionStore: ActionStore {
    private enum State {
        case waiting(reason: String, waiters: [CheckedContinuation<Void, Never>])
        case open(any ActionStore)
    }

    private let state: Mutex<State>

    /// A store not open yet, for `reason`.
    init(reason: String) { state = Mutex(.waiting(reason: reason, waiters: [])) }

    /// From now on, calls go to `store`; whoever waits in ``waitUntilOpen()`` resumes.
    func open(_ store: any ActionStore) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state = .open(store) }
            if case .waiting(_, let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Why storage is not open yet, for the 503 answers.
    func waiting(because reason: String) {
        state.withLock { state in
            if case .waiting(_, let waiters) = state { state = .waiting(reason: reason, waiters: waiters) }
        }
    }

    /// Returns once the store is open.
    func waitUntilOpen() async {
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

    /// The opened store, once there is one.
    var opened: (any ActionStore)? {
        state.withLock { state in
            if case .open(let store) = state { return store }
            return nil
        }
    }

    private func store() throws(StorageNotReady) -> any ActionStore {
        let current: Result<any ActionStore, StorageNotReady> = state.withLock { state in
            switch state {
            case .open(let store): return .success(store)
            case .waiting(let reason, _): return .failure(StorageNotReady(description: reason))
            }
        }
        return try current.get()
    }

    func accept(_ action: NewAction) async throws -> AcceptResult { try await store().accept(action) }
    func action(id: String) async throws -> StoredAction? { try await store().action(id: id) }
    func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [StoredAction] {
        try await store().claimDue(now: now, limit: limit, lease: lease, owner: owner)
    }
    func markDelivered(id: String, owner: String, at: Date) async throws {
        try await store().markDelivered(id: id, owner: owner, at: at)
    }
    func reschedule(id: String, owner: String, at: Date, error: String) async throws {
        try await store().reschedule(id: id, owner: owner, at: at, error: error)
    }
    func markDead(id: String, owner: String, reason: String) async throws {
        try await store().markDead(id: id, owner: owner, reason: reason)
    }
    func pendingCount() async throws -> Int { try await store().pendingCount() }
    func checkReachable() async throws { try await store().checkReachable() }
    func recordSent(_ notification: SentNotification, countingSince: Date) async throws -> BadgeRecordResult {
        try await store().recordSent(notification, countingSince: countingSince)
    }
    func markRead(user: String, notificationIDs: [String], at: Date, countingSince: Date) async throws -> Int {
        try await store().markRead(user: user, notificationIDs: notificationIDs, at: at, countingSince: countingSince)
    }
    func markAllRead(user: String, at: Date, countingSince: Date) async throws -> Int {
        try await store().markAllRead(user: user, at: at, countingSince: countingSince)
    }
    func badge(user: String, countingSince: Date) async throws -> Int {
        try await store().badge(user: user, countingSince: countingSince)
    }
    func unreadTotal(countingSince: Date) async throws -> Int { try await store().unreadTotal(countingSince: countingSince) }
    func deliveries(matching filter: DeliveryFilter, after cursor: DeliveryCursor?, limit: Int) async throws -> DeliveryPage {
        try await store().deliveries(matching: filter, after: cursor, limit: limit)
    }
    func requeue(id: String, at: Date) async throws -> RequeueResult { try await store().requeue(id: id, at: at) }
    func requeue(matching filter: DeliveryFilter, at: Date) async throws -> Int { try await store().requeue(matching: filter, at: at) }
    func deliveryCounts() async throws -> [DeliveryStatus: Int] { try await store().deliveryCounts() }
    func purge(_ cutoff: PurgeCutoff, limit: Int) async throws -> PurgeCount { try await store().purge(cutoff, limit: limit) }
}

/// Storage is not open yet: the description says why (the last connection error).
public struct StorageNotReady: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
}
