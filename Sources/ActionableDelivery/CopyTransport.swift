import ActionableStore
import Foundation
import Logging

/// What the transports of a notification's copies (``APNsTransport``, ``FCMTransport``) share:
/// a copy is logged by its notification and device, set aside as failed, and its answer is
/// delivered when sent, retried when it is to be tried again (or had no answer that could be
/// applied), failed otherwise.
extension Transport where Work == ClaimedSend, Answer == SendOutcome? {
    public var workName: String { "send" }

    public func metadata(of work: ClaimedSend) -> Logger.Metadata {
        ["notification.id": "\(work.notification.notificationID)", "device": "\(work.token.prefix(12))"]
    }

    public func expiredLeases(of work: ClaimedSend) -> Int { work.expiredLeases }

    public func setAside(_ work: ClaimedSend, reason: String) -> SendOutcome? { .failed(status: 0, reason: reason) }

    public func outcome(of answer: SendOutcome?) -> AttemptOutcome {
        switch answer {
        case .sent: .delivered
        case .retry, nil: .retry
        case .failed, .unregistered: .failed
        }
    }

    /// The copies `finished` as the queue records them, dated `now` (a copy whose answer could
    /// not be applied is left to its lease).
    func finishedSends(_ finished: [Finished<ClaimedSend, SendOutcome?>], now: Date) -> [FinishedSend] {
        finished.compactMap { item in
            item.answer.map { FinishedSend(notificationID: item.work.notification.notificationID, token: item.work.token, outcome: $0, at: now) }
        }
    }
}

extension OutboxSettings {
    /// A copy's next attempt on the retry schedule (honouring the peer's `after`), or `failed`
    /// once the retry window, counted from the notification, has passed.
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
