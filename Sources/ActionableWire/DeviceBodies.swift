/// `POST /v1/devices` (`DeviceRegistration` in `openapi.yaml`): the token iOS handed the app in
/// `didRegisterForRemoteNotificationsWithDeviceToken`, in hexadecimal, and its APNs environment.
public struct DeviceRegistrationRequest: Codable, Hashable, Sendable {
    /// The device token, hexadecimal.
    public var token: String
    /// `production` (App Store, TestFlight) or `sandbox` (run from Xcode).
    public var environment: String

    /// A registration.
    public init(token: String, environment: String) {
        self.token = token
        self.environment = environment
    }
}

/// One device as the server answers it (`DeviceItem` in `openapi.yaml`). Times are Unix seconds.
public struct DeviceItem: Codable, Hashable, Sendable {
    /// The device token, lowercase hexadecimal.
    public var token: String
    /// `production` or `sandbox`.
    public var environment: String
    /// `active` or `unregistered`.
    public var state: String
    /// When it was last registered.
    public var registeredAt: Double
    /// When a notification was last sent to it; `null` before the first (always present).
    @Nullable public var lastSentAt: Double?

    /// A device's item.
    public init(token: String, environment: String, state: String, registeredAt: Double, lastSentAt: Double?) {
        self.token = token
        self.environment = environment
        self.state = state
        self.registeredAt = registeredAt
        self.lastSentAt = lastSentAt
    }
}

/// `GET /v1/devices/{user}` (`DeviceList` in `openapi.yaml`): the user's devices, oldest
/// registration first.
public struct DeviceList: Codable, Hashable, Sendable {
    /// The devices.
    public var items: [DeviceItem]

    /// A list.
    public init(items: [DeviceItem]) { self.items = items }
}
