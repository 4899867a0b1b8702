import ActionableCore
public import ActionableRouter
public import ActionableStore
import CoreMetrics
public import Foundation
public import Logging
public import Tracing

/// The outbox's transport to the in-process handlers: claims the due responses under a lease,
/// runs the handler routed for each (a Swift handler in this process), and records the outcome.
/// The outbox's worker (``OutboxLoop``) runs it. Every response runs at least once; the response
/// id is the idempotency key.
///
/// - `done` → delivered;
/// - `retry(after:)` or a thrown error → tried again after the handler's delay or the policy's
///   backoff, and dead once ``RetryPolicy/retryFor`` has passed since it was queued;
/// - `fail(reason:)`, or no route at all → dead, with the reason.
///
/// A claimed response no handler takes is not attempted: with endpoints as data it is handed to
/// the endpoints that take it (a response accepted before they existed) or held, visibly, until
/// one does — both written as part of the claim. The ``EndpointWorker`` delivers to endpoints.
@dynamicMemberLookup
public struct HandlerTransport: Transport {
    /// A claimed response, and the time its claim was made (its attempt's backoff counts from
    /// that time plus the time the attempt took).
    public struct Work: Sendable {
        public var action: AcceptedResponse
        public var claimedAt: Date
    }

    /// A handler's outcome, when its attempt ended, and what it threw.
    public struct Answer: Sendable {
        public var outcome: HandlerOutcome
        public var end: Date
        public var error: String?
    }

    /// A field of its ``settings``, read or changed as its own: `transport.owner`,
    /// `transport.metricsFactory = …`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<OutboxSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }

    public let store: any ActionQueue
    /// The in-process handlers; `nil` when there are none.
    public let router: ActionRouter?
    /// Where endpoints are read and responses fanned out to them; `nil`: handlers only.
    public var endpoints: (any EndpointStore)?
    /// Its retry schedule, lease, window, jitter, logger and metrics.
    public var settings: OutboxSettings
    /// When the queue depth is counted again: at most every few seconds, not every round.
    let queueDepth = Sampling(every: .seconds(5))

    /// The handlers of `router` over the responses `store` queues.
    public init(store: any ActionQueue, router: ActionRouter?, endpoints: (any EndpointStore)? = nil, settings: OutboxSettings) {
        self.store = store
        self.router = router
        self.endpoints = endpoints
        self.settings = settings
    }

    /// The handlers of `router` over `store`, with settings of their own: up to `concurrency`
    /// responses in flight, each claim held for `lease` seconds by `owner`.
    public init(
        store: any ActionQueue, router: ActionRouter?, policy: RetryPolicy = RetryPolicy(),
        owner: String = "handlers-\(UUID().uuidString.prefix(8))", lease: TimeInterval = 60, concurrency: Int = 32,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger
    ) {
        self.init(
            store: store, router: router,
            settings: OutboxSettings(policy: policy, owner: owner, lease: lease, concurrency: concurrency, jitter: jitter, logger: logger))
    }

    public var name: String { "handler" }
    public var workName: String { "response" }
    public var spanName: String { AttemptSpan.name }
    public var spanKind: SpanKind { .internal }
    /// Each recorded outcome of an in-process handler (`delivery` meant the handler's way before
    /// the glossary; that name is counted too, for one release).
    public var recordedMetric: String { "actionable_handler_attempts_total" }
    public var formerRecordedMetric: String? { "actionable_delivery_attempts_total" }

    public func metadata(of work: Work) -> Logger.Metadata { ["response.id": "\(work.action.id)"] }

    public func traceParent(of work: Work) -> String? { work.action.traceParent }

    public func describe(_ work: Work, on span: any Span) { AttemptSpan.describe(work.action, endpointID: nil, on: span) }

    public func claim(limit: Int, now: Date) async throws -> [Work] {
        try await claimCounting(limit: limit, now: now).work
    }

    /// Runs what is due at `now` in one round; returns how many responses it claimed (run, held
    /// or handed to endpoints). A test's way to run one round at a time it chooses.
    @discardableResult
    package func deliverDue(now: Date = Date()) async throws -> Int {
        let (claimed, count) = try await claimCounting(limit: settings.concurrency, now: now)
        await OutboxLoop(self).round(claimed)
        return count
    }

