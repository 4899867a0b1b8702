public import ActionableStore
public import ActionableWire
public import Foundation
import GRDB

/// The device registry on SQLite: each change is one write transaction (the writer is one
/// connection, so the row read before a registration is the row the registration replaces).
extension SQLiteActionStore {
    public func register(
        token: String, user: String, platform: DevicePlatform, environment: APNsEnvironment, at: Date, limits: DeviceLimits
    ) async throws
        -> DeviceRegistration
    {
        let time = at.timeIntervalSince1970
        return try await pool.write { db in
            let before = try Row.fetchOne(db, sql: DeviceTable.select(.sqlite), arguments: [token]).map {
                DeviceTable.Before(user: $0["user_id"], platform: $0["platform"], environment: $0["environment"], state: $0["state"])
            }
            if limits.registrationsPerHour > 0, DeviceTable.addsDevice(before: before, user: user),
                let recent = try Row.fetchOne(
                    db, sql: DeviceTable.recentRegistrations(.sqlite), arguments: [user, time - DeviceLimits.window, token]),
                let wait = limits.wait(
                    recent: recent["recent"], oldest: (recent["oldest"] as Double?).map(Date.init(timeIntervalSince1970:)), now: at)
            {
                return .throttled(retryAfter: wait)
            }
            try db.execute(sql: DeviceTable.upsert(.sqlite), arguments: [token, user, platform.rawValue, environment.rawValue, time])
            if limits.maximumActive > 0 {
                try db.execute(sql: DeviceTable.unregisterOldest(.sqlite), arguments: [time, user, limits.maximumActive])
            }
            return DeviceTable.registration(before: before, user: user, platform: platform, environment: environment)
        }
    }

    public func removeDevice(token: String, user: String?) async throws -> Bool {
        try await pool.write { db in
            if let user {
                try db.execute(sql: DeviceTable.deleteOfUser(.sqlite), arguments: [token, user])
            } else {
                try db.execute(sql: DeviceTable.delete(.sqlite), arguments: [token])
            }
            return db.changesCount > 0
        }
    }

    public func devices(of user: String) async throws -> [Device] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: DeviceTable.ofUser(.sqlite), arguments: [user]).map { try DeviceTable.decode(SQLiteRow(row: $0)) }
        }
    }

    public func markUnregistered(token: String, since: Date?, at: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: DeviceTable.unregister(.sqlite),
                arguments: [at.timeIntervalSince1970, token, (since ?? .distantFuture).timeIntervalSince1970])
            return db.changesCount > 0
        }
    }
}
