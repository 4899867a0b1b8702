public import ActionableWire
public import Foundation

/// Whether a device takes notifications.
public enum DeviceState: String, Hashable, Sendable, CaseIterable, Codable {
    /// Notifications are sent to it.
    case active
    /// APNs said the token is no longer valid (410, or a bad token for its topic); it is
    /// active again once the app registers it again.
    case unregistered
}

/// One device of a user: the token iOS (or FCM on Android) handed the app, and what the server
/// knows of it.
public struct Device: Hashable, Sendable {
    /// The device token: lowercase hexadecimal for iOS, FCM's registration token as it is for
    /// Android.
    public var token: String
    /// The user it belongs to (the last one who registered it).
    public var user: String
    /// Which push service reaches it.
    public var platform: DevicePlatform
    /// Its APNs environment (iOS only: an Android device's is `production` and means nothing).
    public var environment: APNsEnvironment
    /// Whether notifications are sent to it.
    public var state: DeviceState
    /// When it was last registered.
    public var registeredAt: Date
    /// When a notification was last sent to it.
    public var lastSentAt: Date?

    /// A device.
    public init(
        token: String, user: String, platform: DevicePlatform = .ios, environment: APNsEnvironment, state: DeviceState, registeredAt: Date,
        lastSentAt: Date? = nil
    ) {
        self.token = token
        self.user = user
        self.platform = platform
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
    /// Refused: the user registered ``DeviceLimits/registrationsPerHour`` devices within the last
    /// hour; they may register another in `retryAfter` seconds. Nothing changed.
    case throttled(retryAfter: Int)
}

/// How many devices one user may have: a user (or whoever holds one user's app JWT) cannot grow
/// the registry, or the fan-out of each send to them, without bound.
public struct DeviceLimits: Hashable, Sendable {
    /// The most active devices of one user (`--max-devices-per-user`); a registration past it
    /// unregisters the user's oldest registration. 0: no limit.
    public var maximumActive: Int
    /// The most registrations of new (or moved, or revived) tokens of one user within an hour; a
    /// token the user already has active registers again freely. 0: no limit.
    public var registrationsPerHour: Int

    /// Limits of `maximumActive` devices and `registrationsPerHour` registrations an hour.
    public init(maximumActive: Int = 100, registrationsPerHour: Int = 60) {
        self.maximumActive = maximumActive
        self.registrationsPerHour = registrationsPerHour
    }

    /// No limits.
    public static let none = DeviceLimits(maximumActive: 0, registrationsPerHour: 0)

    /// The window registrations are counted in.
    public static let window: TimeInterval = 3600

    /// Whether `recent` registrations in the window (the oldest at `oldest`) leave room for one
    /// more at `now`: `nil`, or the seconds to wait.
    public func wait(recent: Int, oldest: Date?, now: Date) -> Int? {
        guard registrationsPerHour > 0, recent >= registrationsPerHour else { return nil }
        let until = (oldest ?? now).addingTimeInterval(Self.window).timeIntervalSince(now)
        return max(1, Int(min(max(until, 1), Self.window).rounded(.up)))
    }
}

/// The devices of each user, to send to. Every store keeps them (the same conformance suite
/// runs on every driver):
///
/// - a token belongs to one user: registering it for another moves it;
/// - registering again renews the registration time, and revives an unregistered token;
/// - APNs' 410 unregisters a token only if it was not registered again after Apple's timestamp.
public protocol DeviceRegistry: Sendable {
    /// Registers `token` of `platform` (and, for iOS, `environment`) for `user` at `at`, within
    /// `limits`, in one transaction: a new token past ``DeviceLimits/registrationsPerHour`` is
    /// ``DeviceRegistration/throttled(retryAfter:)``; past ``DeviceLimits/maximumActive`` (both
    /// platforms counted together), the user's oldest active registrations are unregistered.
    func register(
        token: String, user: String, platform: DevicePlatform, environment: APNsEnvironment, at: Date, limits: DeviceLimits
    ) async throws
        -> DeviceRegistration

    /// Removes `token`, only if it is `user`'s when `user` is given; whether it was there.
    func removeDevice(token: String, user: String?) async throws -> Bool

    /// The devices of `user`, oldest registration first.
    func devices(of user: String) async throws -> [Device]

    /// Marks `token` unregistered at `at`, unless it was registered again after `since`
    /// (Apple's timestamp; `nil` unregisters it whatever its registration time); whether it changed.
    func markUnregistered(token: String, since: Date?, at: Date) async throws -> Bool
}

extension DeviceRegistry {
    /// Registers an iOS device's `token` of `environment` for `user` at `at`, within `limits`.
    public func register(
        token: String, user: String, environment: APNsEnvironment, at: Date, limits: DeviceLimits = .none
    ) async throws
        -> DeviceRegistration
    {
        try await register(token: token, user: user, platform: .ios, environment: environment, at: at, limits: limits)
    }
}
