import ActionableAPNs
import ActionableDelivery
import ActionableHTTP
import ActionableStore
import CoreMetrics
import Foundation
import Logging
import Synchronization
import Tracing

/// Sends the notifications `POST /v1/send` recorded: claims the due copies under a lease, sends
/// each to APNs (``APNsClient``), and records the answer.
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
public struct SendWorker: Sendable {
    public let store: any SendQueue & DeviceRegistry
    public let client: APNsClient
    public let policy: RetryPolicy
    /// This worker's name in leases: unique per process.
    public let owner: String
    /// How long a claim is held before another worker may take it over.
    public let lease: TimeInterval
    /// The most copies claimed (and sent concurrently) at once.
    public let batchSize: Int
    /// The random draw in `0..<1` for the jitter (injectable for tests).
    public let jitter: @Sendable () -> Double
    public let logger: Logger
    /// Where send metrics go (attempts by outcome); none when `nil`.
    public var metricsFactory: (any MetricsFactory)?

    /// A worker sending what `store` holds through `client`.
    public init(
        store: any SendQueue & DeviceRegistry, client: APNsClient, policy: RetryPolicy = RetryPolicy(),
        owner: String = "sender-\(UUID().uuidString.prefix(8))", lease: TimeInterval = 60, batchSize: Int = 256,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger
    ) {
        self.store = store
        self.client = client
        self.policy = policy
        self.owner = owner
        self.lease = lease
        self.batchSize = batchSize
        self.jitter = jitter
        self.logger = logger
    }

    /// Sends what is due at `now`; returns how many copies it sent (or tried).
    @discardableResult
    public func sendDue(now: Date = Date()) async throws -> Int {
        let claimed = try await store.claimDueSends(now: now, limit: batchSize, lease: lease, owner: owner)
        await withTaskGroup(of: Void.self) { group in
            for send in claimed {
                group.addTask { await self.send(send) }
            }
        }
        return claimed.count
    }

    /// Runs until cancelled: keeps up to ``batchSize`` sends in flight, claiming more as each
    /// answers — one slow or stalled stream holds its own slot (until its deadline), never the
    /// others — and waits for `signal` (a notification recorded) or `idle` when nothing is due
    /// (``WorkerRounds``). Cancelling stops the claims, not the sends in flight: they get their
    /// answers (each within the APNs client's deadline) and are recorded before this returns.
    public func run(signal: SendSignal? = nil, idle: Duration = .milliseconds(500)) async {
        let window = AttemptWindow(limit: max(1, batchSize))
        let rounds = WorkerRounds(idle: idle, what: "send", logger: logger)
        let round: @Sendable () async throws -> Int = {
            let room = window.room
            guard room > 0 else {
                await window.waitForRoom()
                return 1  // a slot is free: claim again at once
            }
            let claimed = try await store.claimDueSends(now: Date(), limit: room, lease: lease, owner: owner)
            for claim in claimed {
                window.take()
                // Not a child: the loop's cancellation must not cut a send short.
                Task {
                    await self.send(claim)
                    window.release()
                }
            }
            return claimed.count
        }
        if let signal {
            await rounds.run(wake: { limit in await signal.wait(upTo: limit) }, round)
        } else {
            await rounds.run(round)
        }
        await window.waitUntilEmpty()
    }

    /// Sends one claimed copy and records what APNs answered, in an `actionable.apns.send` span
    /// that continues the trace of the request that recorded the notification.
    func send(_ claim: ClaimedSend) async {
        await withSpan("actionable.apns.send", context: TraceParent.context(claim.notification.traceParent), ofKind: .client) { span in
            span.attributes["actionable.notification_id"] = claim.notification.notificationID
            span.attributes["actionable.attempt"] = claim.attempts
            span.attributes["apns.environment"] = claim.environment.rawValue
            guard let outcome = await deliver(claim) else {
                return span.setStatus(SpanStatus(code: .error, message: "the outcome could not be recorded"))
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
        }
    }

    /// Sends one claimed copy and records what APNs answered; the outcome, or `nil` when it
    /// could not be recorded.
    private func deliver(_ claim: ClaimedSend) async -> SendOutcome? {
        if claim.expiredLeases >= LeasePolicy.poisonAfter {
            // A poison copy: its sends ended with no outcome (the process stopped) too often.
            let outcome = SendOutcome.failed(status: 0, reason: LeasePolicy.poisonReason(claim.expiredLeases))
            logger.error(
                "send set aside: its leases ran out without an outcome \(claim.expiredLeases) times",
                metadata: ["notification.id": "\(claim.notification.notificationID)"])
            count(outcome)
            do {
                try await store.finishSend(
                    notificationID: claim.notification.notificationID, token: claim.token, owner: owner, outcome: outcome, at: Date())
                return outcome
            } catch {
                logger.error("could not record a send's outcome", metadata: ["error": "\(error)"])
                return nil
            }
        }
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
        var logger = self.logger
        logger[metadataKey: "notification.id"] = .string(claim.notification.notificationID)
        logger[metadataKey: "device"] = .string(String(claim.token.prefix(12)))
        let outcome: SendOutcome
        do {
            switch answer {
            case .sent:
                outcome = .sent(status: 200)
            case .unregistered(let since):
                _ = try await store.markUnregistered(token: claim.token, since: min(since ?? started, started), at: now)
                outcome = .unregistered(status: 410, reason: "Unregistered")
            case .badDevice(let reason):
                _ = try await store.markUnregistered(token: claim.token, since: started, at: now)
                let registered = claim.environment.rawValue
                logger.error(
                    "APNs refused the device token (\(reason)): it was registered as \(registered), likely the wrong environment (a build run from Xcode has sandbox tokens, TestFlight and the App Store production ones); the device is unregistered until the app registers it again"
                )
                outcome = .failed(status: 400, reason: reason)
            case .expiredProviderToken:
                outcome = retry(claim, now: now, reason: "ExpiredProviderToken after a new provider token", after: nil)
            case .retry(let reason, let after):
                outcome = retry(claim, now: now, reason: reason, after: after)
            case .failed(let status, let reason):
                logger.warning("APNs refused the notification", metadata: ["status": "\(status)", "reason": "\(reason)"])
                outcome = .failed(status: status, reason: reason)
            }
            count(outcome)
            try await store.finishSend(
                notificationID: claim.notification.notificationID, token: claim.token, owner: owner, outcome: outcome, at: now)
            return outcome
        } catch {
            // The lease runs out and another round (or instance) sends it again, with the same apns-id.
            logger.error("could not record a send's outcome", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// The next attempt on the retry schedule, or `failed` once the window has passed.
    private func retry(_ claim: ClaimedSend, now: Date, reason: String, after: TimeInterval?) -> SendOutcome {
        guard
            let next = policy.nextAttempt(
                afterAttempt: claim.attempts, queuedAt: claim.notification.createdAt, now: now, unit: jitter(), requested: after)
        else {
            return .failed(status: 0, reason: "gave up after \(claim.attempts) attempts; last: \(reason)")
        }
        return .retry(at: next, status: nil, reason: reason)
    }

    private func count(_ outcome: SendOutcome) {
        guard let metricsFactory else { return }
        let label: String
        switch outcome {
        case .sent: label = "sent"
        case .failed: label = "failed"
        case .unregistered: label = "unregistered"
        case .retry: label = "retry"
        }
        Counter(label: "actionable_apns_sends_total", dimensions: [("outcome", label)], factory: metricsFactory).increment()
    }
}
