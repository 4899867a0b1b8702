import ActionableCore
import ActionableRouter
import ActionableStore
import CoreMetrics
import Foundation
import Logging

/// The outbox's transport to the in-process handlers (``HandlerWorker``): claims due responses,
/// runs the handler routed for each in its attempt span, and records the outcome — delivered,
/// rescheduled on the retry policy, or dead.
///
/// A claimed response no handler takes is not attempted: with endpoints as data it is handed to
/// the endpoints that take it (a response accepted before they existed) or held, visibly, until
/// one does — both written as part of the claim.
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

    let worker: HandlerWorker

    public var name: String { "handler" }
    public var workName: String { "response" }

    public func metadata(of work: Work) -> Logger.Metadata { ["response.id": "\(work.action.id)"] }

    public func claim(limit: Int, now: Date) async throws -> [Work] {
        try await claimCounting(limit: limit, now: now).work
    }

    /// ``claim(limit:now:)``, and how many responses the claim took in all (held and handed to
    /// endpoints included).
    func claimCounting(limit: Int, now: Date) async throws -> (work: [Work], count: Int) {
        if let metricsFactory = worker.metricsFactory, worker.queueDepth.isDue() {
            Gauge(label: "actionable_delivery_queue_depth", factory: metricsFactory).record(try await worker.store.pendingCount())
        }
        // Without endpoints as data, nothing could take a response yet; with them, a response
        // nothing takes is claimed to be set aside as held, visibly.
        guard worker.router != nil || worker.endpoints != nil else { return ([], 0) }
        let claimed = try await worker.store.claimDue(now: now, limit: limit, lease: worker.lease, owner: worker.owner)
        // The endpoints only when something was claimed: an idle round reads nothing more.
        let known = claimed.isEmpty ? [] : try await worker.endpoints?.endpoints() ?? []
        var work: [Work] = []
        var fanOuts: [FanOut] = []
        var held: [HeldResponse] = []
        for action in claimed {
            let category = action.response.category.rawValue
            let name = action.response.action.rawValue
            if worker.router?.handles(category: category, action: name) != true {
                let taking = known.filter { $0.takes(category: category, action: name) }.map(\.id)
                if !taking.isEmpty {
                    fanOuts.append(FanOut(responseID: action.id, endpointIDs: taking))
                    continue
                }
                if worker.endpoints != nil {
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
        if let endpoints = worker.endpoints, !fanOuts.isEmpty {
            try await endpoints.fanOut(fanOuts, owner: worker.owner, at: now)
        }
        if let endpoints = worker.endpoints, !held.isEmpty {
            try await endpoints.hold(held, owner: worker.owner)
            worker.logger.warning(
                "responses held: no endpoint takes them yet", metadata: ["count": "\(held.count)", "first": "\(held[0].category).\(held[0].action)"])
        }
        return (work, claimed.count)
    }

    public func expiredLeases(of work: Work) -> Int { work.action.expiredLeases }

    public func setAside(_ work: Work, reason: String) -> Answer {
        Answer(outcome: .fail(reason: reason), end: work.claimedAt, error: nil)
    }

    public func outcome(of answer: Answer) -> AttemptOutcome {
        switch answer.outcome {
        case .done: .delivered
        case .retry: .retry
        case .fail: .failed
        }
    }

    /// Runs the handler of the response in its attempt span (`AttemptSpan`).
    public func attempt(_ work: Work) async -> Answer {
        await AttemptSpan.run(work.action, endpointID: nil) { span in
            let (outcome, end, error) = await worker.handle(work.action, now: work.claimedAt)
            switch outcome {
            case .done: AttemptSpan.record("delivered", reason: nil, on: span)
            case .fail(let reason): AttemptSpan.record("dead", reason: reason, on: span)
            case .retry: AttemptSpan.record("retry", reason: error ?? "the handler asked to retry", on: span)
            }
            return Answer(outcome: outcome, end: end, error: error)
        }
    }

    /// Records the outcomes in one call of the response queue (one transaction where the driver
    /// can), then counts and reports each.
    public func record(_ finished: [Finished<Work, Answer>]) async {
        let fates = finished.map { fate(of: $0.answer, for: $0.work.action) }
        do {
            try await worker.store.finishResponses(
                zip(finished, fates).map { FinishedResponse(id: $0.work.action.id, fate: $1) }, owner: worker.owner)
        } catch {
            // The leases run out and another round (or instance) takes the responses over.
            worker.logger.error("could not record delivery outcomes", metadata: ["error": "\(error)", "count": "\(finished.count)"])
            return
        }
        for (item, fate) in zip(finished, fates) {
            let label: String
            switch fate {
            case .delivered: label = "delivered"
            case .retry: label = "retry"
            case .dead(let reason):
                label = "dead"
                worker.logger.warning("response is dead", metadata: ["response.id": "\(item.work.action.id)", "reason": "\(reason)"])
            }
            if let metricsFactory = worker.metricsFactory {
                Counter(label: "actionable_delivery_attempts_total", dimensions: [("outcome", label)], factory: metricsFactory).increment()
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
                let next = worker.policy.nextAttempt(
                    afterAttempt: action.attempts, queuedAt: action.queuedAt, now: now, unit: worker.jitter(), requested: after?.timeInterval)
            else {
                let window = HandlerWorker.describe(now.timeIntervalSince(action.queuedAt))
                return .dead(reason: "gave up after \(action.attempts) attempts over \(window); last: \(reason)")
            }
            return .retry(at: next, error: reason)
        }
    }
}
