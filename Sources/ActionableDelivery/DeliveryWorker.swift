import ActionableCore
import ActionableRouter
import ActionableStore
import CoreMetrics
import Foundation
import Logging
import Tracing

/// Delivers accepted responses: claims the due ones under a lease, runs the handler routed for
/// each (a Swift handler in this process), or hands it to every endpoint whose filter takes it
/// (``EndpointStore/fanOut(_:owner:at:)``; the ``EndpointWorker`` delivers to each), and records
/// the outcome. Every response runs at least once; the response id is the idempotency key.
///
/// While neither a handler nor an endpoint exists, responses are left pending: an endpoint
/// created later takes them.
///
/// - `done` → delivered;
/// - `retry(after:)` or a thrown error → tried again after the handler's delay or the policy's
///   backoff, and dead once ``RetryPolicy/retryFor`` has passed since it was queued;
/// - `fail(reason:)`, or no route at all → dead, with the reason.
public struct DeliveryWorker: Sendable {
    public let store: any ActionQueue
    /// The in-process handlers; `nil` when there are none.
    public let router: ActionRouter?
    /// Where endpoints are read and responses fanned out to them; `nil`: handlers only.
    public var endpoints: (any EndpointStore)?
    public let policy: RetryPolicy
    /// This worker's name in leases: unique per process.
    public let owner: String
    /// How long a claim is held before another worker may take it over.
    public let lease: TimeInterval
    /// The most responses claimed (and run concurrently) at once.
    public let batchSize: Int
    /// The random draw in `0..<1` for the jitter (injectable for tests).
    public let jitter: @Sendable () -> Double
    public let logger: Logger
    /// Where delivery metrics go (attempts by outcome, queue depth); none when `nil`.
    public var metricsFactory: (any MetricsFactory)?
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
        self.policy = policy
        self.owner = owner
        self.lease = lease
        self.batchSize = batchSize
        self.jitter = jitter
        self.logger = logger
    }

    /// Delivers what is due at `now`; returns how many responses it ran.
    @discardableResult
    public func deliverDue(now: Date = Date()) async throws -> Int {
        let known = try await endpoints?.endpoints() ?? []
        if let metricsFactory, queueDepth.isDue() {
            Gauge(label: "actionable_delivery_queue_depth", factory: metricsFactory).record(try await store.pendingCount())
        }
        // Without endpoints as data, nothing could take a response yet; with them, a response
        // nothing takes is claimed to be set aside as held, visibly.
        guard router != nil || endpoints != nil else { return 0 }
        let claimed = try await store.claimDue(now: now, limit: batchSize, lease: lease, owner: owner)
        var fanOuts: [FanOut] = []
        var held: [HeldResponse] = []
        await withTaskGroup(of: Void.self) { group in
            for action in claimed {
                let category = action.response.category.rawValue
                let name = action.response.action.rawValue
                if router?.handles(category: category, action: name) != true {
                    let taking = known.filter { $0.takes(category: category, action: name) }.map(\.id)
                    if !taking.isEmpty {
                        fanOuts.append(FanOut(responseID: action.id, endpointIDs: taking))
                        continue
                    }
                    if endpoints != nil {
                        // Accepted and kept: it waits for an endpoint that takes it.
                        held.append(
                            HeldResponse(
                                responseID: action.id, category: category, action: name,
                                reason: "held: no endpoint takes \(category).\(name) yet; create one whose filter takes it (POST /v1/endpoints)"))
                        continue
                    }
                }
                group.addTask { await self.deliver(action, now: now) }
            }
        }
        if let endpoints, !fanOuts.isEmpty {
            try await endpoints.fanOut(fanOuts, owner: owner, at: now)
        }
        if let endpoints, !held.isEmpty {
            try await endpoints.hold(held, owner: owner)
            logger.warning(
                "responses held: no endpoint takes them yet",
                metadata: ["count": "\(held.count)", "first": "\(held[0].category).\(held[0].action)"])
        }
        return claimed.count
    }

    /// Runs until cancelled: delivers what is due, and waits `idle` when nothing was
    /// (``WorkerRounds``: cancelling stops the loop, not a round in progress — the deliveries
    /// already claimed run to their end and their outcomes are recorded).
    public func run(idle: Duration = .milliseconds(200)) async {
        await WorkerRounds(idle: idle, what: "delivery", logger: logger).run { try await deliverDue() }
    }

    /// Runs the handler of `action` in its attempt span (``AttemptSpan``) and records the outcome.
    func deliver(_ action: StoredAction, now: Date) async {
        if action.expiredLeases >= LeasePolicy.poisonAfter {
            // A poison response: its attempts ended with no outcome (the process stopped) too often.
            logger.error(
                "response set aside: its leases ran out without an outcome \(action.expiredLeases) times",
                metadata: ["response.id": "\(action.id)"])
            return await record(.fail(reason: LeasePolicy.poisonReason(action.expiredLeases)), for: action, now: now)
        }
        await AttemptSpan.run(action, endpointID: nil) { span in
            let (outcome, end, error) = await handle(action, now: now)
            switch outcome {
            case .done: AttemptSpan.record("delivered", reason: nil, on: span)
            case .fail(let reason): AttemptSpan.record("dead", reason: reason, on: span)
            case .retry: AttemptSpan.record("retry", reason: error ?? "the handler asked to retry", on: span)
            }
            await record(outcome, for: action, now: end, error: error)
        }
    }

    /// Runs the handler of `action`: its outcome, when the attempt ended (backoff counts from the
    /// end: `now` plus the time the attempt took), and what it threw.
    private func handle(_ action: StoredAction, now: Date) async -> (HandlerOutcome, Date, String?) {
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

    func record(_ outcome: HandlerOutcome, for action: StoredAction, now: Date, error: String? = nil) async {
        // A retry's next time, drawn once: the metric and the schedule agree.
        var next: Date?
        if case .retry(let after) = outcome {
            next = policy.nextAttempt(
                afterAttempt: action.attempts, queuedAt: action.queuedAt, now: now, unit: jitter(), requested: after?.timeInterval)
        }
        if let metricsFactory {
            let label: String
            switch outcome {
            case .done: label = "delivered"
            case .retry: label = next == nil ? "dead" : "retry"
            case .fail: label = "dead"
            }
            Counter(label: "actionable_delivery_attempts_total", dimensions: [("outcome", label)], factory: metricsFactory)
                .increment()
        }
        do {
            switch outcome {
            case .done:
                try await store.markDelivered(id: action.id, owner: owner, at: now)
            case .fail(let reason):
                try await store.markDead(id: action.id, owner: owner, reason: reason)
                logger.warning("response is dead", metadata: ["response.id": "\(action.id)", "reason": "\(reason)"])
            case .retry:
                let reason = error ?? "the handler asked to retry"
                guard let next else {
                    let window = Self.describe(now.timeIntervalSince(action.queuedAt))
                    try await store.markDead(
                        id: action.id, owner: owner, reason: "gave up after \(action.attempts) attempts over \(window); last: \(reason)")
                    logger.warning("response is dead", metadata: ["response.id": "\(action.id)", "reason": "\(reason)"])
                    return
                }
                try await store.reschedule(id: action.id, owner: owner, at: next, error: reason)
            }
        } catch {
            // The lease runs out and another round (or instance) takes the response over.
            logger.error("could not record a delivery outcome", metadata: ["response.id": "\(action.id)", "error": "\(error)"])
        }
    }
}
