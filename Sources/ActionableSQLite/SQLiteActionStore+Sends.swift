public import ActionableStore
public import ActionableWire
public import Foundation
import GRDB

/// The notifications sent, on SQLite: a notification and its copies in one write transaction,
/// copies claimed by one `UPDATE … RETURNING`.
extension SQLiteActionStore {
    public func recordNotification(_ notification: NewNotification, devices: [Device]) async throws -> NotificationRecordResult {
        try await pool.write { db in
            try db.execute(
                sql: SendTable.insertNotification(.sqlite), arguments: Self.arguments(SendTable.insertValues(notification)))
            guard db.changesCount > 0 else {
                guard let row = try Row.fetchOne(db, sql: SendTable.known(.sqlite), arguments: [notification.notificationID]) else {
                    throw StoreError("notification \(notification.notificationID) was neither recorded nor found")
                }
                guard (row[0] as String) == notification.user else { return .otherUser }
                return .recordedBefore(devices: row[1])
            }
            let insert = try db.cachedStatement(sql: SendTable.insertSend(.sqlite))
            for device in devices {
                try insert.execute(arguments: [
                    notification.notificationID, device.token, device.platform.rawValue, device.environment.rawValue,
                    notification.createdAt.timeIntervalSince1970,
                ])
            }
            return .recorded(devices: devices.count)
        }
    }

    public func claimDueSends(
        now: Date, limit: Int, lease: TimeInterval, owner: String, platform: DevicePlatform
    ) async throws -> [ClaimedSend] {
        let time = now.timeIntervalSince1970
        return try await pool.write { db in
            let rows = try Row.fetchAll(
                db, sql: HotSQL.claimSends, arguments: [owner, time + lease, time, limit, platform.rawValue])
            var notifications: [String: NewNotification] = [:]
            var claimed: [ClaimedSend] = []
            for row in rows {
                let id: String = row["notification_id"]
                if notifications[id] == nil {
                    notifications[id] = try Row.fetchOne(db, sql: SendTable.selectNotification(.sqlite), arguments: [id]).map {
                        try SendTable.decodeNotification(SQLiteRow(row: $0))
                    }
                }
                guard let notification = notifications[id] else { continue }
                claimed.append(
                    ClaimedSend(
                        notification: notification, token: row["token"],
                        platform: DevicePlatform(rawValue: row["platform"]) ?? .ios,
                        environment: APNsEnvironment(rawValue: row["environment"]) ?? .production, attempts: row["attempts"],
                        expiredLeases: row["expired_leases"]))
            }
            return claimed.sorted {
                ($0.notification.createdAt, $0.notification.notificationID, $0.token) < (
                    $1.notification.createdAt, $1.notification.notificationID, $1.token
                )
            }
        }
    }

    public func finishSend(notificationID: String, token: String, owner: String, outcome: SendOutcome, at: Date) async throws {
        try await finishSends([FinishedSend(notificationID: notificationID, token: token, outcome: outcome, at: at)], owner: owner)
    }

    public func finishSends(_ finished: [FinishedSend], owner: String) async throws {
        guard !finished.isEmpty else { return }
        try await pool.write { db in
            for send in finished {
                let (state, status, reason, next) = SendTable.finishing(send.outcome)
                try db.run(
                    SendTable.finish(.sqlite),
                    [state.rawValue, status, reason, next?.timeIntervalSince1970, send.notificationID, send.token, owner])
                if db.changesCount > 0, state == .sent {
                    try db.run(SendTable.markDeviceSent(.sqlite), [send.at.timeIntervalSince1970, send.token])
                }
            }
        }
    }

    public func notification(id: String) async throws -> StoredNotification? {
        try await pool.read { db in
            guard let row = try Row.fetchOne(db, sql: SendTable.selectNotification(.sqlite), arguments: [id]) else { return nil }
            let notification = try SendTable.decodeNotification(SQLiteRow(row: row))
            let sends = try Row.fetchAll(db, sql: SendTable.selectSends(.sqlite), arguments: [id]).map { row in
                DeviceSend(
                    token: row["token"], platform: DevicePlatform(rawValue: row["platform"]) ?? .ios,
                    environment: APNsEnvironment(rawValue: row["environment"]) ?? .production,
                    state: SendState(rawValue: row["state"]) ?? .pending, status: row["status"], reason: row["reason"],
                    attempts: row["attempts"])
            }
            return StoredNotification(notification: notification, sends: sends)
        }
    }

    public func shareProviderToken(
        keyID: String, candidate: String, issuedAt: Date, reuseIfIssuedAfter: Date
    ) async throws
        -> SharedProviderToken
    {
        try await pool.write { db in
            let arguments: StatementArguments = [keyID, candidate, issuedAt.timeIntervalSince1970, reuseIfIssuedAfter.timeIntervalSince1970]
            let row =
                try Row.fetchOne(db, sql: SendTable.shareToken(.sqlite), arguments: arguments)
                ?? Row.fetchOne(db, sql: SendTable.selectToken(.sqlite), arguments: [keyID])
            guard let row else { return SharedProviderToken(token: candidate, issuedAt: issuedAt) }
            return SharedProviderToken(token: row["token"], issuedAt: Date(timeIntervalSince1970: row["issued_at"]))
        }
    }
}
