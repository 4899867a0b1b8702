/// The schema of every SQL driver, as its migrations build it: one list, in order, each
/// migration a version, a name and its statements in a driver's dialect. A new version is
/// appended, never edited: a database records the versions it has (SQLite through GRDB's
/// migrator, by `vN: name`; PostgreSQL in `actionable_migrations`), and each driver applies
/// the rest of this one list at open.
package enum Schema {
    /// One step of the schema.
    package struct Migration: Sendable {
        /// Its number, from 1, one more than the one before.
        package let version: Int
        /// What it adds, for the driver's record of versions applied.
        package let name: String
        /// Its statements in `dialect`.
        package let statements: @Sendable (SQLDialect) -> [String]
    }

    /// Every migration, in order.
    package static let migrations: [Migration] = [
        Migration(version: 1, name: "action responses", statements: version1),
        Migration(version: 2, name: "badge ledger", statements: version2),
        Migration(version: 3, name: "queued at, newest-first index", statements: version3),
        Migration(version: 4, name: "answerable until, badge entries by time sent", statements: version4),
        Migration(version: 5, name: "devices", statements: version5),
        Migration(version: 6, name: "notifications sent", statements: version6),
        Migration(version: 7, name: "shared provider tokens", statements: version7),
        Migration(version: 8, name: "endpoints and their deliveries", statements: version8),
        Migration(version: 9, name: "trace context of responses and notifications", statements: version9),
        Migration(version: 10, name: "expired leases", statements: version10),
        Migration(version: 11, name: "endpoints paused by a missing flag", statements: version11),
        Migration(version: 12, name: "queue indexes in claim order", statements: version12),
        Migration(version: 13, name: "devices on both platforms", statements: version13),
        Migration(version: 14, name: "responses routed to endpoints read through their deliveries", statements: version14),
        Migration(version: 15, name: "admin sign-outs", statements: version15),
        Migration(version: 16, name: "activity per minute", statements: version16),
        Migration(version: 17, name: "activity by series", statements: version17),
    ]

    /// The statements of schema version 1, one statement each.
    private static func version1(_ dialect: SQLDialect) -> [String] {
        let double = dialect.doubleType
        return [
            """
            CREATE TABLE action_responses (
                id TEXT PRIMARY KEY NOT NULL,
                notification_id TEXT NOT NULL UNIQUE,
                category TEXT NOT NULL,
                action TEXT NOT NULL,
                user_id TEXT NOT NULL,
                user_text TEXT,
                payload TEXT NOT NULL,
                received_at \(double) NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending',
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at \(double) NOT NULL,
                lease_owner TEXT,
                lease_until \(double),
                last_error TEXT,
                delivered_at \(double)
            )
            """,
            "CREATE INDEX action_responses_due ON action_responses (status, next_attempt_at)",
        ]
    }

    /// The statements of the ledger's schema version, one statement each.
    private static func version2(_ dialect: SQLDialect) -> [String] {
        let double = dialect.doubleType
        return [
            """
            CREATE TABLE badge_entries (
                notification_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                category TEXT NOT NULL,
                sent_at \(double) NOT NULL,
                read_at \(double)
            )
            """,
            "CREATE INDEX badge_entries_unread ON badge_entries (user_id, sent_at) WHERE read_at IS NULL",
        ]
    }

    /// The statements of schema version 3: when each response was queued, and an index for the
    /// operator's newest-first pages.
    private static func version3(_ dialect: SQLDialect) -> [String] {
        [
            "ALTER TABLE action_responses ADD COLUMN queued_at \(dialect.doubleType)",
            "CREATE INDEX action_responses_received ON action_responses (received_at, id)",
        ]
    }

    /// The statements of schema version 4: until when each response's notification can be
    /// answered (its token's expiry), and the index retention finds old badge entries by.
    private static func version4(_ dialect: SQLDialect) -> [String] {
        [
            "ALTER TABLE action_responses ADD COLUMN answerable_until \(dialect.doubleType)",
            "CREATE INDEX badge_entries_sent ON badge_entries (sent_at)",
        ]
    }

    /// The statements of schema version 5.
    private static func version5(_ dialect: SQLDialect) -> [String] {
        let double = dialect.doubleType
        return [
            """
            CREATE TABLE devices (
                token TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                state TEXT NOT NULL DEFAULT 'active',
                registered_at \(double) NOT NULL,
                last_sent_at \(double),
                unregistered_at \(double)
            )
            """,
            "CREATE INDEX devices_user ON devices (user_id, registered_at)",
        ]
    }

    /// The statements of schema version 6.
    private static func version6(_ dialect: SQLDialect) -> [String] {
        let double = dialect.doubleType
        return [
            """
            CREATE TABLE notifications (
                notification_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                category TEXT NOT NULL,
                payload TEXT NOT NULL,
                apns_payload TEXT NOT NULL,
                push_type TEXT NOT NULL,
                collapse_id TEXT,
                expiration \(double),
                priority INTEGER,
                created_at \(double) NOT NULL
            )
            """,
            """
            CREATE TABLE notification_sends (
                notification_id TEXT NOT NULL,
                token TEXT NOT NULL,
                environment TEXT NOT NULL,
                state TEXT NOT NULL DEFAULT 'pending',
                status INTEGER,
                reason TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at \(double) NOT NULL,
                lease_owner TEXT,
                lease_until \(double),
                PRIMARY KEY (notification_id, token)
            )
            """,
            "CREATE INDEX notification_sends_due ON notification_sends (state, next_attempt_at)",
        ]
    }

    /// The statements of schema version 7: the provider token shared by every instance.
    private static func version7(_ dialect: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE provider_tokens (
                key_id TEXT PRIMARY KEY NOT NULL,
                token TEXT NOT NULL,
                issued_at \(dialect.doubleType) NOT NULL
            )
            """
        ]
    }

    /// The statements of schema version 8.
    private static func version8(_ dialect: SQLDialect) -> [String] {
        let double = dialect.doubleType
        return [
            """
            CREATE TABLE endpoints (
                id TEXT PRIMARY KEY NOT NULL,
                url TEXT NOT NULL,
                filter TEXT NOT NULL,
                secret TEXT,
                previous_secret TEXT,
                rate_limit \(double),
                paused INTEGER NOT NULL DEFAULT 0,
                seeded INTEGER NOT NULL DEFAULT 0,
                failure_streak INTEGER NOT NULL DEFAULT 0,
                open_until \(double),
                next_slot_at \(double),
                created_at \(double) NOT NULL
            )
            """,
            """
            CREATE TABLE endpoint_deliveries (
                response_id TEXT NOT NULL REFERENCES action_responses (id) ON DELETE CASCADE,
                endpoint_id TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending',
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at \(double) NOT NULL,
                queued_at \(double) NOT NULL,
                lease_owner TEXT,
                lease_until \(double),
                last_error TEXT,
                delivered_at \(double),
                PRIMARY KEY (response_id, endpoint_id)
            )
            """,
            "CREATE INDEX endpoint_deliveries_due ON endpoint_deliveries (endpoint_id, status, next_attempt_at)",
            "ALTER TABLE action_responses ADD COLUMN fanned_out INTEGER NOT NULL DEFAULT 0",
        ]
    }

    /// The statements of schema version 9: the trace context of a response's accept, and of a
    /// notification's record (`SendTable`), which their attempts continue.
    private static func version9(_ dialect: SQLDialect) -> [String] {
        [
            "ALTER TABLE action_responses ADD COLUMN trace_parent TEXT",
            "ALTER TABLE notifications ADD COLUMN trace_parent TEXT",
        ]
    }

    /// The statements of schema version 10: how many leases of each response, endpoint delivery
    /// and notification copy ran out without an outcome (``LeasePolicy``), and the indexes
    /// retention reads devices and notifications by.
    private static func version10(_ dialect: SQLDialect) -> [String] {
        [
            "ALTER TABLE action_responses ADD COLUMN expired_leases INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE endpoint_deliveries ADD COLUMN expired_leases INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE notification_sends ADD COLUMN expired_leases INTEGER NOT NULL DEFAULT 0",
            // Retention finds unregistered devices and old notifications by these.
            "CREATE INDEX devices_unregistered ON devices (state, unregistered_at)",
            "CREATE INDEX notifications_created ON notifications (created_at)",
        ]
    }

    /// The statements of schema version 11: which endpoints a start without their `--forward`
    /// flag paused (as versions before it did); those are resumed by the next start with the flag.
    private static func version11(_ dialect: SQLDialect) -> [String] {
        [
            "ALTER TABLE endpoints ADD COLUMN paused_by_missing_flag INTEGER NOT NULL DEFAULT 0",
            "UPDATE endpoints SET paused_by_missing_flag = 1 WHERE seeded = 1 AND paused = 1",
        ]
    }

    /// Version 12: the queues' indexes end with the claims' whole order (`… next_attempt_at,
    /// response_id` for deliveries, `… next_attempt_at, notification_id, token` for copies), so a
    /// claim reads its few rows from the index instead of sorting the whole backlog (16 ms a claim
    /// behind 17,000 pending deliveries on PostgreSQL, measured).
    private static func version12(_ dialect: SQLDialect) -> [String] {
        [
            // Each statement may run again: a start stopped between two of them finishes the rest.
            "DROP INDEX IF EXISTS endpoint_deliveries_due",
            "CREATE INDEX IF NOT EXISTS endpoint_deliveries_claim ON endpoint_deliveries (endpoint_id, status, next_attempt_at, response_id)",
            "DROP INDEX IF EXISTS notification_sends_due",
            "CREATE INDEX IF NOT EXISTS notification_sends_claim ON notification_sends (state, next_attempt_at, notification_id, token)",
        ]
    }

    /// Version 13: devices on both platforms. A device's `platform` (`ios` for every device
    /// before), each copy's (its transport claims only its own, from an index that starts with
    /// it), and the FCM message of a notification (`NULL` for one recorded before, or without an
    /// Android device).
    private static func version13(_ dialect: SQLDialect) -> [String] {
        // Each statement may run again on PostgreSQL (whose migrations run statement by statement:
        // a start stopped between two finishes the rest); SQLite (the dialect with a rowid, which
        // has no IF NOT EXISTS here) runs a migration in one transaction.
        let add = dialect.rowIdentifier == nil ? "ADD COLUMN IF NOT EXISTS" : "ADD COLUMN"
        return [
            "ALTER TABLE devices \(add) platform TEXT NOT NULL DEFAULT 'ios'",
            "ALTER TABLE notification_sends \(add) platform TEXT NOT NULL DEFAULT 'ios'",
            "ALTER TABLE notifications \(add) fcm_message TEXT",
            "DROP INDEX IF EXISTS notification_sends_claim",
            """
            CREATE INDEX IF NOT EXISTS notification_sends_platform_claim
            ON notification_sends (platform, state, next_attempt_at, notification_id, token)
            """,
        ]
    }

    /// The statements of schema version 14: responses handed to endpoints stop carrying a summary
    /// of their deliveries (each was rewritten with every finished attempt) and are read through
    /// the view; and a partial index of routed rows an older version wrote a status into (empty
    /// but during a rolling upgrade). Each statement may run again.
    private static func version14(_ dialect: SQLDialect) -> [String] {
        [
            "CREATE INDEX IF NOT EXISTS action_responses_unrouted ON action_responses (id) WHERE fanned_out = 1 AND status <> 'routed'",
            ResponseStates.normalize,
            ResponseStates.createView(dialect),
        ]
    }

    /// The statements of schema version 15.
    private static func version15(_ dialect: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE admin_sign_outs (
                session TEXT PRIMARY KEY NOT NULL,
                until_at \(dialect.doubleType) NOT NULL
            )
            """
        ]
    }

    /// Version 16: the counts per minute the admin page draws (`ActivityStore`), added to by
    /// every instance.
    private static func version16(_ dialect: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE activity_minutes (
                minute BIGINT NOT NULL,
                series TEXT NOT NULL,
                subject TEXT NOT NULL,
                count BIGINT NOT NULL,
                PRIMARY KEY (minute, series, subject)
            )
            """
        ]
    }

    /// Version 17: `activity_minutes` by series and minute. Its primary key leads with the minute,
    /// so the buttons' 7 days read every row of those days, the latency buckets of every endpoint
    /// included; by series they read their own rows.
    private static func version17(_ dialect: SQLDialect) -> [String] {
        ["CREATE INDEX activity_minutes_by_series ON activity_minutes (series, minute)"]
    }
}
