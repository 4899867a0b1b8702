/// `POST /v1/send`'s answer (`SendAccepted` in `openapi.yaml`): 202 when the notification was
/// taken now, 200 when its id was taken before (nothing is sent twice).
public struct SendAccepted: Codable, Hashable, Sendable {
    /// The notification's id: the one given, or one the server made.
    public var notificationId: String
    /// How many of the user's devices it goes to.
    public var devices: Int

    /// An answer.
    public init(notificationId: String, devices: Int) {
        self.notificationId = notificationId
        self.devices = devices
    }
}

/// One device's copy of a sent notification (`NotificationDevice` in `openapi.yaml`).
public struct NotificationDevice: Codable, Hashable, Sendable {
    /// The device token.
    public var token: String
    /// `ios` (sent through APNs) or `android` (through FCM).
    public var platform: String
    /// `pending`, `sent`, `failed` or `unregistered`.
    public var state: String
    /// APNs' or FCM's last HTTP status; `null` before its first answer (always present).
    @Nullable public var status: Int?
    /// APNs' or FCM's last reason, or why the last attempt failed; `null` when there is none.
    @Nullable public var reason: String?
    /// Attempts started.
    public var attempts: Int

    /// A device's copy.
    public init(token: String, platform: String = "ios", state: String, status: Int?, reason: String?, attempts: Int) {
        self.token = token
        self.platform = platform
        self.state = state
        self.status = status
        self.reason = reason
        self.attempts = attempts
    }
}

/// `GET /v1/notifications/{id}` (`NotificationReport` in `openapi.yaml`): a notification the
/// server sent, and where each device's copy stands. Times are Unix seconds.
public struct NotificationReport: Codable, Hashable, Sendable {
    /// The notification's id.
    public var notificationId: String
    /// The user it went to.
    public var user: String
    /// Its category.
    public var category: String
    /// When the server took it.
    public var sentAt: Double
    /// Each device's copy.
    public var devices: [NotificationDevice]

    /// A report.
    public init(notificationId: String, user: String, category: String, sentAt: Double, devices: [NotificationDevice]) {
        self.notificationId = notificationId
        self.user = user
        self.category = category
        self.sentAt = sentAt
        self.devices = devices
    }
}
