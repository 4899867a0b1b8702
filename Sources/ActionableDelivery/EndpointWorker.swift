import ActionableCore
import ActionableRouter
import ActionableStore
import CoreMetrics
import Foundation
import Logging
import Synchronization
import Tracing

/// Delivers each response to each endpoint that takes it: every endpoint runs on its own (a slow
/// or failing one never holds the others up), claiming what its pause, circuit breaker and rate
/// limit allow (``EndpointGate``), POSTing it signed (``Forwarder``), and recording the outcome.
///
/// - 2xx → delivered; the endpoint's failure streak ends and an open breaker closes.
/// - 408, 429, 5xx, no answer → tried again on ``RetryPolicy``'s backoff; after
///   ``BreakerSettings/failures`` failures in a row the breaker opens, and the deliveries are held
///   (pending, their attempt given back) until a probe succeeds.
/// - Any other 4xx → dead. A delivery that goes dead is reported to ``onDead``.
public struct EndpointWorker: Sendable {
    public let store: any EndpointStore
    public let policy: RetryPolicy
    public let breaker: BreakerSettings
    /// Signs for endpoints without a secret of their own (`--forward-secret`).
    public let defaultSigner: WebhookSigner?
    /// This worker's name in leases: unique per process.
    public let owner: String
    public let lease: TimeInterval
    /// The most attempts in flight to one endpoint (`--endpoint-concurrency`).
    public let batchSize: Int
    public let jitter: @Sendable () -> Double
    public let logger: Logger
    /// Where metrics go (attempts by endpoint and outcome, dead deliveries); none when `nil`.
    public var metricsFactory: (any MetricsFactory)?
    /// Told of each delivery that went dead (the `delivery.dead` event, ``OpsNotifier``).
    public var onDead: (@Sendable (DeadDelivery) async -> Void)?
    /// Makes the forwarder of an endpoint (a test may give its own client or clock).
    public var forwarder: @Sendable (_ url: String, _ signers: [WebhookSigner]) -> Forwarder = { Forwarder(url: $0, signers: $1) }

    /// A worker over `store`.
    public init(
        store: any EndpointStore, policy: RetryPolicy = RetryPolicy(), breaker: BreakerSettings = BreakerSettings(),
        defaultSigner: WebhookSigner?, owner: String = "endpoints-\(UUID().uuidString.prefix(8))", lease: TimeInterval = 60,
        batchSize: Int = 32, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger
    ) {
        self.store = store
        self.policy = policy
        self.breaker = breaker
        self.defaultSigner = defaultSigner
        self.owner = owner
        self.lease = lease
        self.batchSize = batchSize
        self.jitter = jitter
        self.logger = logger
    }

    /// Runs until cancelled: every `idle`, each endpoint that is not busy is given its due
    /// deliveries; a busy endpoint keeps claiming until nothing is due.
    ///
    /// Cancelling stops the claims, not the attempts in flight: they finish and are recorded
    /// before this returns.
    public func run(idle: Duration = .milliseconds(200)) async {
        let busy = BusyEndpoints()
        while !Task.isCancelled {
            do {
                for endpoint in try await store.endpoints() where !endpoint.paused && busy.take(endpoint.id) {
                    // Not a child task: the loop's cancellation must not cut an attempt short.
                    Task {
                        await self.drain(endpoint.id, while: { !busy.stopping })
                        busy.release(endpoint.id)
                    }
                }
            } catch {
                logger.error("could not read the endpoints", metadata: ["error": "\(error)"])
            }
            do { try await Task.sleep(for: idle) } catch { break }
        }
        await busy.stop()
    }

    /// Delivers endpoint `endpointID`'s due deliveries until none is due (or `proceed` says stop);
    /// returns how many it ran.
    ///
    /// Up to ``batchSize`` attempts are in flight (`--endpoint-concurrency`), refilled as each
    /// answers: a slow answer holds its own slot, never the others. Claims take what the pause,
    /// the breaker and the rate limit allow (a rate-limited delivery waits for its slot within its
    /// attempt). Outcomes are recorded in batches — whatever finished while the previous batch was
    /// being written, in one transaction — and a slot is freed once its outcome is recorded.
    @discardableResult
    public func drain(_ endpointID: String, while proceed: @Sendable () -> Bool = { true }) async -> Int {
        let window = AttemptWindow(limit: batchSize)
        let recorder = OutcomeRecorder(worker: self)
        var total = 0
        while proceed() {
            let room = window.room
            guard room > 0 else {
                await window.waitForRoom()
                continue
            }
            let claimed: [ClaimedDelivery]
            do {
                claimed = try await store.claimDeliveries(
                    endpointID: endpointID, now: Date(), limit: room, lease: lease, owner: owner, breaker: breaker)
            } catch {
                logger.error("could not claim deliveries", metadata: ["endpoint": "\(endpointID)", "error": "\(error)"])
                break
            }
            guard !claimed.isEmpty else {
                // Nothing due now (or the rate, the breaker or the pause allow nothing yet): once an
                // attempt in flight ends, there may be more; with none in flight, the drain is done.
                if window.inFlight == 0 { break }
                await window.waitForNextEnd()
                continue
            }
            total += claimed.count
            // Read again per claim: a change through the API (a new URL or secret) takes effect at once.
            let endpoint = try? await store.endpoint(id: endpointID)
            for delivery in claimed {
                window.take()
                // Not a child: the loop's end must not cut an attempt short.
                Task {
                    await recorder.record(await self.attempt(delivery, to: endpoint))
                    window.release()
                }
            }
        }
        await window.waitUntilEmpty()
        return total
    }

