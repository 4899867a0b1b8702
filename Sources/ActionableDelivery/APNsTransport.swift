import ActionableAPNs
import ActionableStore
import Foundation
import Logging
import Tracing

/// The outbox's transport to APNs: claims the due copies of recorded notifications, sends each
/// (`APNsClient`, one deadline per whole send), applies what Apple said about the device
/// (unregistered, a bad token), and records the outcome. The answer is `nil` when what Apple
/// said could not be applied to the device registry: nothing is recorded then, the lease runs
/// out, and the copy is sent again under the same `apns-id` (which APNs drops as a duplicate).
public struct APNsTransport: Transport {
    let worker: SendWorker

    public var name: String { "apns" }
    public func claim(limit: Int, now: Date) async throws -> [ClaimedSend] {
        try await worker.store.claimDueSends(now: now, limit: limit, lease: worker.lease, owner: worker.owner, platform: .ios)
    }

    /// Sends one copy in an `actionable.apns.send` span that continues the trace of the request
    /// that recorded the notification.
    public func attempt(_ claim: ClaimedSend) async -> SendOutcome? {
        await withSpan("actionable.apns.send", context: TraceParent.context(claim.notification.traceParent), ofKind: .client) { span in
            span.attributes["actionable.notification_id"] = claim.notification.notificationID
            span.attributes["actionable.attempt"] = claim.attempts
            span.attributes["apns.environment"] = claim.environment.rawValue
            guard let outcome = await send(claim) else {
                span.setStatus(SpanStatus(code: .error, message: "what APNs said could not be applied to the device"))
                return nil
            }
            let (name, status, reason): (String, Int?, String?)
            switch outcome {
            case .sent(let code): (name, status, reason) = ("sent", code, nil)
            case .failed(let code, let why): (name, status, reason) = ("failed", code, why)
            case .unregistered(let code, let why): (name, status, reason) = ("unregistered", code, why)
            case .retry(_, let code, let why): (name, status, reason) = ("retry", code, why)
            }
            span.attributes["actionable.outcome"] = name
            if let status { span.attributes["http.response.status_code"] = status }
            if let reason { span.setStatus(SpanStatus(code: .error, message: reason)) }
            return outcome
        }
    }

    /// Sends one copy and applies what APNs answered to the device registry.
    private func send(_ claim: ClaimedSend) async -> SendOutcome? {
        let notification = APNsNotification(
            deviceToken: claim.token, payload: Array(claim.notification.apnsPayload.utf8),
            pushType: claim.notification.pushType == "background" ? .background : .alert,
            id: APNsNotification.id(notificationID: claim.notification.notificationID, deviceToken: claim.token),
            expiration: claim.notification.expiration, collapseID: claim.notification.collapseID, priority: claim.notification.priority)
        // Apple's word is about the token as it was when the send began: a registration made
        // since then (the app registered again meanwhile) is never undone by this answer.
        let started = Date()
        let answer = await worker.client.send(notification, environment: claim.environment)
        let now = Date()
        var logger = worker.logger
        logger[metadataKey: "notification.id"] = .string(claim.notification.notificationID)
        logger[metadataKey: "device"] = .string(String(claim.token.prefix(12)))
        do {
            switch answer {
            case .sent:
                return .sent(status: 200)
            case .unregistered(let since):
                _ = try await worker.store.markUnregistered(token: claim.token, since: min(since ?? started, started), at: now)
                return .unregistered(status: 410, reason: "Unregistered")
            case .badDevice(let reason):
                _ = try await worker.store.markUnregistered(token: claim.token, since: started, at: now)
                let registered = claim.environment.rawValue
                logger.error(
                    "APNs refused the device token (\(reason)): it was registered as \(registered), likely the wrong environment (a build run from Xcode has sandbox tokens, TestFlight and the App Store production ones); the device is unregistered until the app registers it again"
                )
                return .failed(status: 400, reason: reason)
            case .expiredProviderToken:
                return worker.settings.retry(claim, now: now, reason: "ExpiredProviderToken after a new provider token", after: nil)
            case .retry(let reason, let after):
                return worker.settings.retry(claim, now: now, reason: reason, after: after)
            case .failed(let status, let reason):
                logger.warning("APNs refused the notification", metadata: ["status": "\(status)", "reason": "\(reason)"])
                return .failed(status: status, reason: reason)
            }
        } catch {
            // The lease runs out and another round (or instance) sends it again, with the same apns-id.
            logger.error("could not unregister the device APNs refused", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Records the outcomes in one transaction, and counts each.
    public func record(_ finished: [Finished<ClaimedSend, SendOutcome?>]) async {
        let now = Date()
        let sends = finishedSends(finished, now: now)
        do {
            try await worker.store.finishSends(sends, owner: worker.owner)
            for send in sends { worker.count(send.outcome) }
        } catch {
            // The leases run out and another round (or instance) sends them again, with the same apns-id.
            worker.logger.error("could not record send outcomes", metadata: ["error": "\(error)", "count": "\(sends.count)"])
        }
    }
}
