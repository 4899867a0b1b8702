import ActionableAPNs
import ActionableStore
import CoreMetrics
import Foundation
import Logging
import Synchronization
import Tracing

/// Sends the notifications `POST /v1/send` recorded: claims the due copies under a lease, sends
/// each to APNs (`APNsClient`), and records the answer.
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
@dynamicMemberLookup
public struct SendWorker: Sendable {
    /// A field of its ``settings``, read or changed as its own: `worker.owner`,
    /// `worker.metricsFactory = …`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<OutboxSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }

    public let store: any SendQueue & DeviceRegistry
    public let client: APNsClient
    /// Its retry schedule, lease, window, jitter, logger and metrics (read as its own fields too:
    /// `worker.owner`, `worker.metricsFactory`).
    public var settings: OutboxSettings

    /// A worker sending what `store` holds through `client`.
    public init(
        store: any SendQueue & DeviceRegistry, client: APNsClient, policy: RetryPolicy = RetryPolicy(),
        owner: String = "sender-\(UUID().uuidString.prefix(8))", lease: TimeInterval = 60, batchSize: Int = 256,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger
    ) {
        self.store = store
        self.client = client
        settings = OutboxSettings(policy: policy, owner: owner, lease: lease, concurrency: batchSize, jitter: jitter, logger: logger)
    }

    /// Sends what is due at `now`; returns how many copies it sent (or tried).
    @discardableResult
    public func sendDue(now: Date = Date()) async throws -> Int {
        let transport = APNsTransport(worker: self)
        let loop = OutboxLoop(transport: transport, settings: settings)
        let claimed = try await transport.claim(limit: settings.concurrency, now: now)
        await loop.round(claimed)
        return claimed.count
    }

    /// Runs until cancelled: the outbox's loop (``OutboxLoop``) over ``APNsTransport``, up to
    /// ``OutboxSettings/concurrency`` sends in flight, claiming more as each answers — one slow or stalled stream
    /// holds its own slot (until its deadline), never the others — and waiting for `wake` (a
    /// notification recorded) or `idle` when nothing is due. Cancelling stops the claims, not the
    /// sends in flight: they get their answers (each within the APNs client's deadline) and are
    /// recorded before this returns.
    public func run(wake: (@Sendable (Duration) async -> Void)? = nil, idle: Duration = .milliseconds(500)) async {
        await OutboxLoop(transport: APNsTransport(worker: self), settings: settings)
            .run(wake: wake, idle: idle)
    }

    func count(_ outcome: SendOutcome) {
        guard let metricsFactory = settings.metricsFactory else { return }
        Counter(label: "actionable_apns_sends_total", dimensions: [("outcome", outcome.label)], factory: metricsFactory).increment()
    }
}