    /// One attempt made: the delivery and its outcome.
    struct Attempted: Sendable {
        var delivery: ClaimedDelivery
        var finished: FinishedAttempt
    }

    /// Waits for the delivery's send slot, POSTs it to `endpoint` (in its attempt span, whose
    /// `traceparent` goes with it), and says how it went.
    func attempt(_ delivery: ClaimedDelivery, to endpoint: Endpoint?) async -> Attempted {
        if delivery.action.expiredLeases >= LeasePolicy.poisonAfter {
            // A poison delivery: its attempts ended with no outcome (the process stopped) too often.
            logger(for: delivery).error(
                "delivery set aside: its leases ran out without an outcome \(delivery.action.expiredLeases) times")
            let reason = LeasePolicy.poisonReason(delivery.action.expiredLeases)
            return Attempted(
                delivery: delivery,
                finished: FinishedAttempt(responseID: delivery.action.id, endpointID: delivery.endpointID, outcome: .setAside(reason), at: Date()))
        }
        let wait = delivery.sendAt.timeIntervalSinceNow
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }  // the rate limit's slot
        return await AttemptSpan.run(delivery.action, endpointID: delivery.endpointID) { span in
            let attempted = await post(delivery, to: endpoint)
            switch attempted.finished.outcome {
            case .delivered: AttemptSpan.record("delivered", reason: nil, on: span)
            case .rejected(let reason), .setAside(let reason): AttemptSpan.record("dead", reason: reason, on: span)
            case .failed(let reason, let retryAt): AttemptSpan.record(retryAt == nil ? "dead" : "retry", reason: reason, on: span)
            }
            return attempted
        }
    }

    /// POSTs the delivery to `endpoint` and says how it went.
    private func post(_ delivery: ClaimedDelivery, to endpoint: Endpoint?) async -> Attempted {
        let action = delivery.action
        var outcome: HandlerOutcome
        var failure: String?
        if let endpoint {
            do {
                let forwarder = forwarder(endpoint.url, try signers(of: endpoint))
                let context = ActionContext(
                    responseID: action.id, attempt: action.attempts, receivedAt: action.receivedAt, logger: logger(for: delivery))
                outcome = try await forwarder.forward(
                    action.response, context: context, webhookID: delivery.webhookID,
                    headers: [("webhook-endpoint", delivery.endpointID)] + TraceParent.headers())
            } catch {
                outcome = .retry(after: nil)
                failure = "\(error)"
            }
        } else {
            outcome = .fail(reason: "endpoint \(delivery.endpointID) no longer exists")
        }
        let now = Date()
        let result: DeliveryOutcome
        switch outcome {
        case .done:
            result = .delivered
        case .fail(let reason):
            result = .rejected(reason)
        case .retry(let after):
            let reason = failure ?? "the upstream asked to retry"
            let next = policy.nextAttempt(
                afterAttempt: action.attempts, queuedAt: action.queuedAt, now: now, unit: jitter(), requested: after?.timeInterval)
            let window = DeliveryWorker.describe(now.timeIntervalSince(action.queuedAt))
            result = .failed(next == nil ? "gave up after \(action.attempts) attempts over \(window); last: \(reason)" : reason, retryAt: next)
        }
        return Attempted(
            delivery: delivery, finished: FinishedAttempt(responseID: action.id, endpointID: delivery.endpointID, outcome: result, at: now))
    }

    private func logger(for delivery: ClaimedDelivery) -> Logger {
        var logger = self.logger
        logger[metadataKey: "response.id"] = .string(delivery.action.id)
        logger[metadataKey: "endpoint"] = .string(delivery.endpointID)
        return logger
    }

    /// Records the outcomes of `attempted` in one transaction, then counts and reports each.
    func record(_ attempted: [Attempted]) async {
        let fates: [EndpointGate.Fate?]
        do {
            fates = try await store.finishDeliveries(attempted.map(\.finished), owner: owner, breaker: breaker)
        } catch {
            // The leases run out and another round (or instance) takes the deliveries over.
            logger.error("could not record delivery outcomes", metadata: ["error": "\(error)", "count": "\(attempted.count)"])
            return
        }
        for (attempt, fate) in zip(attempted, fates) {
            guard let fate else { continue }
            await report(fate, of: attempt)
        }
    }

    private func report(_ fate: EndpointGate.Fate, of attempt: Attempted) async {
        let delivery = attempt.delivery
        let label: String
        switch fate {
        case .delivered: label = "delivered"
        case .retry: label = "retry"
        case .held: label = "held"
        case .dead: label = "dead"
        }
        if let metricsFactory {
            Counter(
                label: "actionable_endpoint_attempts_total", dimensions: [("endpoint", delivery.endpointID), ("outcome", label)],
                factory: metricsFactory
            ).increment()
        }
        switch fate {
        case .held:
            logger(for: delivery).warning(
                "the endpoint's circuit breaker is open: its deliveries are held", metadata: ["error": "\(attempt.finished.outcome.error ?? "")"])
        case .dead(let reason):
            logger(for: delivery).warning("delivery is dead", metadata: ["reason": "\(reason)"])
            if let metricsFactory {
                Counter(label: "actionable_deliveries_dead_total", dimensions: [("endpoint", delivery.endpointID)], factory: metricsFactory)
                    .increment()
            }
            await onDead?(DeadDelivery(action: delivery.action, endpointID: delivery.endpointID, reason: reason, at: attempt.finished.at))
        default:
            break
        }
    }

    /// The signers of `endpoint`: its secret (or the default) first, then the one it replaced.
    func signers(of endpoint: Endpoint) throws -> [WebhookSigner] {
        var signers: [WebhookSigner] = []
        if let secret = endpoint.secret {
            signers.append(try WebhookSigner(secret: secret))
        } else if let defaultSigner {
            signers.append(defaultSigner)
        }
        if let previous = endpoint.previousSecret {
            if previous == Endpoint.serverSecret {
                if let defaultSigner { signers.append(defaultSigner) }
            } else {
                signers.append(try WebhookSigner(secret: previous))
            }
        }
        guard !signers.isEmpty else {
            throw UpstreamFailure(description: "endpoint \(endpoint.id) has no secret and the server has no --forward-secret")
        }
        return signers
    }
}

