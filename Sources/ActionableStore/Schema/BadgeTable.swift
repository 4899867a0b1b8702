/// The `badge_entries` table as every SQL driver stores it: one row per notification id, with
/// its user and, once read, when. Rows are never deleted by a read, so a retried read or a
/// record after the answer (a tap that raced the backend's record) finds the row and changes
/// nothing.
package enum BadgeTable {

    /// Records a sent notification unless its id is known; parameters: notification id, user,
    /// category, sent at.
    package static func insertSent(_ dialect: SQLDialect) -> String {
        let p = (1...4).map(dialect.parameter)
        return """
            INSERT INTO badge_entries (notification_id, user_id, category, sent_at) VALUES (\(p[0]), \(p[1]), \(p[2]), \(p[3]))
            ON CONFLICT (notification_id) DO NOTHING
            """
    }

    /// The user a notification id is recorded for; parameter 1 is the id.
    package static func userOfNotification(_ dialect: SQLDialect) -> String {
        "SELECT user_id FROM badge_entries WHERE notification_id = \(dialect.parameter(1))"
    }

    /// Marks an answered notification read, recording it read if it was not recorded yet (so a
    /// later record does not count it); parameters: notification id, user, category, at.
    package static func markAnswered(_ dialect: SQLDialect) -> String {
        let p = (1...4).map(dialect.parameter)
        return """
            INSERT INTO badge_entries (notification_id, user_id, category, sent_at, read_at)
            VALUES (\(p[0]), \(p[1]), \(p[2]), \(p[3]), \(p[3]))
            ON CONFLICT (notification_id) DO UPDATE SET read_at = COALESCE(badge_entries.read_at, excluded.read_at)
            """
    }

    /// Marks one notification of a user read; parameters: at, user, notification id.
    package static func markRead(_ dialect: SQLDialect) -> String {
        """
        UPDATE badge_entries SET read_at = \(dialect.parameter(1))
        WHERE user_id = \(dialect.parameter(2)) AND notification_id = \(dialect.parameter(3)) AND read_at IS NULL
        """
    }

    /// Marks every notification of a user read; parameters: at, user.
    package static func markAllRead(_ dialect: SQLDialect) -> String {
        "UPDATE badge_entries SET read_at = \(dialect.parameter(1)) WHERE user_id = \(dialect.parameter(2)) AND read_at IS NULL"
    }

    /// A user's badge; parameters: user, counting since (an integer column).
    package static func count(_ dialect: SQLDialect) -> String {
        """
        SELECT CAST(COUNT(*) AS INTEGER) FROM badge_entries
        WHERE user_id = \(dialect.parameter(1)) AND read_at IS NULL AND sent_at >= \(dialect.parameter(2))
        """
    }

    /// Every user's unread notifications; parameter 1 is counting since (an integer column).
    package static func total(_ dialect: SQLDialect) -> String {
        "SELECT CAST(COUNT(*) AS INTEGER) FROM badge_entries WHERE read_at IS NULL AND sent_at >= \(dialect.parameter(1))"
    }
}
