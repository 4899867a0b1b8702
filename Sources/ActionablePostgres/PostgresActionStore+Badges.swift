public import ActionableStore
public import Foundation
import PostgresNIO

/// The badge ledger on PostgreSQL. A record or a read runs in a transaction that first takes a
/// transaction-scoped advisory lock on its user, so that the number it answers counts every
/// record and read of that user committed before it, across instances (two sends at once get
/// two different numbers, not the same one twice).
extension PostgresActionStore {
    public func recordSent(_ notification: SentNotification, countingSince: Date) async throws -> BadgeRecordResult {
        try await userTransaction(notification.user) { connection, logger in
            let inserted = try await connection.query(
                PostgresQuery(
                    unsafeSQL: BadgeTable.insertSent(.postgres) + " RETURNING notification_id",
                    binds: try Self.bindings(
                        notification.notificationID, notification.user, notification.category, notification.sentAt.timeIntervalSince1970)),
                logger: logger)
            var created = false
            for try await _ in inserted { created = true }
            if !created {
                let owner = try await connection.query(
                    PostgresQuery(unsafeSQL: BadgeTable.userOfNotification(.postgres), binds: try Self.bindings(notification.notificationID)),
                    logger: logger)
                var user: String?
                for try await found in owner.decode(String.self) { user = found }
                guard user == notification.user else { return .otherUser }
            }
            let badge = try await Self.badge(of: notification.user, since: countingSince, on: connection, logger: logger)
            return created ? .recorded(badge: badge) : .recordedBefore(badge: badge)
        }
    }

    public func markRead(user: String, notificationIDs: [String], at: Date, countingSince: Date) async throws -> Int {
        try await userTransaction(user) { connection, logger in
            try await connection.query(
                """
                UPDATE badge_entries SET read_at = \(at.timeIntervalSince1970)
                WHERE user_id = \(user) AND notification_id = ANY(\(Array(Set(notificationIDs)))::text[]) AND read_at IS NULL
                """, logger: logger)
            return try await Self.badge(of: user, since: countingSince, on: connection, logger: logger)
        }
    }

    public func markAllRead(user: String, at: Date, countingSince: Date) async throws -> Int {
        try await userTransaction(user) { connection, logger in
            try await connection.query(
                PostgresQuery(unsafeSQL: BadgeTable.markAllRead(.postgres), binds: try Self.bindings(at.timeIntervalSince1970, user)),
                logger: logger)
            return try await Self.badge(of: user, since: countingSince, on: connection, logger: logger)
        }
    }

    public func badge(user: String, countingSince: Date) async throws -> Int {
        try await client.withConnection { connection in
            try await Self.badge(of: user, since: countingSince, on: connection, logger: self.logger)
        }
    }

    public func unreadTotal(countingSince: Date) async throws -> Int {
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: BadgeTable.total(.postgres), binds: try Self.bindings(countingSince.timeIntervalSince1970)),
            logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Runs `body` in a transaction holding the advisory lock of `user`.
    private func userTransaction<Result: Sendable>(
        _ user: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(user), 7105))", logger: logger)
                return try await body(connection, logger)
            }
        } catch {
            throw Self.readable(error)
        }
    }

    private static func badge(of user: String, since: Date, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: BadgeTable.count(.postgres), binds: try bindings(user, since.timeIntervalSince1970)), logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    static func bindings(_ values: any PostgresEncodable & Sendable...) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { try bindings.append(value, context: .default) }
        return bindings
    }
}
