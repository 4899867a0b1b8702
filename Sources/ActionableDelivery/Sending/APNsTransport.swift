public import ActionableAPNs
public import ActionableStore
import ActionableWire
public import Foundation
public import Logging
public import Tracing

/// The outbox's transport to APNs: claims the due copies of the notifications `POST /v1/send`
/// recorded, sends each (`APNsClient`, one deadline per whole send), applies what Apple said
/// about the device, and records the outcome. The outbox's worker (``OutboxLoop``) runs it.
///
/// - 200 → `sent` (the device's last send is dated);
/// - 410 → `unregistered`, and the device unregistered unless it registered again after
///   Apple's timestamp;
/// - `BadDeviceToken` / `DeviceTokenNotForTopic` → `failed`, the device unregistered, and the
///   log names the likely environment mismatch;
/// - 429, 500, 503, or no answer → tried again on the deliveries' schedule (``RetryPolicy``),
///   honouring `Retry-After`, and `failed` once the window has passed;
/// - anything else → `failed` with Apple's reason.
///
/// A copy's `apns-id` is derived from its notification and device, so a copy sent again after a
/// crash (its lease ran out before the answer was recorded) is dropped by APNs as a duplicate.
/// The answer is `nil` when what Apple said could not be applied to the device registry: nothing
/// is recorded then, the lease runs out, and the copy is sent again under the same `apns-id`.
@dynamicMemberLookup
public struct APNsTransport: Transport {
    /// A field of its ``settings``, read or changed as its own: `transport.owner`,
    /// `transport.metricsFactory = …`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<OutboxSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }

    public let store: any SendQueue & DeviceRegistry
    public let client: APNsClient
    /// Its retry schedule, lease, window, jitter, logger and metrics.
    public var settings: OutboxSettings

    /// A transport sending what `store` holds for Apple devices through `client`.
    public init(store: any SendQueue & DeviceRegistry, client: APNsClient, settings: OutboxSettings) {
        self.store = store
        self.client = client
        self.settings = settings
    }

    /// A transport with settings of its own: up to `concurrency` sends in flight, each claim held
    /// for `lease` seconds by `owner`.
    public init(
        store: any SendQueue & DeviceRegistry, client: APNsClient, policy: RetryPolicy = RetryPolicy(),
        owner: String = "apns-\(UUID().uuidString.prefix(8))", lease: TimeInterval = 60, concurrency: Int = 256,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger
    ) {
        self.init(
            store: store, client: client,
            settings: OutboxSettings(policy: policy, owner: owner, lease: lease, concurrency: concurrency, jitter: jitter, logger: logger))
    }

    public var name: String { "apns" }
    public var spanName: String { "actionable.apns.send" }
    public var recordedMetric: String { "actionable_apns_sends_total" }

    public func claim(limit: Int, now: Date) async throws -> [ClaimedSend] {
        try await store.claimDueSends(now: now, limit: limit, lease: settings.lease, owner: settings.owner, platform: .ios)
    }

    public func describe(_ claim: ClaimedSend, on span: any Span) {
        span.attributes["actionable.notification_id"] = claim.notification.notificationID
        span.attributes["actionable.attempt"] = claim.attempts
        span.attributes["apns.environment"] = claim.environment.rawValue
    }

    /// Sends one copy and applies what APNs answered to the device registry.
    public func attempt(_ claim: ClaimedSend) async -> SendOutcome? {
        await send(claim)
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
        let answer = await client.send(notification, environment: claim.environment)
        let now = Date()
        var logger = settings.logger
        logger[metadataKey: "notification.id"] = .string(claim.notification.notificationID)
        logger[metadataKey: "device"] = .string(String(claim.token.prefix(12)))
        do {
            switch answer {
            case .sent:
                return .sent(status: 200)
            case .unregistered(let since):
                _ = try await store.markUnregistered(token: claim.token, since: min(since ?? started, started), at: now)
                return .unregistered(status: 410, reason: "Unregistered")
            case .badDevice(let reason):
                _ = try await store.markUnregistered(token: claim.token, since: started, at: now)
                let registered = claim.environment.rawValue
                logger.error(
                    "APNs refused the device token (\(reason)): it was registered as \(registered), likely the wrong environment (a build run from Xcode has sandbox tokens, TestFlight and the App Store production ones); the device is unregistered until the app registers it again"
                )
                return .failed(status: 400, reason: reason)
            case .expiredProviderToken:
                return settings.retry(claim, now: now, reason: "ExpiredProviderToken after a new provider token", after: nil)
            case .retry(let reason, let after):
                return settings.retry(claim, now: now, reason: reason, after: after)
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

    /// Records the outcomes in one transaction.
    public func record(_ finished: [Finished<ClaimedSend, SendOutcome?>]) async -> [AttemptReport?] {
        await recordSends(finished, in: store)
    }
}
