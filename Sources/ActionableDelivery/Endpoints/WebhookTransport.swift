import ActionableCore
public import ActionableStore
import CoreMetrics
public import Foundation
public import Logging
import Synchronization
public import Tracing

/// The outbox's transport to one webhook endpoint: claims the endpoint's due deliveries (what
/// its pause, breaker and rate limit allow), POSTs each signed (``Forwarder``), and records the
/// outcomes of a batch in one transaction (`EndpointStore.finishDeliveries(_:owner:breaker:)`),
/// which also moves the endpoint's breaker.
public struct WebhookTransport: Transport {
    /// A claimed delivery and its endpoint as it was read with the claim (`nil`: removed since).
    public struct Work: Sendable {
        public var delivery: ClaimedDelivery
        public var endpoint: Endpoint?
        /// The endpoint's forwarder and signers, made once per claim (or why they could not be).
        var forwarder: Result<Forwarder, any Error>?
    }

    let worker: EndpointWorker
    /// The endpoint this transport delivers to.
    public let endpointID: String

    public var name: String { "webhook" }
    public var workName: String { "delivery" }
    public var settings: OutboxSettings { worker.settings }
    public var spanName: String { AttemptSpan.name }
    public var spanKind: SpanKind { .client }
    public var recordedMetric: String { "actionable_endpoint_attempts_total" }

    public func dimensions(of work: Work) -> [(String, String)] { [("endpoint", work.delivery.endpointID)] }

    public func traceParent(of work: Work) -> String? { work.delivery.action.traceParent }

    public func describe(_ work: Work, on span: any Span) {
        AttemptSpan.describe(work.delivery.action, endpointID: work.delivery.endpointID, on: span)
    }

    /// The rate limit's slot.
    public func notBefore(_ work: Work) -> Date? { work.delivery.sendAt }

    public func metadata(of work: Work) -> Logger.Metadata { Self.metadata(work.delivery) }

    /// What the log says of an attempt at `delivery`: its response and endpoint.
    static func metadata(_ delivery: ClaimedDelivery) -> Logger.Metadata {
        ["response.id": .string(delivery.action.id), "endpoint": .string(delivery.endpointID)]
    }

    public func claim(limit: Int, now: Date) async throws -> [Work] {
        // The endpoint as the claim reads it, in the claim's own transaction: a change through the
        // API (a new URL or secret) takes effect at once, with no read of its own. Signers first:
        // an instance that cannot sign for the endpoint (no secret of its own, no --forward-secret
        // here) claims nothing, so that a local misconfiguration never fails an attempt and never
        // opens the breaker every instance shares.
        let signed = Mutex<[WebhookSigner]?>(nil)
        let claim = try await worker.store.claimDeliveries(
            endpointID: endpointID, now: now, limit: limit, lease: worker.lease, owner: worker.owner, breaker: worker.breaker
        ) { endpoint in
            guard let signers = try? worker.signers(of: endpoint) else { return false }
            signed.withLock { $0 = signers }
            return true
        }
        guard let endpoint = claim.endpoint, !claim.deliveries.isEmpty, let signers = signed.withLock({ $0 }) else { return [] }
        let forwarder = Result<Forwarder, any Error>.success(worker.forwarder(endpoint.url, signers))
        return claim.deliveries.map { Work(delivery: $0, endpoint: endpoint, forwarder: forwarder) }
    }

    public func expiredLeases(of work: Work) -> Int { work.delivery.action.expiredLeases }

    public func setAside(_ work: Work, reason: String) -> FinishedAttempt {
        FinishedAttempt(responseID: work.delivery.action.id, endpointID: endpointID, outcome: .setAside(reason), at: Date())
    }

    public func report(of answer: FinishedAttempt) -> AttemptReport {
        switch answer.outcome {
        case .delivered: AttemptReport(.delivered, label: "delivered")
        case .rejected(let reason), .setAside(let reason): AttemptReport(.dead, label: "dead", reason: reason)
        case .failed(let reason, let retryAt):
            retryAt == nil ? AttemptReport(.dead, label: "dead", reason: reason) : AttemptReport(.retry, label: "retry", reason: reason)
        }
    }

