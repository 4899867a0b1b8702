public import Foundation

/// Durable storage of action responses, their delivery state, each user's badge, devices, the notifications sent to them and
/// the endpoints responses go to: the six
/// protocols below, which every driver implements together and the conformance suite checks
/// one by one (`Tests/ActionableStoreTests`). A part of the server that needs one of them takes
/// just that one.
public protocol ActionStore: ActionQueue, ResponseAdministration, BadgeLedger, DeviceRegistry, SendQueue, EndpointStore, AdminSignOuts,
    ActivityStore
{
    /// Wake-ups from other instances sharing this storage (see the default implementation).
    var wakeUps: AsyncStream<Void>? { get }
    /// How often the outbox's workers look for due work with no wake-up (see the default).
    var pollFallback: Duration { get }
}

/// Accepted responses and their delivery: what the accept route and the delivery worker use.
///
/// The idempotency rule lives in storage, not in a check-then-insert in the server: a unique
/// notification id makes concurrent accepts of one notification settle on one row, across
/// processes and instances.
public protocol ActionQueue: Sendable {
    /// Stores `action` unless its notification was answered already, and marks the notification
    /// read in the badge ledger in the same transaction (a crash never leaves one without the
    /// other). Returns only after the row is committed durably.
    func accept(_ action: NewResponse) async throws -> AcceptResult

    /// The stored response with `id`.
    func response(id: String) async throws -> AcceptedResponse?

    /// Claims up to `limit` pending responses due at `now` whose lease is free or expired:
    /// each gets a lease for `owner` until `now + lease`, and its attempt count goes up by one.
    /// A claim whose owner dies is taken over by another owner once its lease runs out.
    func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [AcceptedResponse]

    /// Marks a claimed response delivered. Does nothing if `owner` no longer holds its lease.
    func markDelivered(id: String, owner: String, at: Date) async throws

    /// Puts a claimed response back to pending, due at `at`, with the failure's reason.
    func reschedule(id: String, owner: String, at: Date, error: String) async throws

    /// Marks a claimed response dead, with the reason.
    func markDead(id: String, owner: String, reason: String) async throws

    /// Records the outcomes of several claimed responses — in one transaction where the driver
    /// can — each as ``markDelivered(id:owner:at:)``, ``reschedule(id:owner:at:error:)`` or
    /// ``markDead(id:owner:reason:)`` would. Those `owner` no longer holds are left as they are.
    func finishResponses(_ finished: [FinishedResponse], owner: String) async throws

    /// How many responses wait for an in-process handler (or to be handed to their endpoints), and
    /// deliveries for their endpoint: the outbox's depth (`actionable_outbox_depth`). Held
    /// responses and copies are not counted.
    func pendingCount() async throws -> Int

    /// When the work that has waited longest since it fell due became due — `now` minus it is how
    /// far the outbox is behind (`actionable_outbox_oldest_due_seconds`); `nil` when nothing is
    /// due. Responses waiting for a handler or to be handed to their endpoints, deliveries (but
    /// those of a paused endpoint or one whose breaker is open, which wait on purpose) and copies.
    func oldestDue(now: Date) async throws -> Date?

    /// Throws if the storage cannot be reached (for `/readyz`).
    func checkReachable() async throws
}

/// What operators ask of storage: pages of responses, responses queued again, counts, and the
/// retention's purges.
public protocol ResponseAdministration: Sendable {
    /// A page of stored responses matching `filter`, newest first (by time received, then id),
    /// after `cursor`.
    func responses(matching filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int) async throws -> ResponsePage

    /// Queues response `id` again — dead or delivered — due at `at`, with a fresh retry window;
    /// it keeps its id, so the upstream sees the same `webhook-id`. Nothing changes while it is
    /// pending, so two operators (or instances) queueing it at once queue it once.
    func requeue(id: String, at: Date) async throws -> RequeueResult

    /// Queues again every response of `filter` that is not pending; returns how many.
    func requeue(matching filter: ResponseFilter, at: Date) async throws -> Int

    /// How many responses are in each state.
    func responseCounts() async throws -> [ResponseStatus: Int]

    /// Deletes up to `limit` responses and up to `limit` badge entries that `cutoff` lets go
    /// (``PurgeCutoff``) in short transactions (SQLite deletes both in one, PostgreSQL each table
    /// in its own); never a pending response. Safe to run from several instances at once.
    func purge(_ cutoff: PurgeCutoff, limit: Int) async throws -> PurgeCount
}

/// What an attempt of a claimed response came to, for ``ActionQueue/finishResponses(_:owner:)``.
public struct FinishedResponse: Hashable, Sendable {
    /// Where the response goes next.
    public enum Fate: Hashable, Sendable {
        /// Delivered at this time.
        case delivered(at: Date)
        /// Pending again, due at `at`, with the failure's reason.
        case retry(at: Date, error: String)
        /// Dead, with the reason.
        case dead(reason: String)
    }

    public var id: String
    public var fate: Fate

    /// Response `id`'s attempt, and where it goes next.
    public init(id: String, fate: Fate) {
        self.id = id
        self.fate = fate
    }
}

extension ActionQueue {
    /// One by one: for drivers without a transaction to share.
    public func finishResponses(_ finished: [FinishedResponse], owner: String) async throws {
        for response in finished {
            switch response.fate {
            case .delivered(let at): try await markDelivered(id: response.id, owner: owner, at: at)
            case .retry(let at, let error): try await reschedule(id: response.id, owner: owner, at: at, error: error)
            case .dead(let reason): try await markDead(id: response.id, owner: owner, reason: reason)
            }
        }
    }
}

extension ActionStore {
    /// Wake-ups from other instances sharing this storage: one element each time another instance
    /// made outbox work due here (an endpoint created, changed or resumed, held responses let go,
    /// a re-queue, a send recorded), and one each time the listening connection is made again
    /// (a wake-up may have been missed meanwhile). `nil` (the default) for storage one instance
    /// owns: its own workers are woken in-process, and ``pollFallback`` stays short.
    public var wakeUps: AsyncStream<Void>? { nil }

    /// How often the outbox's workers look for due work with no wake-up: a fallback, for work no
    /// wake-up announces. Short (200 ms) without ``wakeUps``; storage with wake-ups says its own.
    public var pollFallback: Duration { .milliseconds(200) }
}
