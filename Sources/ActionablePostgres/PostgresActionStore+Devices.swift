public import ActionableStore
public import ActionableWire
public import Foundation
import PostgresNIO

/// The device registry on PostgreSQL. A registration runs in a transaction holding an advisory
/// lock on its token, so that two instances registering the same token at once answer
/// `created` once and `known` once.
extension PostgresActionStore {
    /// Also holds an advisory lock on the user, so that the limits count every registration of
    /// that user on every instance.
    public func register(
        token: String, user: String, platform: DevicePlatform, environment: APNsEnvironment, at: Date, limits: DeviceLimits
    ) async throws
        -> DeviceRegistration
    {
        let logger = self.logger
        let time = at.timeIntervalSince1970
        do {
            return try await client.withTransaction(logger: logger) { connection in
                if limits != .none {
                    try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(user), 7108))", logger: logger)
                }
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(token), 7106))", logger: logger)
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: DeviceTable.select(.postgres), binds: try Self.bindings(token)), logger: logger)
                var before: DeviceTable.Before?
                for try await (user, platform, environment, state) in rows.decode((String, String, String, String).self) {
                    before = DeviceTable.Before(user: user, platform: platform, environment: environment, state: state)
                }
                if limits.registrationsPerHour > 0, DeviceTable.addsDevice(before: before, user: user) {
                    let recent = try await connection.query(
                        PostgresQuery(
                            unsafeSQL: DeviceTable.recentRegistrations(.postgres),
                            binds: try Self.bindings(user, time - DeviceLimits.window, token)), logger: logger)
                    for try await (count, oldest) in recent.decode((Int, Double?).self) {
                        if let wait = limits.wait(recent: count, oldest: oldest.map(Date.init(timeIntervalSince1970:)), now: at) {
                            return .throttled(retryAfter: wait)
                        }
                    }
                }
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: DeviceTable.upsert(.postgres),
                        binds: try Self.bindings(token, user, platform.rawValue, environment.rawValue, time)),
                    logger: logger)
                if limits.maximumActive > 0 {
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: DeviceTable.unregisterOldest(.postgres), binds: try Self.bindings(time, user, limits.maximumActive)),
                        logger: logger)
                }
                return DeviceTable.registration(before: before, user: user, platform: platform, environment: environment)
            }
        } catch {
            throw Self.readable(error)
        }
    }

    public func removeDevice(token: String, user: String?) async throws -> Bool {
        let query =
            if let user {
                PostgresQuery(unsafeSQL: DeviceTable.deleteOfUser(.postgres) + " RETURNING token", binds: try Self.bindings(token, user))
            } else {
                PostgresQuery(unsafeSQL: DeviceTable.delete(.postgres) + " RETURNING token", binds: try Self.bindings(token))
            }
        return try await changedAny(query)
    }

    public func devices(of user: String) async throws -> [Device] {
        do {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: DeviceTable.ofUser(.postgres), binds: try Self.bindings(user)), logger: logger)
            var devices: [Device] = []
            for try await row in rows { devices.append(try DeviceTable.decode(PostgresActionRow(columns: row.makeRandomAccess()))) }
            return devices
        } catch {
            throw Self.readable(error)
        }
    }

    public func markUnregistered(token: String, since: Date?, at: Date) async throws -> Bool {
        try await changedAny(
            PostgresQuery(
                unsafeSQL: DeviceTable.unregister(.postgres) + " RETURNING token",
                binds: try Self.bindings(at.timeIntervalSince1970, token, (since ?? .distantFuture).timeIntervalSince1970)))
    }

    /// Runs `query` (ending in `RETURNING`); whether it returned a row.
    private func changedAny(_ query: PostgresQuery) async throws -> Bool {
        do {
            let rows = try await client.query(query, logger: logger)
            var changed = false
            for try await _ in rows { changed = true }
            return changed
        } catch {
            throw Self.readable(error)
        }
    }
}
