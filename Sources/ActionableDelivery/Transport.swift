import ActionableStore
import Foundation
import Logging

/// One way out of the server — a signed call to a webhook endpoint, a push to APNs — as the
/// outbox's one loop (``OutboxLoop``) drives it: claim due work under a lease, attempt each
/// piece, record the outcomes. The loop owns what is the same for every way out (the window of
/// attempts in flight, poison work set aside, outcomes recorded in batches, the shutdown that
/// lets attempts in flight finish); a transport owns its queue, its wire and its answers.
public protocol Transport: Sendable {
    /// One claimed piece of work: a response's delivery to an endpoint, a notification's copy
    /// for a device.
    associatedtype Work: Sendable
    /// What one attempt came to, as the transport records it (APNs keeps Apple's status).
    associatedtype Answer: Sendable

    /// The transport's name in logs and metrics: `webhook`, `apns`.
    var name: String { get }

    /// What one piece is called in logs: `delivery`, `send`.
    var workName: String { get }

    /// What names `work` in a log line (its response or notification, its endpoint or device).
    func metadata(of work: Work) -> Logger.Metadata

    /// Claims up to `limit` pieces due at `now`, under the transport's lease.
    func claim(limit: Int, now: Date) async throws -> [Work]

    /// How many leases of `work` ran out without an outcome (`LeasePolicy`).
    func expiredLeases(of work: Work) -> Int

    /// Makes one attempt. It ends within the transport's deadline, whatever the other side does.
    func attempt(_ work: Work) async -> Answer

    /// The answer recorded for poison work, set aside unattempted with `reason`.
    func setAside(_ work: Work, reason: String) -> Answer

    /// What `answer` means in the outbox's one vocabulary (for the loop's metrics).
    func outcome(of answer: Answer) -> AttemptOutcome

    /// Records finished attempts — in one transaction, where the queue allows — and reports
    /// each (logs, metrics, `delivery.dead`). A failure to record is the transport's to log: the
    /// leases then run out and the work is attempted again, under the same id.
    func record(_ finished: [Finished<Work, Answer>]) async
}

/// A piece of work and what its attempt came to.
public struct Finished<Work: Sendable, Answer: Sendable>: Sendable {
    public var work: Work
    public var answer: Answer

    public init(work: Work, answer: Answer) {
        self.work = work
        self.answer = answer
    }
}

/// What an attempt came to, whatever carried it: the outbox's one vocabulary.
public enum AttemptOutcome: String, Sendable, Hashable, CaseIterable {
    /// The other side has it.
    case delivered
    /// Not this time: tried again on the retry schedule (or the delay the other side asked for).
    case retry
    /// Kept back without spending an attempt (an open circuit breaker).
    case held
    /// Final: never tried again (refused, out of retries, or set aside as poison).
    case failed
}
