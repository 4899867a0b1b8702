import ActionableWire
public import Foundation

/// The `notifications` and `notification_sends` tables as every SQL driver stores them: one row
/// per notification, and one per device's copy of it.
package enum SendTable {

    /// The columns a ``NewNotification`` is read from.
    package static let notificationColumns =
        "notification_id, user_id, category, payload, apns_payload, push_type, collapse_id, expiration, priority, created_at, trace_parent, fcm_message"

    /// Stores a candidate token unless the stored one was issued after a time, returning the
    /// stored token when it replaced it (no row otherwise); parameters: key id, token, issued at,
    /// reuse if issued after.
    package static func shareToken(_ dialect: SQLDialect) -> String {
        let p = (1...4).map(dialect.parameter)
        return """
            INSERT INTO provider_tokens (key_id, token, issued_at) VALUES (\(p[0]), \(p[1]), \(p[2]))
            ON CONFLICT (key_id) DO UPDATE SET token = excluded.token, issued_at = excluded.issued_at
            WHERE provider_tokens.issued_at <= \(p[3])
            RETURNING token, issued_at
            """
    }

    /// The stored token of a key; parameter 1 is the key id.
    package static func selectToken(_ dialect: SQLDialect) -> String {
        "SELECT token, issued_at FROM provider_tokens WHERE key_id = \(dialect.parameter(1))"
    }

    /// Records a notification unless its id is known; parameters: the twelve
    /// ``notificationColumns`` in order (the trace parent added by schema version 9,
    /// `ActionTable/version9(_:)`, the FCM message by version 13).
    package static func insertNotification(_ dialect: SQLDialect) -> String {
        let p = (1...12).map(dialect.parameter).joined(separator: ", ")
        return "INSERT INTO notifications (\(notificationColumns)) VALUES (\(p)) ON CONFLICT (notification_id) DO NOTHING"
    }

    /// The values of ``insertNotification(_:)`` for `notification`, in order.
    package static func insertValues(_ notification: NewNotification) -> [SQLValue] {
        [
            .text(notification.notificationID), .text(notification.user), .text(notification.category), .text(notification.payloadJSON),
            .text(notification.apnsPayload), .text(notification.pushType), .optionalText(notification.collapseID),
            .optionalReal(notification.expiration?.timeIntervalSince1970), .optionalInteger(notification.priority),
            .real(notification.createdAt.timeIntervalSince1970), .optionalText(notification.traceParent),
            .optionalText(notification.fcmMessage),
        ]
    }

    /// Adds a device's pending copy; parameters: notification id, token, platform, environment,
    /// next attempt at.
    package static func insertSend(_ dialect: SQLDialect) -> String {
        let p = (1...5).map(dialect.parameter)
        return """
            INSERT INTO notification_sends (notification_id, token, platform, environment, next_attempt_at)
            VALUES (\(p[0]), \(p[1]), \(p[2]), \(p[3]), \(p[4]))
            """
    }

    /// A notification's user and its copies' count; parameter 1 is the id.
    package static func known(_ dialect: SQLDialect) -> String {
        """
        SELECT user_id, (SELECT CAST(COUNT(*) AS INTEGER) FROM notification_sends s WHERE s.notification_id = n.notification_id)
        FROM notifications n WHERE notification_id = \(dialect.parameter(1))
        """
    }

    /// One notification; parameter 1 is the id.
    package static func selectNotification(_ dialect: SQLDialect) -> String {
        "SELECT \(notificationColumns) FROM notifications WHERE notification_id = \(dialect.parameter(1))"
    }

    /// A notification's copies, by token; parameter 1 is the id.
    package static func selectSends(_ dialect: SQLDialect) -> String {
        """
        SELECT token, platform, environment, state, status, reason, attempts FROM notification_sends
        WHERE notification_id = \(dialect.parameter(1)) ORDER BY token
        """
    }

    /// Finishes a leased copy; parameters: state, status, reason, next attempt at, notification
    /// id, token, owner.
    package static func finish(_ dialect: SQLDialect) -> String {
        let p = (1...4).map(dialect.parameter)
        return QueueTable.sends.finish(
            dialect, set: "state = \(p[0]), status = \(p[1]), reason = \(p[2]), next_attempt_at = COALESCE(\(p[3]), next_attempt_at)",
            setting: 4)
    }

    /// Dates a device's last send; parameters: at, token.
    package static func markDeviceSent(_ dialect: SQLDialect) -> String {
        "UPDATE devices SET last_sent_at = \(dialect.parameter(1)) WHERE token = \(dialect.parameter(2))"
    }

    /// The columns ``finish(_:)`` sets for `outcome`: state, status, reason, and the next
    /// attempt (`nil` keeps it).
    package static func finishing(_ outcome: SendOutcome) -> (state: SendState, status: Int?, reason: String?, next: Date?) {
        switch outcome {
        case .sent(let status): return (.sent, status, nil, nil)
        case .failed(let status, let reason): return (.failed, status, reason, nil)
        case .unregistered(let status, let reason): return (.unregistered, status, reason, nil)
        case .retry(let at, let status, let reason): return (.pending, status, reason, at)
        }
    }

    /// Reads a row of ``notificationColumns``.
    package static func decodeNotification(_ row: some ActionRow) throws -> NewNotification {
        NewNotification(
            notificationID: try row.string("notification_id"), user: try row.string("user_id"), category: try row.string("category"),
            payloadJSON: try row.string("payload"), apnsPayload: try row.string("apns_payload"), pushType: try row.string("push_type"),
            collapseID: try row.optionalString("collapse_id"),
            expiration: try row.optionalDouble("expiration").map { Date(timeIntervalSince1970: $0) },
            priority: try row.optionalInt("priority"),
            createdAt: Date(timeIntervalSince1970: try row.double("created_at")), traceParent: try row.optionalString("trace_parent"),
            fcmMessage: try row.optionalString("fcm_message"))
    }
}
