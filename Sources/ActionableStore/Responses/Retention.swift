public import Foundation

/// What one purge may delete: rows that nothing can still need.
///
/// - A response is deleted once it is delivered or dead, its last change (received, queued
///   again, delivered, last attempt) is before ``responsesBefore``, and its notification can
///   no longer be answered (``NewResponse/answerableUntil`` is past): a replayed action token
///   then meets the stored answer, never an empty table that would accept it a second time.
///   A pending response is never deleted.
/// - A badge entry is deleted once it was sent, and read if it was, before
///   ``badgeEntriesBefore``, which is also before the badge lifetime: it no longer counts, and
///   a late record with its original time would not count it again.
/// - A device unregistered before ``responsesBefore`` is deleted (it registers again as new).
/// - A notification sent (`POST /v1/send`) before ``notificationsBefore`` whose copies are none
///   of them pending is deleted with its copies: before that, its action tokens (7 days) have
///   expired, so no tap can still need the payload it recorded.
public struct PurgeCutoff: Hashable, Sendable {
    /// Delivered and dead responses whose last change is earlier are deleted.
    public var responsesBefore: Date
    /// Badge entries sent (and read) earlier are deleted.
    public var badgeEntriesBefore: Date
    /// The time now, against which a notification's ``NewResponse/answerableUntil`` is compared.
    public var now: Date
    /// Notifications sent earlier, none of their copies pending, are deleted: the retention, and
    /// at least ``notificationTokenLifetime`` (their action tokens' lifetime).
    public var notificationsBefore: Date {
        min(responsesBefore, now.addingTimeInterval(-Self.notificationTokenLifetime))
    }

    /// How long the action tokens of a notification the server sent stay valid.
    public static let notificationTokenLifetime: TimeInterval = 7 * 24 * 3600

    /// Deletes what is older than `retention` at `now`; badge entries are also kept for
    /// `badgeLifetime`, while they could still count.
    public init(retention: TimeInterval, badgeLifetime: TimeInterval, now: Date = Date()) {
        responsesBefore = now.addingTimeInterval(-retention)
        badgeEntriesBefore = now.addingTimeInterval(-max(retention, badgeLifetime))
        self.now = now
    }

    /// A cutoff given by its three times.
    public init(responsesBefore: Date, badgeEntriesBefore: Date, now: Date) {
        self.responsesBefore = responsesBefore
        self.badgeEntriesBefore = badgeEntriesBefore
        self.now = now
    }

    /// Whether a response goes: in `status`, its next attempt last set to `nextAttemptAt` (never
    /// before it was received or queued again), delivered at `deliveredAt` if it was,
    /// answerable until `answerableUntil`. `ActionTable/purge(limit:lock:_:)` states the same
    /// rule in SQL, column for column.
    public func deletes(status: ResponseStatus, nextAttemptAt: Date, deliveredAt: Date?, answerableUntil: Date?) -> Bool {
        (status == .delivered || status == .dead) && nextAttemptAt < responsesBefore && (deliveredAt ?? .distantPast) < responsesBefore
            && (answerableUntil ?? .distantPast) < now
    }

    /// Whether a badge entry sent at `sentAt` and read at `readAt` goes.
    public func deletes(sentAt: Date, readAt: Date?) -> Bool {
        sentAt < badgeEntriesBefore && (readAt ?? .distantPast) < badgeEntriesBefore
    }
}

/// How many rows one purge deleted.
public struct PurgeCount: Hashable, Sendable {
    /// Delivered and dead responses.
    public var responses: Int
    /// Badge entries.
    public var badgeEntries: Int
    /// Unregistered devices.
    public var devices: Int
    /// Sent notifications (with their copies).
    public var notifications: Int

    public init(responses: Int = 0, badgeEntries: Int = 0, devices: Int = 0, notifications: Int = 0) {
        self.responses = responses
        self.badgeEntries = badgeEntries
        self.devices = devices
        self.notifications = notifications
    }

    /// The counts added.
    public static func + (lhs: PurgeCount, rhs: PurgeCount) -> PurgeCount {
        PurgeCount(
            responses: lhs.responses + rhs.responses, badgeEntries: lhs.badgeEntries + rhs.badgeEntries,
            devices: lhs.devices + rhs.devices, notifications: lhs.notifications + rhs.notifications)
    }

    /// Whether some table's batch was full (another batch may find more).
    public func filled(_ limit: Int) -> Bool {
        responses >= limit || badgeEntries >= limit || devices >= limit || notifications >= limit
    }
}

