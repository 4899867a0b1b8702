import ActionableCore
import ActionableRouter
import ActionableStore
import CoreMetrics
import Foundation
import Logging
import Tracing

/// Runs the in-process handlers for accepted responses: the outbox's loop over
/// ``HandlerTransport``, which claims the due responses under a lease, runs the handler routed for
/// each (a Swift handler in this process), and records the outcome. A response no handler takes is
/// handed to the endpoints that take it (one accepted before they existed) or held until one does;
/// the ``EndpointWorker`` delivers to endpoints. Every response runs at least once; the response id
/// is the idempotency key.
///
/// - `done` → delivered;
/// - `retry(after:)` or a thrown error → tried again after the handler's delay or the policy's
///   backoff, and dead once ``RetryPolicy/retryFor`` has passed since it was queued;
/// - `fail(reason:)`, or no route at all → dead, with the reason.
@dynamicMemberLookup
public struct HandlerWorker: Sendable {
    /// A field of its ``settings``, read or changed as its own: `worker.owner`,
    /// `worker.metricsFactory = …`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<OutboxSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }

    public let store: any ActionQueue
    /// The in-process handlers; `nil` when there are none.
    public let router: ActionRouter?
    /// Where endpoints are read and responses fanned out to them; `nil`: handlers only.
    public var endpoints: (any EndpointStore)?
    /// Its retry schedule, lease, window, jitter, logger and metrics (read as its own fields too:
    /// `worker.owner`, `worker.metricsFactory`).
    public var settings: OutboxSettings
    /// When the queue depth is counted again: at most every few seconds, not every round.
    let queueDepth = Sampling(every: .seconds(5))

    /// A worker over `store` and `router`.
    public init(
        store: any ActionQueue, router: ActionRouter?, policy: RetryPolicy = RetryPolicy(),
        owner: String = "worker-\(UUID().uuidString.prefix(8))", lease: TimeInterval = 60, batchSize: Int = 32,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger
    ) {
        self.store = store
        self.router = router
        settings = OutboxSettings(policy: policy, owner: owner, lease: lease, concurrency: batchSize, jitter: jitter, logger: logger)
    }

    /// Delivers what is due at `now`; returns how many responses it claimed (run, held or handed
    /// to endpoints). A test's way to run one round at a time it chooses; ``run(wake:idle:)`` is the
    /// outbox's loop.
    @discardableResult
    public func deliverDue(now: Date = Date()) async throws -> Int {
        let transport = HandlerTransport(worker: self)
        let loop = OutboxLoop(transport: transport, settings: settings)
        let (claimed, count) = try await transport.claimCounting(limit: settings.concurrency, now: now)
        await loop.round(claimed)
        return count
    }

    /// Runs until cancelled: the outbox's loop (``OutboxLoop``) over the in-process handlers
    /// (``HandlerTransport``), up to ``OutboxSettings/concurrency`` responses in flight, claiming more as each
    /// ends, and waiting `idle` when nothing is due. Cancelling stops the claims, not the
    /// deliveries in flight: they run to their end and their outcomes are recorded. With `wake`
    /// (a response accepted), it waits for that instead of the whole `idle`.
    public func run(wake: (@Sendable (Duration) async -> Void)? = nil, idle: Duration = .milliseconds(200)) async {
        await OutboxLoop(transport: HandlerTransport(worker: self), settings: settings)
            .run(wake: wake, idle: idle)
    }

    /// Runs the handler of `action`: its outcome, when the attempt ended (backoff counts from the
    /// end: `now` plus the time the attempt took), and what it threw.
    func handle(_ action: AcceptedResponse, now: Date) async -> (HandlerOutcome, Date, String?) {
        var logger = self.logger
        logger[metadataKey: "response.id"] = .string(action.id)
        let context = ActionContext(
            responseID: action.id, attempt: action.attempts, receivedAt: action.receivedAt,
            logger: logger)
        let started = ContinuousClock.now
        func end() -> Date { now.addingTimeInterval((ContinuousClock.now - started).timeInterval) }
        guard let handler = router?.handler(for: action.response) else {
            return (.fail(reason: "no handler or endpoint takes \(action.response.category).\(action.response.action)"), end(), nil)
        }
        do {
            let outcome = try await handler(action.response, context)
            return (outcome, end(), nil)
        } catch {
            logger.warning("handler threw", metadata: ["error": "\(error)", "attempt": "\(action.attempts)"])
            return (.retry(after: nil), end(), "\(error)")
        }
    }

    /// `seconds` as 40 s, 12 min, 3 h or 2 d.
    static func describe(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<120: return "\(Int(seconds)) s"
        case ..<7200: return "\(Int(seconds / 60)) min"
        case ..<172_800: return "\(Int(seconds / 3600)) h"
        default: return "\(Int(seconds / 86400)) d"
        }
    }
}

/// The name ``HandlerWorker`` had when it also fanned responses out to endpoints.
@available(*, deprecated, renamed: "HandlerWorker")
public typealias DeliveryWorker = HandlerWorker
