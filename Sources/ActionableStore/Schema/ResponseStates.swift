public import Foundation

/// What operators see of a response handed to endpoints: its state read from its deliveries when
/// asked, never written back to its own row.
///
/// A finished attempt to an endpoint writes its delivery's row and nothing else (one write per
/// finished attempt). A response handed to its endpoints (`fanned_out = 1`: in the accept's
/// commit, or when the in-process queue routes it) is stored with `status = 'routed'`, and every
/// operator's read — `GET /v1/actions/{id}`, the pages of deliveries, re-queues, counts, retention
/// — derives its status, attempts, next attempt, last error and delivery time from its deliveries,
/// by the rule of ``EndpointGate/aggregate(_:)``: pending while one delivery is, dead when one is
/// dead, delivered when all are. ``AcceptedResponse/summarized(by:deliveredAt:)`` is the same rule
/// in Swift, for the in-memory store; the conformance suite holds the two to each other.
///
/// The derivation keys on `fanned_out`, not on the stored status, so a row an instance of an older
/// version wrote during a rolling upgrade (a summary, or `pending` on a routed row) reads right at
/// once; ``normalize`` then sets such rows back to `routed` (at start and with each purge, found
/// through a partial index that is empty otherwise).
package enum ResponseStates {
    /// The stored status of a response handed to its endpoints: its state is its deliveries'.
    package static let routed = "routed"

    /// The name of the view operators read responses through: the columns of
    /// `ActionTable/columns` with the derived state, and `delivered_at`, `answerable_until`,
    /// `fanned_out` and `stored_status` (the row's own status).
    package static let view = "response_states"

    /// Sets routed rows an older version wrote a status into back to `routed` (through the partial
    /// index `action_responses_unrouted`, so it costs nothing when there are none).
    package static let normalize = """
        UPDATE action_responses SET status = 'routed', lease_owner = NULL, lease_until = NULL
        WHERE fanned_out = 1 AND status <> 'routed'
        """

    /// The response ids with a delivery in `statuses` (pending, dead), read through the claim
    /// index (`endpoint_id, status, …`) one endpoint at a time: no index of its own, so a finished
    /// attempt writes no more index entries than its claim index's.
    static func open(_ statuses: String...) -> String {
        let list = statuses.map { "'\($0)'" }.joined(separator: ", ")
        return "SELECT response_id FROM endpoint_deliveries WHERE endpoint_id IN (SELECT id FROM endpoints) AND status IN (\(list))"
    }

    /// The condition on a row of the view that its state, as operators see it, is `status`;
    /// index-friendly: the routed rows' part reads the deliveries through the claim index once,
    /// not once per row.
    static func condition(_ status: ResponseStatus) -> String {
        let routed: String
        switch status {
        case .held: return "stored_status = 'held'"
        case .pending: routed = "id IN (\(open("pending")))"
        case .dead: routed = "id IN (\(open("dead"))) AND id NOT IN (\(open("pending")))"
        case .delivered:
            routed = """
                id NOT IN (\(open("pending", "dead")))
                    AND EXISTS (SELECT 1 FROM endpoint_deliveries e WHERE e.response_id = id)
                """
        }
        return "((fanned_out = 0 AND stored_status = '\(status.rawValue)') OR (fanned_out = 1 AND \(routed)))"
    }

    /// The condition that a row of the view is not pending, as operators see it.
    static let notPending = "NOT \(condition(.pending))"

    /// The derived status of the response row `r`.
    static let status = """
        CASE WHEN r.fanned_out = 0 THEN r.status
            WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id AND d.status = 'pending') THEN 'pending'
            WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id AND d.status = 'dead') THEN 'dead'
            WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id) THEN 'delivered'
            ELSE 'pending' END
        """

    /// The view's statement (SQLite: `CREATE VIEW IF NOT EXISTS`; PostgreSQL: `CREATE OR REPLACE
    /// VIEW`, so a start stopped midway runs it again).
    static func createView(_ dialect: SQLDialect) -> String {
        let postgres = dialect.rowIdentifier == nil
        let create = postgres ? "CREATE OR REPLACE VIEW" : "CREATE VIEW IF NOT EXISTS"
        // Errors joined in endpoint order: SQLite 3.40 has no ORDER BY inside an aggregate, so the
        // rows are ordered first; PostgreSQL orders inside string_agg.
        let errors =
            postgres
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
                CASE WHEN r.fanned_out = 0 THEN r.attempts
                    ELSE COALESCE((SELECT MAX(d.attempts) FROM endpoint_deliveries d WHERE d.response_id = r.id), r.attempts) END AS attempts,
                CASE WHEN r.fanned_out = 0 THEN r.next_attempt_at
                    ELSE COALESCE(
                        (SELECT MIN(d.next_attempt_at) FROM endpoint_deliveries d WHERE d.response_id = r.id AND d.status = 'pending'),
                        (SELECT MAX(d.next_attempt_at) FROM endpoint_deliveries d WHERE d.response_id = r.id), r.next_attempt_at) END
                    AS next_attempt_at,
                CASE WHEN r.fanned_out = 0 THEN r.last_error ELSE \(errors) END AS last_error,
                r.queued_at, r.trace_parent, r.expired_leases,
                CASE WHEN r.fanned_out = 0 THEN r.delivered_at
                    WHEN EXISTS (SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id AND d.status <> 'delivered') THEN NULL
                    ELSE (SELECT MAX(d.delivered_at) FROM endpoint_deliveries d WHERE d.response_id = r.id) END AS delivered_at,
                r.answerable_until, r.fanned_out, r.status AS stored_status
            FROM action_responses r
            """
    }

    /// How many responses are in each state, as operators see them: the rows by their own status
    /// (one pass over the status index), the routed ones split by their pending and dead
    /// deliveries (the claim index); `routed` rows neither pending nor dead are delivered.
    package static let countsByStoredStatus = "SELECT status, CAST(COUNT(*) AS INTEGER) AS n FROM action_responses GROUP BY status"

    /// The routed responses with a pending delivery (an integer column).
    package static let routedPendingCount =
        "SELECT CAST(COUNT(DISTINCT response_id) AS INTEGER) FROM (\(open("pending"))) AS open"

    /// The routed responses with a dead delivery and none pending (an integer column).
    package static let routedDeadCount = """
        SELECT CAST(COUNT(DISTINCT response_id) AS INTEGER) FROM (\(open("dead"))) AS open
        WHERE response_id NOT IN (\(open("pending")))
        """

    /// The counts operators see, from ``countsByStoredStatus``'s rows and the two routed counts.
    package static func counts(stored: [(String, Int)], routedPending: Int, routedDead: Int) -> [ResponseStatus: Int] {
        var counts: [ResponseStatus: Int] = [:]
        for (status, count) in stored {
            if status == routed {
                counts[.pending, default: 0] += routedPending
                counts[.dead, default: 0] += routedDead
                counts[.delivered, default: 0] += max(0, count - routedPending - routedDead)
            } else if let status = ResponseStatus(rawValue: status) {
                counts[status, default: 0] += count
            }
        }
        return counts.filter { $0.value > 0 }
    }
}

extension AcceptedResponse {
    /// This response as operators see it, given its `deliveries` to endpoints (none: it is not
    /// handed to endpoints, and is its own state), and the time its own row says it was delivered
    /// (a response delivered in process). The same rule as the `response_states` view: the next
    /// attempt is the earliest pending delivery's, else the latest any delivery was due.
    package func summarized(by deliveries: [EndpointDelivery], deliveredAt: Date?) -> (response: AcceptedResponse, deliveredAt: Date?) {
        guard let summary = EndpointGate.aggregate(deliveries) else { return (self, deliveredAt) }
        var response = self
        response.status = summary.status
        response.attempts = summary.attempts
        response.nextAttemptAt = summary.nextAttemptAt ?? deliveries.map(\.nextAttemptAt).max() ?? nextAttemptAt
        response.lastError = summary.lastError
        return (response, summary.deliveredAt)
    }
}