/// The SQL of retention, for every SQL driver. Each statement deletes one bounded batch, so a
/// purge never holds the writer (SQLite) or many row locks (PostgreSQL) for long, and a kill
/// between two batches leaves every row either whole or gone.
extension ActionTable {

    /// Deletes up to `limit` old delivered or dead responses, as operators see them
    /// (`ResponseStates`); parameters: responses before, now. A response's next attempt is never
    /// before it was received or queued again, so `next_attempt_at` bounds those, and the delivery
    /// index (`status, next_attempt_at`) finds the batch without reading a pending row; a response
    /// routed to endpoints is read with its deliveries, and goes once none is pending and the last
    /// any was due or delivered is before the cutoff. `lock` is what the driver adds to the inner
    /// `SELECT` (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so that instances purging at once, or an
    /// operator queueing a row again, never wait on each other and a row queued again meanwhile is
    /// left alone).
    public static func purge(limit: Int, lock: String = "", _ dialect: SQLDialect) -> String {
        let before = dialect.parameter(1)
        let now = dialect.parameter(2)
        let key = dialect.rowIdentifier ?? "id"
        func deliveries(_ condition: String) -> String {
            "SELECT 1 FROM endpoint_deliveries d WHERE d.response_id = r.id\(condition.isEmpty ? "" : " AND \(condition)")"
        }
        return """
            DELETE FROM action_responses WHERE \(key) IN (
                SELECT r.\(key) FROM action_responses r
                WHERE r.status IN ('delivered', 'dead', 'routed') AND r.next_attempt_at < \(before)
                    AND (r.answerable_until IS NULL OR r.answerable_until < \(now))
                    AND (r.status = 'routed' OR r.delivered_at IS NULL OR r.delivered_at < \(before))
                    AND (r.status <> 'routed' OR (
                        EXISTS (\(deliveries(""))) AND NOT EXISTS (\(deliveries("d.status = 'pending'")))
                        AND NOT EXISTS (\(deliveries("d.next_attempt_at >= \(before)")))
                        AND (EXISTS (\(deliveries("d.status <> 'delivered'")))
                            OR NOT EXISTS (\(deliveries("d.delivered_at >= \(before)"))))))
                LIMIT \(limit) \(lock))
            """
    }
}

extension BadgeTable {
    /// Deletes up to `limit` badge entries sent, and read if they were, before parameter 1.
    public static func purge(limit: Int, lock: String = "", _ dialect: SQLDialect) -> String {
        let before = dialect.parameter(1)
        let key = dialect.rowIdentifier ?? "notification_id"
        return """
            DELETE FROM badge_entries WHERE \(key) IN (
                SELECT \(key) FROM badge_entries
                WHERE sent_at < \(before) AND (read_at IS NULL OR read_at < \(before))
                LIMIT \(limit) \(lock))
            """
    }
}

extension DeviceTable {
    /// Deletes up to `limit` devices unregistered before parameter 1.
    public static func purge(limit: Int, lock: String = "", _ dialect: SQLDialect) -> String {
        """
        DELETE FROM devices WHERE token IN (
            SELECT token FROM devices WHERE state = 'unregistered' AND unregistered_at < \(dialect.parameter(1))
            LIMIT \(limit) \(lock))
        """
    }
}

extension SendTable {
    /// Deletes the copies of up to `limit` notifications sent before parameter 1 none of whose
    /// copies is pending (the first of two statements: ``purgeNotifications(limit:lock:_:)`` then
    /// deletes the notifications left without copies).
    public static func purgeSends(limit: Int, _ dialect: SQLDialect) -> String {
        """
        DELETE FROM notification_sends WHERE notification_id IN (
            SELECT n.notification_id FROM notifications n WHERE n.created_at < \(dialect.parameter(1))
                AND NOT EXISTS (
                    SELECT 1 FROM notification_sends p WHERE p.notification_id = n.notification_id AND p.state = 'pending')
            LIMIT \(limit))
        """
    }

    /// Deletes up to `limit` notifications sent before parameter 1 that have no copy left.
    public static func purgeNotifications(limit: Int, lock: String = "", _ dialect: SQLDialect) -> String {
        """
        DELETE FROM notifications WHERE notification_id IN (
            SELECT n.notification_id FROM notifications n WHERE n.created_at < \(dialect.parameter(1))
                AND NOT EXISTS (SELECT 1 FROM notification_sends s WHERE s.notification_id = n.notification_id)
            LIMIT \(limit) \(lock))
        """
    }
}
