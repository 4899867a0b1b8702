public import ActionableStore
public import Foundation
public import Logging
public import Tracing

/// What the transports of a notification's copies (``APNsTransport``, ``FCMTransport``) share:
/// a copy is logged by its notification and device, its attempt continues the trace of the
/// request that recorded the notification, a copy set aside is dead (its state in the API:
/// `failed`), and its answer is delivered when sent, retried when it is to be tried again (or had
/// no answer that could be applied), dead otherwise (`failed` or `unregistered`).
extension Transport where Work == ClaimedSend, Answer == SendOutcome? {
    public var workName: String { "copy" }
    public var spanKind: SpanKind { .client }

    public func metadata(of work: ClaimedSend) -> Logger.Metadata {
        ["notification.id": "\(work.notification.notificationID)", "device": "\(work.token.prefix(12))"]
    }

    public func expiredLeases(of work: ClaimedSend) -> Int { work.expiredLeases }

    public func traceParent(of work: ClaimedSend) -> String? { work.notification.traceParent }

    public func setAside(_ work: ClaimedSend, reason: String) -> SendOutcome? { .failed(status: 0, reason: reason) }

    public func report(of answer: SendOutcome?) -> AttemptReport { Self.report(of: answer, by: name) }

    /// `answer` as the loop reports it; `transport` names the peer when its answer could not be
    /// applied.
    static func report(of answer: SendOutcome?, by transport: String) -> AttemptReport {
        switch answer {
        case .sent(let status): AttemptReport(.delivered, label: "sent", status: status)
        case .retry(_, let status, let reason): AttemptReport(.retry, label: "retry", status: status, reason: reason)
        case .failed(let status, let reason): AttemptReport(.dead, label: "failed", status: status == 0 ? nil : status, reason: reason)
        case .unregistered(let status, let reason): AttemptReport(.dead, label: "unregistered", status: status, reason: reason)
        case nil: AttemptReport(.retry, label: "retry", reason: "what \(transport) said could not be applied to the device")
        }
    }

    /// Records the outcomes in one transaction of `store`; a copy whose answer could not be
    /// applied is left to its lease (and sent again under the same id).
    func recordSends(_ finished: [Finished<ClaimedSend, SendOutcome?>], in store: any SendQueue) async -> [AttemptReport?] {
        let now = Date()
        let sends = finished.compactMap { item in
            item.answer.map { FinishedSend(notificationID: item.work.notification.notificationID, token: item.work.token, outcome: $0, at: now) }
        }
        do {
            try await store.finishSends(sends, owner: settings.owner)
        } catch {
            // The leases run out and another round (or instance) sends them again, with the same id.
            settings.logger.error("could not record copy outcomes", metadata: ["error": "\(error)", "count": "\(sends.count)"])
            return finished.map { _ in nil }
        }
        return finished.map { item in item.answer.map { Self.report(of: $0, by: name) } }
    }

    /// Sends what is due at `now` in one round; returns how many copies it sent (or tried). A
    /// test's way to run one round at a time it chooses.
    @discardableResult
    package func sendDue(now: Date = Date()) async throws -> Int {
        try await OutboxLoop(self).round(now: now)
    }
}

extension OutboxSettings {
    /// A copy's next attempt on the retry schedule (honouring the peer's `after`), or `failed`
    /// (dead) once the retry window, counted from the notification, has passed.
    func retry(_ claim: ClaimedSend, now: Date, reason: String, after: TimeInterval?) -> SendOutcome {
        guard
            let next = policy.nextAttempt(
                afterAttempt: claim.attempts, queuedAt: claim.notification.createdAt, now: now, unit: jitter(), requested: after)
        else {
            return .failed(status: 0, reason: "gave up after \(claim.attempts) attempts; last: \(reason)")
        }
        return .retry(at: next, status: nil, reason: reason)
    }
}
