import ActionableWire
import Foundation

/// Whether a device takes notifications.
public enum DeviceState: String, Hashable, Sendable, CaseIterable, Codable {
    /// Notifications are sent to it.
    case active
    /// APNs said the token is no longer valid (410, or a bad token for its topic); it is
    /// active again once the app registers it again.
    case unregistered
}

/// One device of a user: the token iOS handed the app, and what the server knows of it.
public struct Device: Hashable, Sendable {
    /// The device token, lowercase hexadecimal.
    public var token: String
    /// The user it belongs to (the last one who registered it).
    public var user: String
    /// Its APNs environment.
    public var environment: APNsEnvironment
    /// Whether notifications are sent to it.
    public var state: DeviceState
    /// When it was last registered.
    public var registeredAt: Date
    /// When a notification was last sent to it.
    public var lastSentAt: Date?

    /// A device.
    public init(
        token: String, user: String, environment: APNsEnvironment, state: DeviceState, registeredAt: Date, lastSentAt: Date? = nil
    ) {
        self.token = token
        self.user = user
        self.environment = environment
        self.state = state
        self.registeredAt = registeredAt
        self.lastSentAt = lastSentAt
    }
}

/// What registering a device did.
public enum DeviceRegistration: Hashable, Sendable {
    /// The token was new, or it belonged to another user or environment before.
    case created
    /// The token was active for this user and environment already (its registration time is
    /// renewed).
    case known
    /// The token was unregistered and is active again.
    case revived
}

/// The devices of each user, to send to. Every store keeps them (the same conformance suite
/// runs on every driver):
///
/// - a token belongs to one user: registering it for another moves it;
/// - registering again renews the registration time, and revives an unregistered token;
/// - APNs' 410 unregisters a token only if it was not registered again after Apple's timestamp.
public protocol DeviceRegistry: Sendable {
    /// Registers `token` of `environment` for `user` at `at`.
    func register(token: String, user: String, environment: APNsEnvironment, at: Date) async throws -> DeviceRegistration

    /// Removes `token`, only if it is `user`'s when `user` is given; whether it was there.
    func removeDevice(token: String, user: String?) async throws -> Bool

    /// The devices of `user`, oldest registration first.
    func devices(of user: String) async throws -> [Device]

    /// Marks `token` unregistered at `at`, unless it was registered again after `since`
    /// (Apple's timestamp; `nil` unregisters it whatever its registration time); whether it changed.
    func markUnregistered(token: String, since: Date?, at: Date) async throws -> Bool
}
