import Foundation

/// What operators see of a response handed to endpoints: its state read from its deliveries when
/// asked, never written back to its own row.
///
/// A finished attempt to an endpoint writes its delivery's row and nothing else (one write per
/// finished attempt). The response's row keeps `status = 'routed'` from the moment it is handed
/// to its endpoints (in the accept's commit, or when the in-process queue routes it), and every
/// operator's read — `GET /v1/actions/{id}`, the pages of deliveries, re-queues, counts, retention
/// — goes through the `response_states` view, which derives the status, attempts, next attempt,
/// last error and delivery time from the deliveries, by the rule of
/// ``EndpointGate/aggregate(_:)``: pending while one delivery is, dead when one is dead,
/// delivered when all are. ``AcceptedResponse/summarized(by:deliveredAt:)`` is the same rule in
/// Swift, for the in-memory store; the conformance suite holds the two to each other.
public enum ResponseStates {
    /// The stored status of a response handed to its endpoints: its state is its deliveries'.
    public static let routed = "routed"

    /// The name of the view operators read responses through.
    public static let view = "response_states"

    /// The derived status of the response row `r`.
    static let status = """
        CASE WHEN r.status <> 'routed' THEN r.status
            WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id AND d.status = 'pending') THEN 'pending'
            WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id AND d.status = 'dead') THEN 'dead'
            WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id) THEN 'delivered'
            ELSE 'pending' END
        """

    /// The view's statement (SQLite: `CREATE VIEW IF NOT EXISTS`; PostgreSQL: `CREATE OR REPLACE
    /// VIEW`, so a start stopped midway runs it again).
    static func createView(_ dialect: SQLDialect) -> String {
        let create = dialect.rowIdentifier == nil ? "CREATE OR REPLACE VIEW" : "CREATE VIEW IF NOT EXISTS"
        // Errors joined in endpoint order: SQLite 3.40 has no ORDER BY inside an aggregate, so the
        // rows are ordered first; PostgreSQL orders inside string_agg.
        let errors =
            dialect.rowIdentifier == nil
            ? """
            (SELECT string_agg(d.endpoint_id || ': ' || d.last_error, '; ' ORDER BY d.endpoint_id COLLATE "C") FROM endpoint_deliveries d
                WHERE d.response_id = r.id AND d.status <> 'delivered' AND d.last_error IS NOT NULL)
            """
            : """
            (SELECT group_concat(e, '; ') FROM (SELECT d.endpoint_id || ': ' || d.last_error AS e FROM endpoint_deliveries d
                WHERE d.response_id = r.id AND d.status <> 'delivered' AND d.last_error IS NOT NULL ORDER BY d.endpoint_id))
            """
        return """
            \(create) \(view) AS
            SELECT r.id, r.notification_id, r.category, r.action, r.user_id, r.user_text, r.payload, r.received_at,
                \(status) AS status,
                CASE WHEN r.status <> 'routed' THEN r.attempts
                    ELSE COALESCE((SELECT MAX(d.attempts) FROM endpoint_deliveries d WHERE d.response_id = r.id), r.attempts) END AS attempts,
                CASE WHEN r.status <> 'routed' THEN r.next_attempt_at
                    ELSE COALESCE((SELECT MIN(d.next_attempt_at) FROM endpoint_deliveries d
                        WHERE d.response_id = r.id AND d.status = 'pending'), r.next_attempt_at) END AS next_attempt_at,
                CASE WHEN r.status <> 'routed' THEN r.last_error ELSE \(errors) END AS last_error,
                r.queued_at, r.trace_parent, r.expired_leases,
                CASE WHEN r.status <> 'routed' THEN r.delivered_at
                    WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id AND d.status <> 'delivered') THEN NULL
                    ELSE (SELECT MAX(d.delivered_at) FROM endpoint_deliveries d WHERE d.response_id = r.id) END AS delivered_at,
                r.answerable_until, r.status AS stored_status
            FROM action_responses r
            """
    }

    /// The statements of schema version 14: responses handed to endpoints stop carrying a summary
    /// of their deliveries (each was rewritten with every finished attempt) and are read through
    /// the view. Each statement may run again.
    public static func version14(_ dialect: SQLDialect) -> [String] {
        [
            "UPDATE action_responses SET status = 'routed', lease_owner = NULL, lease_until = NULL WHERE fanned_out = 1",
            createView(dialect),
        ]
    }
}

extension AcceptedResponse {
    /// This response as operators see it, given its `deliveries` to endpoints (none: it is not
    /// handed to endpoints, and is its own state), and the time its own row says it was delivered
    /// (a response delivered in process). The same rule as the `response_states` view.
    public func summarized(by deliveries: [EndpointDelivery], deliveredAt: Date?) -> (response: AcceptedResponse, deliveredAt: Date?) {
        guard let summary = EndpointGate.aggregate(deliveries) else { return (self, deliveredAt) }
        var response = self
        response.status = summary.status
        response.attempts = summary.attempts
        if let next = summary.nextAttemptAt { response.nextAttemptAt = next }
        response.lastError = summary.lastError
        return (response, summary.deliveredAt)
    }
}
