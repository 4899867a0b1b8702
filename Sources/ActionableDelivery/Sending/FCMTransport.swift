public import ActionableFCM
public import ActionableStore
import ActionableWire
import CoreMetrics
public import Foundation
import Logging
public import Tracing

/// The outbox's transport to FCM: claims the due copies of recorded notifications to Android
/// devices, sends each (`FCMClient`: the service account's shared access token, one deadline
/// per whole send), applies what FCM said about the device, and records the outcome. The
/// outbox's worker (``OutboxLoop``) runs it, as every other transport, beside ``APNsTransport``
/// over the same queue of copies (each transport claims its own platform's).
///
/// - 200 → `sent` (the device's last send is dated);
/// - 404 `UNREGISTERED`, 400 `INVALID_ARGUMENT` about the token, 403 `SENDER_ID_MISMATCH` →
///   `failed`, and the device unregistered unless it registered again since the send began;
/// - 429, 500, 503 (and a proxy's 502, 504, 408), or no answer → tried again on the deliveries'
///   schedule (``RetryPolicy``), honouring `Retry-After`, and `failed` once the window has passed;
/// - anything else → `failed` with FCM's reason.
///
/// A copy sent again after a crash (its lease ran out before its answer was recorded) reaches
/// the device twice at most as one notification: the generated Android code posts it under the
/// notification's id, so the second replaces the first.
public struct FCMTransport: Transport {
    public let store: any SendQueue & DeviceRegistry
    public let client: FCMClient
    /// Its retry schedule, lease, window, jitter, logger and metrics.
    public var settings: OutboxSettings

    /// A transport sending what `store` holds for Android devices through `client`.
    public init(store: any SendQueue & DeviceRegistry, client: FCMClient, settings: OutboxSettings) {
        self.store = store
        self.client = client
        self.settings = settings
    }

    public var name: String { "fcm" }
    public var spanName: String { "actionable.fcm.send" }
    public var recordedMetric: String { "actionable_fcm_sends_total" }

    public func describe(_ claim: ClaimedSend, on span: any Span) {
        span.attributes["actionable.notification_id"] = claim.notification.notificationID
        span.attributes["actionable.attempt"] = claim.attempts
    }
    public func claim(limit: Int, now: Date) async throws -> [ClaimedSend] {
        try await store.claimDueSends(now: now, limit: limit, lease: settings.lease, owner: settings.owner, platform: .android)
    }

    /// Sends one copy and applies what FCM answered to the device registry.
    public func attempt(_ claim: ClaimedSend) async -> SendOutcome? {
        await send(claim)
    }

    /// Sends one copy and applies what FCM answered to the device registry.
    private func send(_ claim: ClaimedSend) async -> SendOutcome? {
        var logger = settings.logger
        logger[metadataKey: "notification.id"] = .string(claim.notification.notificationID)
        logger[metadataKey: "device"] = .string(String(claim.token.prefix(12)))
        guard var message = Self.message(of: claim) else {
            logger.error("the notification was recorded without an FCM message, so it cannot go to an Android device")
            return .failed(status: 0, reason: "recorded without an FCM message")
        }
        // The time to live is what is left of the notification's expiration at this attempt (a
        // retry hours later must not arrive after it); past it, the copy is not sent.
        if let expiration = claim.notification.expiration {
            let left = expiration.timeIntervalSinceNow
            if claim.attempts > 1 && left <= 0 { return .failed(status: 0, reason: "expired before it could be sent") }
            message.timeToLive = Int(min(max(left, 0), 2_419_200).rounded(.down))
        }
        // FCM's word is about the token as it was when the send began: a registration made since
        // (the app got a new token and registered it again) is never undone by this answer.
        let started = Date()
        let answer = await client.send(message)
        let now = Date()
        do {
            switch answer {
            case .sent:
                return .sent(status: 200)
            case .unregistered(let status, let reason):
                _ = try await store.markUnregistered(token: claim.token, since: started, at: now)
                logger.notice("FCM refused the registration token (\(reason)): the device is unregistered until the app registers it again")
                return .failed(status: status, reason: reason)
            case .unauthenticated:
                return settings.retry(claim, now: now, reason: "FCM refused a new access token", after: nil)
            case .retry(let reason, let after):
                return settings.retry(claim, now: now, reason: reason, after: after)
            case .failed(let status, let reason):
                logger.warning("FCM refused the message", metadata: ["status": "\(status)", "reason": "\(reason)"])
                return .failed(status: status, reason: reason)
            }
        } catch {
            // The lease runs out and another round (or instance) sends it again.
            logger.error("could not unregister the device FCM refused", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// The message for `claim`'s device: the recorded `{"message": {"data", "android"}}` with
    /// the device's token; `nil` when none was recorded or it cannot be read.
    static func message(of claim: ClaimedSend) -> FCMMessage? {
        guard let text = claim.notification.fcmMessage,
            let recorded = try? JSONDecoder().decode(RecordedFCMMessage.self, from: Data(text.utf8))
        else { return nil }
        let android = recorded.message.android
        return FCMMessage(
            token: claim.token, data: recorded.message.data, priority: android?.priority ?? "high",
            timeToLive: android?.ttl.flatMap { Int($0.hasSuffix("s") ? String($0.dropLast()) : $0) },
            collapseKey: android?.collapseKey)
    }

    /// Records the outcomes in one transaction.
    public func record(_ finished: [Finished<ClaimedSend, SendOutcome?>]) async -> [AttemptReport?] {
        await recordSends(finished, in: store)
    }
}

/// The FCM message as `POST /v1/send` recorded it.
private struct RecordedFCMMessage: Decodable {
    struct Message: Decodable {
        var data: [String: String]
        var android: Android?
    }
    struct Android: Decodable {
        var priority: String?
        var ttl: String?
        var collapseKey: String?

        enum CodingKeys: String, CodingKey {
            case priority, ttl
            case collapseKey = "collapse_key"
        }
    }
    var message: Message
}