    /// POSTs the delivery, signed, through its endpoint's forwarder (its `traceparent` the
    /// attempt span's), and says how it went.
    public func attempt(_ work: Work) async -> FinishedAttempt {
        await post(work.delivery, through: work.forwarder)
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> TimeInterval {
        TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18
    }

    /// A duration in whole nanoseconds.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// POSTs the delivery through its endpoint's forwarder (`nil`: the endpoint is gone) and says
    /// how it went.
    private func post(_ delivery: ClaimedDelivery, through forwarding: Result<Forwarder, any Error>?) async -> FinishedAttempt {
        let action = delivery.action
        var answer: UpstreamAnswer
        var failure: String?
        if let forwarding {
            let started = ContinuousClock.now
            defer {
                // How long the endpoint took to answer (or fail), by endpoint: its latency.
                worker.activity?.latency(endpoint: delivery.endpointID, seconds: Self.seconds(ContinuousClock.now - started))
                if let metricsFactory = worker.metricsFactory {
                    CoreMetrics.Timer(
                        label: "actionable_endpoint_attempt_duration_seconds", dimensions: [("endpoint", delivery.endpointID)],
                        factory: metricsFactory
                    ).recordNanoseconds(Self.nanoseconds(ContinuousClock.now - started))
                }
            }
            do {
                let forwarder = try forwarding.get()
                answer = try await forwarder.forward(
                    action.response, id: action.id, receivedAt: action.receivedAt, webhookID: delivery.webhookID,
                    headers: [("webhook-endpoint", delivery.endpointID)] + TraceParent.headers(), logger: worker.logger,
                    metadata: Self.metadata(delivery))
            } catch {
                answer = .retry(after: nil)
                failure = "\(error)"
            }
        } else {
            answer = .refused(reason: "endpoint \(delivery.endpointID) no longer exists")
        }
        let now = Date()
        let result: DeliveryOutcome
        switch answer {
        case .delivered:
            result = .delivered
        case .refused(let reason):
            result = .rejected(reason)
        case .retry(let after):
            let reason = failure ?? "the upstream asked to retry"
            let next = worker.policy.nextAttempt(
                afterAttempt: action.attempts, queuedAt: action.queuedAt, now: now, unit: worker.jitter(), requested: after?.timeInterval)
            let window = RetryPolicy.describe(now.timeIntervalSince(action.queuedAt))
            result = .failed(next == nil ? "gave up after \(action.attempts) attempts over \(window); last: \(reason)" : reason, retryAt: next)
        }
        return FinishedAttempt(responseID: action.id, endpointID: delivery.endpointID, outcome: result, at: now)
    }

    private func logger(for delivery: ClaimedDelivery) -> Logger {
        var logger = worker.logger
        for (key, value) in Self.metadata(delivery) { logger[metadataKey: key] = value }
        return logger
    }

    /// How many times a batch of outcomes is written before its leases are left to run out.
    static let recordTries = 5

    /// Records the outcomes in one transaction, then reports each.
    public func record(_ finished: [Finished<Work, FinishedAttempt>]) async -> [AttemptReport?] {
        var fates: [EndpointGate.Fate?] = []
        // Written again while the storage recovers (a connection cut, a database restarting): the
        // outcomes are known here, and a delivery whose outcome is lost waits for its lease to run
        // out before it is attempted again. Given up after five tries; then the leases run out.
        for attempt in 1...Self.recordTries {
            do {
                fates = try await worker.store.finishDeliveries(finished.map(\.answer), owner: worker.owner, breaker: worker.breaker)
                break
            } catch {
                worker.logger.error(
                    "could not record delivery outcomes", metadata: ["error": "\(error)", "count": "\(finished.count)", "try": "\(attempt)"])
                guard attempt < Self.recordTries, (try? await Task.sleep(for: .seconds(1))) != nil else { return finished.map { _ in nil } }
            }
        }
        var reports: [AttemptReport?] = []
        for (attempt, fate) in zip(finished, fates) {
            guard let fate else {
                reports.append(nil)
                continue
            }
            if case .retry(let at) = fate { worker.due.note(at) }
            reports.append(await report(fate, of: attempt.work.delivery, attempt.answer))
        }
        return reports
    }

    private func report(_ fate: EndpointGate.Fate, of delivery: ClaimedDelivery, _ finished: FinishedAttempt) async -> AttemptReport {
        switch fate {
        case .delivered:
            return AttemptReport(.delivered, label: "delivered")
        case .retry:
            return AttemptReport(.retry, label: "retry", reason: finished.outcome.error)
        case .held:
            logger(for: delivery).warning(
                "the endpoint's circuit breaker is open: its deliveries are held", metadata: ["error": "\(finished.outcome.error ?? "")"])
            return AttemptReport(.held, label: "held", reason: finished.outcome.error)
        case .dead(let reason):
            logger(for: delivery).warning("delivery is dead", metadata: ["reason": "\(reason)"])
            if let metricsFactory = worker.metricsFactory {
                Counter(label: "actionable_deliveries_dead_total", dimensions: [("endpoint", delivery.endpointID)], factory: metricsFactory)
                    .increment()
            }
            await worker.onDead?(DeadDelivery(action: delivery.action, endpointID: delivery.endpointID, reason: reason, at: finished.at))
            return AttemptReport(.dead, label: "dead", reason: reason)
        }
    }
}
