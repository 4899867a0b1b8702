import ActionableCore
import ActionableStore
import Foundation
public import Logging

/// The `delivery.dead` event (`DeliveryDeadEvent` in `openapi.yaml`), shaped as Standard Webhooks
/// suggests for events: a type, a time and the data.
public struct DeliveryDeadEvent: Codable, Hashable, Sendable {
    /// Always `delivery.dead`.
    public var type: String
    /// When the delivery went dead (RFC 3339).
    public var timestamp: String
    public var data: DeadDeliveryData

    /// What went dead.
    public struct DeadDeliveryData: Codable, Hashable, Sendable {
        public var responseId: String
        public var endpoint: String
        public var category: String
        public var action: String
        public var notificationId: String
        public var user: String
        public var attempts: Int
        public var lastError: String
        /// When the server received the response, in Unix seconds with a fraction.
        public var receivedAt: Double
    }

    /// The event for `dead`.
    public init(_ dead: DeadDelivery) {
        type = "delivery.dead"
        timestamp = dead.at.formatted(.iso8601)
        data = DeadDeliveryData(
            responseId: dead.action.id, endpoint: dead.endpointID, category: dead.action.response.category.rawValue,
            action: dead.action.response.action.rawValue, notificationId: dead.action.response.notificationID,
            user: dead.action.response.user, attempts: dead.action.attempts, lastError: dead.reason,
            receivedAt: dead.action.receivedAt.timeIntervalSince1970)
    }
}

/// Tells operators that a delivery went dead: POSTs a ``DeliveryDeadEvent`` to `--ops-endpoint`,
/// signed like every call (Standard Webhooks), with `webhook-id` `dead_<response id>_<endpoint>`.
///
/// The event is tried `tries` times, a second apart at first, then given up with an error in the
/// log; the dead delivery itself stays in storage (listed, and retried from `/admin`).
public struct OpsNotifier: Sendable {
    let forwarder: Forwarder
    let tries: Int
    let pause: Duration
    let logger: Logger

    /// A notifier posting to `forwarder`'s URL.
    public init(forwarder: Forwarder, tries: Int = 3, pause: Duration = .seconds(1), logger: Logger) {
        self.forwarder = forwarder
        self.tries = tries
        self.pause = pause
        self.logger = logger
    }

    /// Sends the event for `dead`; returns whether the ops endpoint took it.
    @discardableResult
    public func notify(_ dead: DeadDelivery) async -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(DeliveryDeadEvent(dead)) else { return false }
        let id = "dead_\(dead.action.id)_\(dead.endpointID)"
        for attempt in 1...max(1, tries) {
            do {
                if case .delivered = try await forwarder.post(Array(body), webhookID: id, logger: logger) { return true }
            } catch {
                logger.warning("the ops endpoint could not be reached", metadata: ["error": "\(error)", "attempt": "\(attempt)"])
            }
            if attempt < tries { try? await Task.sleep(for: pause * (1 << (attempt - 1))) }
        }
        logger.error(
            "delivery.dead was not taken by the ops endpoint", metadata: ["response.id": "\(dead.action.id)", "endpoint": "\(dead.endpointID)"])
        return false
    }
}
