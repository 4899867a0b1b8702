import ActionableCore
import Foundation

/// The `action_responses` table as every SQL driver stores it: its schema, the statements whose
/// text does not depend on the driver, and the decoding of a row into a ``AcceptedResponse``.
///
/// A driver keeps only what is its own: how it connects, how it batches accepts, how it claims.
package enum ActionTable {

    /// The columns a ``AcceptedResponse`` is decoded from, in the order ``decode(_:)`` reads them.
    package static let columns = """
        id, notification_id, category, action, user_id, user_text, payload, received_at, status, attempts, \
        next_attempt_at, last_error, queued_at, trace_parent, expired_leases
        """

    /// Selects one response by id as operators see it (`ResponseStates`); parameter 1 is the id.
    package static func selectByID(_ dialect: SQLDialect) -> String {
        "SELECT \(columns) FROM \(ResponseStates.view) WHERE id = \(dialect.parameter(1))"
    }

    /// What a claim adds to the expired leases of a row it takes: one when the row was still
    /// leased (its lease ran out without an outcome).
    package static let countExpiredLease = "expired_leases = expired_leases + CASE WHEN lease_owner IS NULL THEN 0 ELSE 1 END"

    /// Selects the responses of `count` ids (parameters 1 through `count`), in no order: one round
    /// trip for a claimed batch instead of one per response.
    package static func selectByIDs(_ dialect: SQLDialect, count: Int) -> String {
        "SELECT \(columns) FROM action_responses WHERE id IN (\((1...max(1, count)).map(dialect.parameter).joined(separator: ", ")))"
    }

    /// Inserts a response unless its notification was answered; parameters: id, notification
    /// id, category, action, user, text, payload (JSON), received at (Unix seconds), answerable
    /// until (Unix seconds or `NULL`), trace parent (or `NULL`), routed (1: handed to endpoints in
    /// this commit, its status `routed`; 0: pending).
    package static func insertUnlessAnswered(_ dialect: SQLDialect) -> String {
        let p = (1...11).map(dialect.parameter)
        return """
            INSERT INTO action_responses (id, notification_id, category, action, user_id, user_text, payload,
                received_at, next_attempt_at, answerable_until, trace_parent, fanned_out, status)
            VALUES (\(p[0]), \(p[1]), \(p[2]), \(p[3]), \(p[4]), \(p[5]), \(p[6]), \(p[7]), \(p[7]), \(p[8]), \(p[9]),
                \(p[10]), CASE WHEN \(p[10]) = 1 THEN 'routed' ELSE 'pending' END)
            ON CONFLICT (notification_id) DO NOTHING
            """
    }

    /// The answer already stored for a notification; parameter 1 is the notification id.
    package static func answerOfNotification(_ dialect: SQLDialect) -> String {
        "SELECT id, action, user_text FROM action_responses WHERE notification_id = \(dialect.parameter(1))"
    }

    /// Marks a claimed response delivered; parameters: delivered at, id, lease owner.
    package static func markDelivered(_ dialect: SQLDialect) -> String {
        QueueTable.responses.finish(dialect, set: "status = 'delivered', delivered_at = \(dialect.parameter(1)), last_error = NULL", setting: 1)
    }

    /// Puts a claimed response back to pending; parameters: next attempt at, error, id, owner.
    package static func reschedule(_ dialect: SQLDialect) -> String {
        QueueTable.responses.finish(
            dialect, set: "next_attempt_at = \(dialect.parameter(1)), last_error = \(dialect.parameter(2))", setting: 2)
    }

    /// Marks a claimed response dead; parameters: reason, id, owner.
    package static func markDead(_ dialect: SQLDialect) -> String {
        QueueTable.responses.finish(dialect, set: "status = 'dead', last_error = \(dialect.parameter(1))", setting: 1)
    }

    /// Counts the work waiting in the outbox (an integer column): responses waiting for an
    /// in-process handler or for routing, and deliveries waiting for their endpoint.
    package static let pendingCount = """
        SELECT CAST((SELECT COUNT(*) FROM action_responses WHERE status = 'pending')
            + (SELECT COUNT(*) FROM endpoint_deliveries WHERE endpoint_id IN (SELECT id FROM endpoints) AND status = 'pending') AS INTEGER)
        """

    /// When the work that has waited longest since it fell due became due (a real column, NULL
    /// when nothing is due); parameter: now. Counted: responses waiting for a handler or for
    /// routing, deliveries whose endpoint is neither paused nor behind an open breaker (those
    /// wait on purpose), and copies.
    package static func oldestDue(_ dialect: SQLDialect) -> String {
        let now = dialect.parameter(1)
        return """
            SELECT MIN(due) FROM (
                SELECT MIN(next_attempt_at) AS due FROM action_responses WHERE status = 'pending' AND next_attempt_at <= \(now)
                UNION ALL
                SELECT MIN(d.next_attempt_at) FROM endpoint_deliveries d JOIN endpoints e ON e.id = d.endpoint_id
                    WHERE d.status = 'pending' AND d.next_attempt_at <= \(now) AND e.paused = 0
                        AND (e.open_until IS NULL OR e.open_until <= \(now))
                UNION ALL
                SELECT MIN(next_attempt_at) FROM notification_sends WHERE state = 'pending' AND next_attempt_at <= \(now)
            ) AS due_work
            """
    }

    /// Decodes a row of ``columns``.
    package static func decode(_ row: some ActionRow) throws -> AcceptedResponse {
        // Kept as the text it was stored as: parsed only if a handler reads the payload.
        let response = ActionResponse(
            category: CategoryID(try row.string("category")), action: ActionID(try row.string("action")),
            notificationID: try row.string("notification_id"), user: try row.string("user_id"),
            userText: try row.optionalString("user_text"), payloadJSON: try row.string("payload"))
        return AcceptedResponse(
            id: try row.string("id"), response: response,
            receivedAt: Date(timeIntervalSince1970: try row.double("received_at")),
            status: ResponseStatus(rawValue: try row.string("status")) ?? .pending, attempts: try row.int("attempts"),
            nextAttemptAt: Date(timeIntervalSince1970: try row.double("next_attempt_at")),
            lastError: try row.optionalString("last_error"),
            queuedAt: try row.optionalDouble("queued_at").map { Date(timeIntervalSince1970: $0) },
            traceParent: try row.optionalString("trace_parent"), expiredLeases: try row.optionalInt("expired_leases") ?? 0)
    }
}

/// A row of `ActionTable`, read by column name: each driver adapts its own row type.
package protocol ActionRow {
    /// A text column.
    func string(_ column: String) throws -> String
    /// A text column that may be `NULL`.
    func optionalString(_ column: String) throws -> String?
    /// A floating-point column.
    func double(_ column: String) throws -> Double
    /// A floating-point column that may be `NULL`.
    func optionalDouble(_ column: String) throws -> Double?
    /// An integer column.
    func int(_ column: String) throws -> Int
    /// An integer column that may be `NULL`.
    func optionalInt(_ column: String) throws -> Int?
}
