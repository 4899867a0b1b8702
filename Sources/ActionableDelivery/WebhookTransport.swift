import ActionableCore
import ActionableStore
import CoreMetrics
import Foundation
import Logging
import Synchronization

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

    public func outcome(of answer: FinishedAttempt) -> AttemptOutcome {
        switch answer.outcome {
        case .delivered: .delivered
        case .rejected, .setAside: .failed
        case .failed(_, let retryAt): retryAt == nil ? .failed : .retry
        }
    }

    /// Waits for the delivery's send slot, POSTs it (in its attempt span, whose `traceparent`
    /// goes with it), and says how it went.
    public func attempt(_ work: Work) async -> FinishedAttempt {
        let delivery = work.delivery
        let wait = delivery.sendAt.timeIntervalSinceNow
        if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }  // the rate limit's slot
        return await AttemptSpan.run(delivery.action, endpointID: delivery.endpointID) { span in
            let finished = await post(delivery, through: work.forwarder)
            switch finished.outcome {
            case .delivered: AttemptSpan.record("delivered", reason: nil, on: span)
            case .rejected(let reason), .setAside(let reason): AttemptSpan.record("dead", reason: reason, on: span)
            case .failed(let reason, let retryAt): AttemptSpan.record(retryAt == nil ? "dead" : "retry", reason: reason, on: span)
            }
            return finished
        }
    }

    /// POSTs the delivery through its endpoint's forwarder (`nil`: the endpoint is gone) and says
    /// how it went.
    private func post(_ delivery: ClaimedDelivery, through forwarding: Result<Forwarder, any Error>?) async -> FinishedAttempt {
        let action = delivery.action
        var answer: UpstreamAnswer
        var failure: String?
        if let forwarding {
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
            let window = HandlerWorker.describe(now.timeIntervalSince(action.queuedAt))
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

    /// Records the outcomes in one transaction, then counts and reports each.
    public func record(_ finished: [Finished<Work, FinishedAttempt>]) async {
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
                guard attempt < Self.recordTries, (try? await Task.sleep(for: .seconds(1))) != nil else { return }
            }
        }
        for (attempt, fate) in zip(finished, fates) {
            guard let fate else { continue }
            if case .retry(let at) = fate { worker.due.note(at) }
            await report(fate, of: attempt.work.delivery, attempt.answer)
        }
    }

    private func report(_ fate: EndpointGate.Fate, of delivery: ClaimedDelivery, _ finished: FinishedAttempt) async {
        let label: String
        switch fate {
        case .delivered: label = "delivered"
        case .retry: label = "retry"
        case .held: label = "held"
        case .dead: label = "dead"
        }
        worker.settings.counters?.counter("actionable_endpoint_attempts_total", [("endpoint", delivery.endpointID), ("outcome", label)])
            .increment()
        switch fate {
        case .held:
            logger(for: delivery).warning(
                "the endpoint's circuit breaker is open: its deliveries are held", metadata: ["error": "\(finished.outcome.error ?? "")"])
        case .dead(let reason):
            logger(for: delivery).warning("delivery is dead", metadata: ["reason": "\(reason)"])
            if let metricsFactory = worker.metricsFactory {
                Counter(label: "actionable_deliveries_dead_total", dimensions: [("endpoint", delivery.endpointID)], factory: metricsFactory)
                    .increment()
            }
            await worker.onDead?(DeadDelivery(action: delivery.action, endpointID: delivery.endpointID, reason: reason, at: finished.at))
        default:
            break
        }
    }
}
