public import ActionableStore
public import ActionableWire
public import Foundation
import PostgresNIO

/// The notifications sent, on PostgreSQL: a notification and its copies in one transaction,
/// copies claimed with `FOR UPDATE SKIP LOCKED` so that instances never claim one copy twice.
extension PostgresActionStore {
    public func recordNotification(_ notification: NewNotification, devices: [Device]) async throws -> NotificationRecordResult {
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let inserted = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: SendTable.insertNotification(.postgres) + " RETURNING notification_id",
                        binds: try Self.sqlBindings(SendTable.insertValues(notification))), logger: logger)
                var created = false
                for try await _ in inserted { created = true }
                guard created else {
                    let rows = try await connection.query(
                        PostgresQuery(unsafeSQL: SendTable.known(.postgres), binds: try Self.bindings(notification.notificationID)),
                        logger: logger)
                    for try await (user, count) in rows.decode((String, Int).self) {
                        return user == notification.user ? .recordedBefore(devices: count) : .otherUser
                    }
                    throw StoreError("notification \(notification.notificationID) was neither recorded nor found")
                }
                for device in devices {
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: SendTable.insertSend(.postgres),
                            binds: try Self.bindings(
                                notification.notificationID, device.token, device.platform.rawValue, device.environment.rawValue,
                                notification.createdAt.timeIntervalSince1970)), logger: logger)
                }
                if !devices.isEmpty { try await self.notifyOutbox(connection, logger) }
                return .recorded(devices: devices.count)
            }
        } catch {
            throw Self.readable(error)
        }
    }

    public func claimDueSends(
        now: Date, limit: Int, lease: TimeInterval, owner: String, platform: DevicePlatform
    ) async throws -> [ClaimedSend] {
        let time = now.timeIntervalSince1970
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let rows = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: Self.claimSendsSQL, binds: try Self.bindings(owner, time + lease, time, limit, platform.rawValue)),
                    logger: logger)
                var copies: [(String, String, String, String, Int, Int)] = []
                for try await copy in rows.decode((String, String, String, String, Int, Int).self) { copies.append(copy) }
                var notifications: [String: NewNotification] = [:]
                for id in Set(copies.map(\.0)) {
                    let found = try await connection.query(
                        PostgresQuery(unsafeSQL: SendTable.selectNotification(.postgres), binds: try Self.bindings(id)), logger: logger)
                    for try await row in found {
                        notifications[id] = try SendTable.decodeNotification(PostgresActionRow(columns: row.makeRandomAccess()))
                    }
                }
                return copies.compactMap { id, token, platform, environment, attempts, expiredLeases in
                    notifications[id].map {
                        ClaimedSend(
                            notification: $0, token: token, platform: DevicePlatform(rawValue: platform) ?? .ios,
                            environment: APNsEnvironment(rawValue: environment) ?? .production,
                            attempts: attempts, expiredLeases: expiredLeases)
                    }
                }.sorted {
                    ($0.notification.createdAt, $0.notification.notificationID, $0.token)
                        < ($1.notification.createdAt, $1.notification.notificationID, $1.token)
                }
            }
        } catch {
            throw Self.readable(error)
        }
    }

    public func finishSend(notificationID: String, token: String, owner: String, outcome: SendOutcome, at: Date) async throws {
        try await finishSends([FinishedSend(notificationID: notificationID, token: token, outcome: outcome, at: at)], owner: owner)
    }

    public func finishSends(_ sends: [FinishedSend], owner: String) async throws {
        guard !sends.isEmpty else { return }
        let logger = self.logger
        do {
            try await client.withTransaction(logger: logger) { connection in
                // One lock order for every instance sharing the database: the copies sorted by
                // notification and token, then the devices they date sorted by token (instances
                // finishing copies of different notifications for the same devices at once would
                // otherwise lock those devices in opposite orders, and deadlock).
                var sentAt: [String: Double] = [:]
                for send in sends.sorted(by: { ($0.notificationID, $0.token) < ($1.notificationID, $1.token) }) {
                    let (state, status, reason, next) = SendTable.finishing(send.outcome)
                    let finished = try await connection.query(
                        PostgresQuery(
                            unsafeSQL: SendTable.finish(.postgres) + " RETURNING token",
                            binds: try Self.sendBindings([
                                state.rawValue, status, reason, next?.timeIntervalSince1970, send.notificationID, send.token, owner,
                            ])), logger: logger)
                    var changed = false
                    for try await _ in finished { changed = true }
                    if changed, state == .sent {
                        sentAt[send.token] = max(sentAt[send.token] ?? 0, send.at.timeIntervalSince1970)
                    }
                }
                for token in sentAt.keys.sorted() {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: SendTable.markDeviceSent(.postgres), binds: try Self.bindings(sentAt[token] ?? 0, token)),
                        logger: logger)
                }
            }
        } catch {
            throw Self.readable(error)
        }
    }

    public func notification(id: String) async throws -> StoredNotification? {
        do {
            var notification: NewNotification?
            for try await row in try await client.query(
                PostgresQuery(unsafeSQL: SendTable.selectNotification(.postgres), binds: try Self.bindings(id)), logger: logger)
            {
                notification = try SendTable.decodeNotification(PostgresActionRow(columns: row.makeRandomAccess()))
            }
            guard let notification else { return nil }
            var sends: [DeviceSend] = []
            for try await (token, platform, environment, state, status, reason, attempts) in try await client.query(
                PostgresQuery(unsafeSQL: SendTable.selectSends(.postgres), binds: try Self.bindings(id)), logger: logger
            ).decode((String, String, String, String, Int?, String?, Int).self) {
                sends.append(
                    DeviceSend(
                        token: token, platform: DevicePlatform(rawValue: platform) ?? .ios,
                        environment: APNsEnvironment(rawValue: environment) ?? .production, state: SendState(rawValue: state) ?? .pending,
                        status: status, reason: reason, attempts: attempts))
            }
            return StoredNotification(notification: notification, sends: sends)
        } catch {
            throw Self.readable(error)
        }
    }

    /// Bindings of values that may be `NULL` (a `nil` binds a typed `NULL`).
    static func sendBindings(_ values: [(any PostgresEncodable & Sendable)?]) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values {
            if let value { try bindings.append(value) } else { bindings.appendNull() }
        }
        return bindings
    }

    public func shareProviderToken(
        keyID: String, candidate: String, issuedAt: Date, reuseIfIssuedAfter: Date
    ) async throws
        -> SharedProviderToken
    {
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { connection in
                // A concurrent upsert of the same key waits for this one and then finds it newer.
                let replaced = try await connection.query(
                    PostgresQuery(
                        unsafeSQL: SendTable.shareToken(.postgres),
                        binds: try Self.bindings(keyID, candidate, issuedAt.timeIntervalSince1970, reuseIfIssuedAfter.timeIntervalSince1970)),
                    logger: logger)
                for try await (token, issued) in replaced.decode((String, Double).self) {
                    return SharedProviderToken(token: token, issuedAt: Date(timeIntervalSince1970: issued))
                }
                let stored = try await connection.query(
                    PostgresQuery(unsafeSQL: SendTable.selectToken(.postgres), binds: try Self.bindings(keyID)), logger: logger)
                for try await (token, issued) in stored.decode((String, Double).self) {
                    return SharedProviderToken(token: token, issuedAt: Date(timeIntervalSince1970: issued))
                }
                return SharedProviderToken(token: candidate, issuedAt: issuedAt)
            }
        } catch {
            throw Self.readable(error)
        }
    }
}
