public import ActionableCore
import Foundation

/// The body of `POST /v1/send` (`SendRequest` in `openapi.yaml`): what to send to each of a
/// user's devices. The server checks it as `PayloadBuilder` does, mints the action token and
/// records the payload a tap forwards.
public struct SendRequest: Codable, Sendable {
    /// What the notification shows.
    public enum Alert: Codable, Hashable, Sendable {
        /// Just a body.
        case text(String)
        /// A title, subtitle and body, each optional.
        case fields(title: String?, subtitle: String?, body: String?)

        private enum Key: String, CodingKey { case title, subtitle, body }

        public init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self = .text(text)
                return
            }
            let container = try decoder.container(keyedBy: Key.self)
            self = .fields(
                title: try container.decodeIfPresent(String.self, forKey: .title),
                subtitle: try container.decodeIfPresent(String.self, forKey: .subtitle),
                body: try container.decodeIfPresent(String.self, forKey: .body))
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .text(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .fields(let title, let subtitle, let body):
                var container = encoder.container(keyedBy: Key.self)
                try container.encodeIfPresent(title, forKey: .title)
                try container.encodeIfPresent(subtitle, forKey: .subtitle)
                try container.encodeIfPresent(body, forKey: .body)
            }
        }
    }

    /// The badge the notification sets.
    public enum Badge: Codable, Hashable, Sendable {
        /// The user's unread notifications, this one included, from the server's badge ledger
        /// (which records it as unread).
        case auto
        /// This number.
        case count(Int)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let count = try? container.decode(Int.self) {
                self = .count(count)
            } else if try container.decode(String.self) == "auto" {
                self = .auto
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "badge is \"auto\", a number or null")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .auto: try container.encode("auto")
            case .count(let count): try container.encode(count)
            }
        }
    }

    /// The user whose devices it goes to.
    public var user: String
    /// The category.
    public var category: String
    /// The notification's id; the server makes one when it is left out. The same id again sends
    /// nothing twice.
    public var notificationId: String?
    /// What it shows; without an alert, a sound or a badge it is a background push.
    public var alert: Alert?
    /// The category's payload keys.
    public var payload: [String: JSONValue]?
    /// The badge; none when left out or `null`.
    public var badge: Badge?
    /// A sound file in the app bundle, or `default`.
    public var sound: String?
    /// `thread-id`: notifications with the same id are grouped.
    public var threadId: String?
    /// `mutable-content: 1`: the app's notification service extension may change it (and register
    /// a category the app does not know yet) before it is shown. Only with an alert.
    public var mutableContent: Bool?
    /// `apns-collapse-id` (at most 64 bytes): a newer notification replaces an older one.
    public var collapseId: String?
    /// Until when (Unix seconds) APNs keeps trying a device that is offline; left out, it tries once.
    public var expiration: Double?
    /// `apns-priority`: 10 (at once) or 5 (when the device saves power), or 1 (lowest).
    public var priority: Int?

    /// A send request.
    public init(
        user: String, category: String, notificationId: String? = nil, alert: Alert? = nil, payload: [String: JSONValue]? = nil,
        badge: Badge? = nil, sound: String? = nil, threadId: String? = nil, collapseId: String? = nil, expiration: Double? = nil,
        priority: Int? = nil, mutableContent: Bool? = nil
    ) {
        self.user = user
        self.category = category
        self.notificationId = notificationId
        self.alert = alert
        self.payload = payload
        self.badge = badge
        self.sound = sound
        self.threadId = threadId
        self.collapseId = collapseId
        self.expiration = expiration
        self.priority = priority
        self.mutableContent = mutableContent
    }
}
