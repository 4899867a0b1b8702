import ActionableStore
public import Foundation
public import Logging
public import Tracing

/// One way out of the server — a signed call to a webhook endpoint, a push to APNs or FCM, an
/// in-process handler — as the outbox's one worker (``OutboxLoop``) drives it: claim due work
/// under a lease, attempt each piece, record the outcomes. The loop owns what is the same for
/// every way out: the window of attempts in flight, poison work set aside, the wait for a rate
/// limit's slot, each attempt's span, outcomes recorded in batches, the attempt metrics, and the
/// shutdown that lets attempts in flight finish. A transport owns its queue, its wire and its
/// answers.
public protocol Transport: Sendable {
    /// One claimed piece of work: a response's delivery to an endpoint, a notification's copy
    /// for a device.
    associatedtype Work: Sendable
    /// What one attempt came to, as the transport records it (APNs keeps Apple's status).
    associatedtype Answer: Sendable

    /// The transport's name in logs and metrics: `webhook`, `apns`, `fcm`, `handler`.
    var name: String { get }

    /// What one piece is called in logs: `delivery`, `copy`, `response`.
    var workName: String { get }

    /// Its retry schedule, lease, window, jitter, logger and metrics.
    var settings: OutboxSettings { get }

    /// What names `work` in a log line (its response or notification, its endpoint or device).
    func metadata(of work: Work) -> Logger.Metadata

    /// Claims up to `limit` pieces due at `now`, under the transport's lease.
    func claim(limit: Int, now: Date) async throws -> [Work]

    /// How many leases of `work` ran out without an outcome (`LeasePolicy`).
    func expiredLeases(of work: Work) -> Int

    /// Not before this time: a rate limit's slot for `work` (`nil`: at once). The loop waits for
    /// it before the attempt's span begins.
    func notBefore(_ work: Work) -> Date?

    /// The name of an attempt's span: `actionable.delivery.attempt`, `actionable.apns.send`.
    var spanName: String { get }

    /// Whether an attempt calls another service (`client`) or runs in this process (`internal`).
    var spanKind: SpanKind { get }

    /// The trace an attempt at `work` continues (`TraceParent`): the request's that queued it.
    func traceParent(of work: Work) -> String?

    /// Sets what names `work` on its attempt's span (called only when the span records).
    func describe(_ work: Work, on span: any Span)

    /// Makes one attempt. It ends within the transport's deadline, whatever the other side does.
    func attempt(_ work: Work) async -> Answer

    /// The answer recorded for poison work, set aside unattempted with `reason`.
    func setAside(_ work: Work, reason: String) -> Answer

    /// What `answer` means in the outbox's one vocabulary: the loop's metric and the span.
    func report(of answer: Answer) -> AttemptReport

    /// The counter of recorded outcomes the loop adds to (`outcome` is the report's label), with
    /// the dimensions `work` adds to it.
    var recordedMetric: String { get }

    /// The name ``recordedMetric`` had before, still counted for one release (`nil`: none).
    var formerRecordedMetric: String? { get }

    /// The dimensions of ``recordedMetric`` for `work` besides its outcome (an endpoint's id).
    func dimensions(of work: Work) -> [(String, String)]

    /// Records finished attempts — in one transaction, where the queue allows — and reports
    /// each (logs, `delivery.dead`); returns what was written for each, in order (`nil`: not
    /// written, its lease runs out). A failure to record is the transport's to log: the leases
    /// then run out and the work is attempted again, under the same id.
    func record(_ finished: [Finished<Work, Answer>]) async -> [AttemptReport?]
}

extension Transport {
    public func notBefore(_ work: Work) -> Date? { nil }
    public func dimensions(of work: Work) -> [(String, String)] { [] }
    public var formerRecordedMetric: String? { nil }
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
    case dead

    /// The former name of ``dead``.
    @available(*, deprecated, renamed: "dead", message: "final outcomes are dead; a failed attempt may be retried")
    public static var failed: AttemptOutcome { .dead }
}

/// An attempt's outcome as the loop reports it, whatever the transport: counted in
/// `actionable_outbox_attempts_total{transport, outcome}` and the transport's own counter, and set
/// on the attempt's span (`actionable.outcome`, `http.response.status_code`, an error status with
/// the reason).
public struct AttemptReport: Sendable, Hashable {
    /// In the outbox's one vocabulary.
    public var outcome: AttemptOutcome
    /// In the transport's own words — `delivered`, `retry`, `held`, `dead` for deliveries; `sent`,
    /// `retry`, `failed`, `unregistered` for copies (a copy's states in the HTTP API, where `failed`
    /// is final) — the label of its counter and of the span.
    public var label: String
    /// The other side's HTTP status, when it answered.
    public var status: Int?
    /// Why it did not deliver.
    public var reason: String?

    public init(_ outcome: AttemptOutcome, label: String, status: Int? = nil, reason: String? = nil) {
        self.outcome = outcome
        self.label = label
        self.status = status
        self.reason = reason
    }
}
