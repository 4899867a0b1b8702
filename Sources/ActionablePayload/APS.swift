/// The `aps` dictionary of a notification: what iOS reads. `category` is set by
/// ``PayloadBuilder`` from the checked catalog, never by hand.
public struct APS: Hashable, Sendable {
    /// The alert: a body string, or a dictionary with title, subtitle, body and their
    /// localization keys.
    public var alert: Alert?
    /// The badge number; 0 removes the badge.
    public var badge: Int?
    /// A sound name, or the critical-alert dictionary.
    public var sound: Sound?
    /// `thread-id`: notifications with the same id are grouped.
    public var threadID: String?
    /// `content-available: 1`: wake the app in the background.
    public var contentAvailable: Bool
    /// `mutable-content: 1`: let a notification service extension change it.
    public var mutableContent: Bool
    /// `target-content-id`: the window or content to bring forward.
    public var targetContentID: String?
    /// `interruption-level` (iOS 15+).
    public var interruptionLevel: InterruptionLevel?
    /// `relevance-score`, 0 to 1 (iOS 15+).
    public var relevanceScore: Double?
    /// `filter-criteria`: the Focus filter it belongs to (iOS 15+).
    public var filterCriteria: String?

    /// Creates an `aps` dictionary.
    public init(
        alert: Alert? = nil, badge: Int? = nil, sound: Sound? = nil, threadID: String? = nil,
        contentAvailable: Bool = false, mutableContent: Bool = false, targetContentID: String? = nil,
        interruptionLevel: InterruptionLevel? = nil, relevanceScore: Double? = nil, filterCriteria: String? = nil
    ) {
        self.alert = alert
        self.badge = badge
        self.sound = sound
        self.threadID = threadID
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
        self.targetContentID = targetContentID
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
    }

    /// The alert of a notification.
    public enum Alert: Hashable, Sendable {
        /// Just a body.
        case body(String)
        /// Title, subtitle, body and their localized forms.
        case fields(AlertFields)
    }

    /// The alert dictionary. Set the plain text, or the `loc-key` forms the app localizes.
    public struct AlertFields: Hashable, Sendable {
        public var title: String?
        public var subtitle: String?
        public var body: String?
        /// `title-loc-key` and `title-loc-args`.
        public var titleLocKey: String?
        public var titleLocArgs: [String]?
        /// `subtitle-loc-key` and `subtitle-loc-args`.
        public var subtitleLocKey: String?
        public var subtitleLocArgs: [String]?
        /// `loc-key` and `loc-args` (the body).
        public var locKey: String?
        public var locArgs: [String]?
        /// `launch-image`.
        public var launchImage: String?

        /// Creates an alert dictionary.
        public init(
            title: String? = nil, subtitle: String? = nil, body: String? = nil, titleLocKey: String? = nil,
            titleLocArgs: [String]? = nil, subtitleLocKey: String? = nil, subtitleLocArgs: [String]? = nil,
            locKey: String? = nil, locArgs: [String]? = nil, launchImage: String? = nil
        ) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.titleLocKey = titleLocKey
            self.titleLocArgs = titleLocArgs
            self.subtitleLocKey = subtitleLocKey
            self.subtitleLocArgs = subtitleLocArgs
            self.locKey = locKey
            self.locArgs = locArgs
            self.launchImage = launchImage
        }
    }

    /// The sound of a notification.
    public enum Sound: Hashable, Sendable {
        /// A sound file in the app bundle, or `default`.
        case named(String)
        /// A critical alert sound (needs Apple's entitlement), volume 0 to 1.
        case critical(name: String, volume: Double)
    }

    /// How urgently the notification interrupts (`interruption-level`).
    public struct InterruptionLevel: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Delivered quietly.
        public static let passive = InterruptionLevel(rawValue: "passive")
        /// The default.
        public static let active = InterruptionLevel(rawValue: "active")
        /// Breaks through Focus (needs the capability).
        public static let timeSensitive = InterruptionLevel(rawValue: "time-sensitive")
        /// Breaks through mute and Focus (needs Apple's entitlement).
        public static let critical = InterruptionLevel(rawValue: "critical")

        static let known: [InterruptionLevel] = [.passive, .active, .timeSensitive, .critical]
    }
}

/// The kind of push, which decides the size limit APNs enforces.
public struct PushType: Hashable, Sendable {
    /// The `apns-push-type` header value.
    public let name: String
    /// The largest payload APNs accepts for it, in bytes.
    public let maximumPayloadSize: Int

    /// Alert and other regular notifications: 4096 bytes.
    public static let alert = PushType(name: "alert", maximumPayloadSize: 4096)
    /// Background (content-available) notifications: 4096 bytes.
    public static let background = PushType(name: "background", maximumPayloadSize: 4096)
    /// VoIP notifications: 5120 bytes.
    public static let voip = PushType(name: "voip", maximumPayloadSize: 5120)
}
