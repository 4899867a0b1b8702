public import ActionableWire
import Foundation

/// The `devices` table as every SQL driver stores it: one row per device token.
package enum DeviceTable {

    /// The columns a ``Device`` is read from.
    package static let columns = "token, user_id, platform, environment, state, registered_at, last_sent_at"

    /// A token's user, platform, environment and state; parameter 1 is the token.
    package static func select(_ dialect: SQLDialect) -> String {
        "SELECT user_id, platform, environment, state FROM devices WHERE token = \(dialect.parameter(1))"
    }

    /// Registers a token, active, whatever it was; parameters: token, user, platform, environment, at.
    package static func upsert(_ dialect: SQLDialect) -> String {
        let p = (1...5).map(dialect.parameter)
        return """
            INSERT INTO devices (token, user_id, platform, environment, state, registered_at)
            VALUES (\(p[0]), \(p[1]), \(p[2]), \(p[3]), 'active', \(p[4]))
            ON CONFLICT (token) DO UPDATE SET user_id = excluded.user_id, platform = excluded.platform,
                environment = excluded.environment, state = 'active', registered_at = excluded.registered_at, unregistered_at = NULL
            """
    }

    /// Removes a token; parameter 1 is the token.
    package static func delete(_ dialect: SQLDialect) -> String {
        "DELETE FROM devices WHERE token = \(dialect.parameter(1))"
    }

    /// Removes a token of a user; parameters: token, user.
    package static func deleteOfUser(_ dialect: SQLDialect) -> String {
        "DELETE FROM devices WHERE token = \(dialect.parameter(1)) AND user_id = \(dialect.parameter(2))"
    }

    /// A user's devices, oldest registration first; parameter 1 is the user.
    package static func ofUser(_ dialect: SQLDialect) -> String {
        "SELECT \(columns) FROM devices WHERE user_id = \(dialect.parameter(1)) ORDER BY registered_at, token"
    }

    /// Unregisters an active token not registered after a time; parameters: at, token, since.
    package static func unregister(_ dialect: SQLDialect) -> String {
        """
        UPDATE devices SET state = 'unregistered', unregistered_at = \(dialect.parameter(1))
        WHERE token = \(dialect.parameter(2)) AND state = 'active' AND registered_at <= \(dialect.parameter(3))
        """
    }

    /// A user's registrations of tokens other than one since a time, and the oldest of them;
    /// parameters: user, since, token.
    package static func recentRegistrations(_ dialect: SQLDialect) -> String {
        """
        SELECT CAST(COUNT(*) AS INTEGER) AS recent, MIN(registered_at) AS oldest FROM devices
        WHERE user_id = \(dialect.parameter(1)) AND registered_at > \(dialect.parameter(2)) AND token <> \(dialect.parameter(3))
        """
    }

    /// Unregisters a user's active devices past the newest `maximum` registrations; parameters:
    /// at, user, maximum.
    package static func unregisterOldest(_ dialect: SQLDialect) -> String {
        let p = (1...3).map(dialect.parameter)
        return """
            UPDATE devices SET state = 'unregistered', unregistered_at = \(p[0])
            WHERE user_id = \(p[1]) AND state = 'active' AND token NOT IN (
                SELECT token FROM devices WHERE user_id = \(p[1]) AND state = 'active'
                ORDER BY registered_at DESC, token DESC LIMIT \(p[2]))
            """
    }

    /// A token's row before a registration, as ``select(_:)`` reads it.
    package struct Before: Hashable, Sendable {
        package var user: String
        package var platform: String
        package var environment: String
        package var state: String

        package init(user: String, platform: String, environment: String, state: String) {
            self.user = user
            self.platform = platform
            self.environment = environment
            self.state = state
        }
    }

    /// Whether a registration (from the row before) needs room under ``DeviceLimits``: every one
    /// but a token the user already has active.
    package static func addsDevice(before: Before?, user: String) -> Bool {
        guard let before else { return true }
        return before.user != user || before.state != DeviceState.active.rawValue
    }

    /// What registering did, from the row before (`nil` when there was none).
    package static func registration(
        before: Before?, user: String, platform: DevicePlatform, environment: APNsEnvironment
    ) -> DeviceRegistration {
        guard let before, before.user == user, before.platform == platform.rawValue, before.environment == environment.rawValue else {
            return .created
        }
        return before.state == DeviceState.unregistered.rawValue ? .revived : .known
    }

    /// Reads a row of ``columns``.
    package static func decode(_ row: some ActionRow) throws -> Device {
        Device(
            token: try row.string("token"), user: try row.string("user_id"),
            platform: DevicePlatform(rawValue: try row.string("platform")) ?? .ios,
            environment: APNsEnvironment(rawValue: try row.string("environment")) ?? .production,
            state: DeviceState(rawValue: try row.string("state")) ?? .active,
            registeredAt: Date(timeIntervalSince1970: try row.double("registered_at")),
            lastSentAt: try row.optionalDouble("last_sent_at").map { Date(timeIntervalSince1970: $0) })
    }
}