    /// ``claim(limit:now:)``, and how many responses the claim took in all (held and handed to
    /// endpoints included).
    func claimCounting(limit: Int, now: Date) async throws -> (work: [Work], count: Int) {
        if let metricsFactory = settings.metricsFactory, queueDepth.isDue() {
            // The outbox's depth: responses waiting for a handler, and deliveries for their
            // endpoint. Under its former name too, for one release.
            let depth = try await store.pendingCount()
            Gauge(label: "actionable_outbox_depth", factory: metricsFactory).record(depth)
            Gauge(label: "actionable_delivery_queue_depth", factory: metricsFactory).record(depth)
        }
        // Without endpoints as data, nothing could take a response yet; with them, a response
        // nothing takes is claimed to be set aside as held, visibly.
        guard router != nil || endpoints != nil else { return ([], 0) }
        let claimed = try await store.claimDue(now: now, limit: limit, lease: settings.lease, owner: settings.owner)
        // The endpoints only when something was claimed: an idle round reads nothing more.
        let known = claimed.isEmpty ? [] : try await endpoints?.endpoints() ?? []
        var work: [Work] = []
        var fanOuts: [FanOut] = []
        var held: [HeldResponse] = []
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
            work.append(Work(action: action, claimedAt: now))
        }
        if let endpoints, !fanOuts.isEmpty {
            try await endpoints.fanOut(fanOuts, owner: settings.owner, at: now)
        }
        if let endpoints, !held.isEmpty {
            try await endpoints.hold(held, owner: settings.owner)
            settings.logger.warning(
                "responses held: no endpoint takes them yet", metadata: ["count": "\(held.count)", "first": "\(held[0].category).\(held[0].action)"])
        }
        return (work, claimed.count)
    }

    public func expiredLeases(of work: Work) -> Int { work.action.expiredLeases }

    public func setAside(_ work: Work, reason: String) -> Answer {
        Answer(outcome: .fail(reason: reason), end: work.claimedAt, error: nil)
    }

    public func report(of answer: Answer) -> AttemptReport {
        switch answer.outcome {
        case .done: AttemptReport(.delivered, label: "delivered")
        case .retry: AttemptReport(.retry, label: "retry", reason: answer.error ?? "the handler asked to retry")
        case .fail(let reason): AttemptReport(.dead, label: "dead", reason: reason)
        }
    }

    /// Runs the handler routed for the response.
    public func attempt(_ work: Work) async -> Answer {
        let action = work.action
        var logger = settings.logger
        logger[metadataKey: "response.id"] = .string(action.id)
        let context = ActionContext(responseID: action.id, attempt: action.attempts, receivedAt: action.receivedAt, logger: logger)
        // Backoff counts from the end: the claim's time plus the time the attempt took.
        let started = ContinuousClock.now
        func end() -> Date { work.claimedAt.addingTimeInterval((ContinuousClock.now - started).timeInterval) }
        guard let handler = router?.handler(for: action.response) else {
            return Answer(outcome: .fail(reason: "no handler or endpoint takes \(action.response.category).\(action.response.action)"), end: end())
        }
        do {
            return Answer(outcome: try await handler(action.response, context), end: end())
        } catch {
            logger.warning("handler threw", metadata: ["error": "\(error)", "attempt": "\(action.attempts)"])
            return Answer(outcome: .retry(after: nil), end: end(), error: "\(error)")
        }
    }

    /// Records the outcomes in one call of the response queue (one transaction where the driver
    /// can), then reports each.
    public func record(_ finished: [Finished<Work, Answer>]) async -> [AttemptReport?] {
        let fates = finished.map { fate(of: $0.answer, for: $0.work.action) }
        do {
            try await store.finishResponses(
                zip(finished, fates).map { FinishedResponse(id: $0.work.action.id, fate: $1) }, owner: settings.owner)
        } catch {
            // The leases run out and another round (or instance) takes the responses over.
            settings.logger.error("could not record handler outcomes", metadata: ["error": "\(error)", "count": "\(finished.count)"])
            return finished.map { _ in nil }
        }
        return zip(finished, fates).map { item, fate in
            switch fate {
            case .delivered: return AttemptReport(.delivered, label: "delivered")
            case .retry(_, let error): return AttemptReport(.retry, label: "retry", reason: error)
            case .dead(let reason):
                settings.logger.warning("response is dead", metadata: ["response.id": "\(item.work.action.id)", "reason": "\(reason)"])
                return AttemptReport(.dead, label: "dead", reason: reason)
            }
        }
    }

    /// Where `answer` sends the response: a retry's next time is drawn here, once.
    private func fate(of answer: Answer, for action: AcceptedResponse) -> FinishedResponse.Fate {
        let (outcome, now, error) = (answer.outcome, answer.end, answer.error)
        switch outcome {
        case .done:
            return .delivered(at: now)
        case .fail(let reason):
            return .dead(reason: reason)
        case .retry(let after):
            let reason = error ?? "the handler asked to retry"
            guard
                let next = settings.policy.nextAttempt(
                    afterAttempt: action.attempts, queuedAt: action.queuedAt, now: now, unit: settings.jitter(), requested: after?.timeInterval)
            else {
                let window = RetryPolicy.describe(now.timeIntervalSince(action.queuedAt))
                return .dead(reason: "gave up after \(action.attempts) attempts over \(window); last: \(reason)")
            }
            return .retry(at: next, error: reason)
        }
    }
}