/// A delivery that went dead: what `delivery.dead` reports.
public struct DeadDelivery: Hashable, Sendable {
    /// The response (its attempts are this delivery's).
    public var action: StoredAction
    public var endpointID: String
    public var reason: String
    public var at: Date

    /// `action`'s delivery to `endpointID`, dead at `at` for `reason`.
    public init(action: StoredAction, endpointID: String, reason: String, at: Date) {
        self.action = action
        self.endpointID = endpointID
        self.reason = reason
        self.at = at
    }
}

/// The endpoints with a drain running, so that each has one at a time, and a way to wait for the
/// running ones on shutdown.
final class BusyEndpoints: Sendable {
    private struct State {
        var busy: Set<String> = []
        var stopping = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Marks `id` busy; `false` when it was already (or the worker is stopping).
    func take(_ id: String) -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            return state.busy.insert(id).inserted
        }
    }

    func release(_ id: String) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.busy.remove(id)
            guard state.busy.isEmpty else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var stopping: Bool { state.withLock { $0.stopping } }

    /// Stops new drains and returns once the running ones have finished.
    func stop() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                state.stopping = true
                guard !state.busy.isEmpty else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// Records finished attempts in batches: whatever finished while the previous batch was being
/// written goes in the next, one transaction each, so that a busy endpoint costs one write per
/// batch, not one per attempt; ``record(_:)`` returns once its attempt's outcome is written.
actor OutcomeRecorder {
    private let worker: EndpointWorker
    private var pending: [(EndpointWorker.Attempted, CheckedContinuation<Void, Never>)] = []
    private var writing = false

    init(worker: EndpointWorker) { self.worker = worker }

    func record(_ attempted: EndpointWorker.Attempted) async {
        await withCheckedContinuation { continuation in
            pending.append((attempted, continuation))
            if !writing {
                writing = true
                Task { await self.write() }
            }
        }
    }

    private func write() async {
        while !pending.isEmpty {
            let batch = pending
            pending = []
            await worker.record(batch.map(\.0))
            for (_, continuation) in batch { continuation.resume() }
        }
        writing = false
    }
}
