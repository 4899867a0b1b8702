/// `POST /v1/devices` (`DeviceRegistration` in `openapi.yaml`): on iOS the token iOS handed the
/// app in `didRegisterForRemoteNotificationsWithDeviceToken`, in hexadecimal, and its APNs
/// environment; on Android the FCM registration token `onNewToken` handed the app.
public struct DeviceRegistrationRequest: Codable, Hashable, Sendable {
    /// The device token: hexadecimal on iOS, FCM's registration token as it is on Android.
    public var token: String
    /// `ios` (when left out) or `android`.
    public var platform: String?
    /// iOS only: `production` (App Store, TestFlight) or `sandbox` (run from Xcode).
    public var environment: String?

    /// A registration.
    public init(token: String, environment: String?, platform: String? = nil) {
        self.token = token
        self.environment = environment
        self.platform = platform
    }
}

/// One device as the server answers it (`DeviceItem` in `openapi.yaml`). Times are Unix seconds.
public struct DeviceItem: Codable, Hashable, Sendable {
    /// The device token: lowercase hexadecimal on iOS, FCM's registration token on Android.
    public var token: String
    /// `ios` or `android`.
    public var platform: String
    /// iOS only: `production` or `sandbox` (left out for an Android device).
    public var environment: String?
    /// `active` or `unregistered`.
    public var state: String
    /// When it was last registered.
    public var registeredAt: Double
    /// When a notification was last sent to it; `null` before the first (always present).
    @Nullable public var lastSentAt: Double?

    /// A device's item.
    public init(token: String, platform: String = "ios", environment: String?, state: String, registeredAt: Double, lastSentAt: Double?) {
        self.token = token
        self.platform = platform
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
