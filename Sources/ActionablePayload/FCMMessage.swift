public import ActionableCore
import ActionableTokens
public import Foundation

/// An FCM HTTP v1 data message for Android (`{"message": {…}}`, the body of
/// `POST https://fcm.googleapis.com/v1/projects/PROJECT/messages:send`): the app builds the
/// notification and its buttons itself (the generated Kotlin), because a notification message
/// cannot carry actions.
///
/// `message.data` is a map of strings: `category`, `actionToken` when there is one, `title`,
/// `body`, `notificationId` and `badge` when given, and each payload key — a string as it is, any other value as its compact
/// JSON (`"seats": "2"`). `android` carries `priority`, `ttl` and `collapse_key`.
public struct FCMMessage: Hashable, Sendable {
    /// The category it was checked against.
    public let category: CategoryID
    /// The JSON, UTF-8: what is POSTed to FCM.
    public let bytes: [UInt8]
    /// `message.data`, in order.
    public let data: [(String, String)]

    /// The JSON as text.
    public var json: String { String(decoding: bytes, as: UTF8.self) }

    public static func == (lhs: FCMMessage, rhs: FCMMessage) -> Bool { lhs.bytes == rhs.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// How urgently FCM delivers it (`android.priority`).
    public enum Priority: String, Hashable, Sendable, CaseIterable {
        /// At once, waking the device (for what the user acts on).
        case high
        /// When the device is awake anyway.
        case normal
    }

    /// The most bytes FCM takes in `data` (keys and values).
    public static let maximumDataSize = 4096
    /// `data` keys FCM reserves, and prefixes it reserves.
    public static let reservedKeys: Set<String> = ["from", "notification", "message_type", "collapse_key"]
    public static let reservedPrefixes = ["google", "gcm"]
    /// The keys the message itself uses: a payload key may not be one of them.
    public static let messageKeys: Set<String> = ["category", "actionToken", "title", "body", "notificationId", "badge"]

    init(category: CategoryID, bytes: [UInt8], data: [(String, String)]) {
        self.category = category
        self.bytes = bytes
        self.data = data
    }
}

/// What goes into an FCM message beside the category's payload.
public struct FCMOptions: Hashable, Sendable {
    /// The registration token of the device (`message.token`); `nil` leaves it for the sender.
    public var deviceToken: String?
    /// The text the app shows as the notification's title.
    public var title: String?
    /// The text the app shows as its body.
    public var body: String?
    /// `android.priority` (high by default: a notification with buttons is meant to be seen).
    public var priority: FCMMessage.Priority
    /// `android.ttl` in whole seconds: how long FCM keeps it for a device that is offline.
    public var timeToLive: Int?
    /// `android.collapse_key`: a newer message replaces an older one with the same key.
    public var collapseKey: String?
    /// The notification's id (`data.notificationId`): the app posts the notification under it, so
    /// a second copy of one message replaces the first, and reports a tap with it.
    public var notificationID: String?
    /// The badge count the app shows (`data.badge`), when the send counts it.
    public var badge: Int?

    /// Options for one message.
    public init(
        deviceToken: String? = nil, title: String? = nil, body: String? = nil, priority: FCMMessage.Priority = .high,
        timeToLive: Int? = nil, collapseKey: String? = nil, notificationID: String? = nil, badge: Int? = nil
    ) {
        self.notificationID = notificationID
        self.badge = badge
        self.deviceToken = deviceToken
        self.title = title
        self.body = body
        self.priority = priority
        self.timeToLive = timeToLive
        self.collapseKey = collapseKey
    }
}

extension PayloadBuilder {
    /// Builds the FCM data message of a `category` notification with custom keys `fields` and an
    /// action token minted elsewhere, checked as ``build(category:aps:fields:actionToken:pushType:)``
    /// checks an APNs payload: the category (known, not retired), the keys against its schema,
    /// and FCM's own rules — no payload key FCM or the message reserves, `data` within 4096
    /// bytes, a time to live within FCM's four weeks.
    public func androidMessage(
        category: CategoryID, fields: [(String, JSONValue)] = [], actionToken: String? = nil, options: FCMOptions = FCMOptions()
    ) throws(PayloadError) -> FCMMessage {
        let declared = try self.category(category)
        guard !declared.retired else {
            throw PayloadError(
                .retiredCategory, ["category \"\(category)\" is retired: apps no longer register it; send the category that replaces it"])
        }
        let violations = declared.payload.violations(of: fields)
        guard violations.isEmpty else { throw PayloadError(.payloadMismatch, violations: violations) }
        var problems: [String] = []
        for (key, _) in fields {
            if FCMMessage.reservedKeys.contains(key) || FCMMessage.reservedPrefixes.contains(where: { key.hasPrefix($0) }) {
                problems.append(
                    "payload key \"\(key)\" is reserved by FCM (from, notification, message_type, collapse_key, and any key starting with google or gcm); rename it in the category file"
                )
            } else if FCMMessage.messageKeys.contains(key) {
                problems.append(
                    "payload key \"\(key)\" is a key of the message itself (category, actionToken, title, body, notificationId, badge); rename it in the category file"
                )
            }
        }
        if let ttl = options.timeToLive, !(0...2_419_200).contains(ttl) {
            problems.append("ttl must be between 0 and 2419200 seconds (FCM keeps a message at most four weeks), found \(ttl)")
        }
        if let key = options.collapseKey, key.isEmpty { problems.append("collapse_key must not be empty") }
        guard problems.isEmpty else { throw PayloadError(.invalidFCM, problems) }

        var data: [(String, String)] = [("category", category.rawValue)]
        if let actionToken { data.append(("actionToken", actionToken)) }
        if let title = options.title { data.append(("title", title)) }
        if let body = options.body { data.append(("body", body)) }
        if let id = options.notificationID { data.append(("notificationId", id)) }
        if let badge = options.badge { data.append(("badge", String(badge))) }
        for (key, value) in fields {
            if case .string(let text) = value { data.append((key, text)) } else { data.append((key, value.serialized())) }
        }
        let size = data.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        guard size <= FCMMessage.maximumDataSize else {
            throw PayloadError(
                .tooLarge,
                [
                    "the data is \(size) bytes (keys and values); FCM accepts at most \(FCMMessage.maximumDataSize), so shorten the text or custom values"
                ])
        }
        var android: [(String, JSONValue)] = [("priority", .string(options.priority.rawValue))]
        if let ttl = options.timeToLive { android.append(("ttl", .string("\(ttl)s"))) }
        if let key = options.collapseKey { android.append(("collapse_key", .string(key))) }
        var message: [(String, JSONValue)] = []
        if let token = options.deviceToken { message.append(("token", .string(token))) }
        message.append(("data", .object(data.map { ($0.0, JSONValue.string($0.1)) })))
        message.append(("android", .object(android)))
        let bytes = Array(JSONValue.object([("message", .object(message))]).serialized().utf8)
        return FCMMessage(category: category, bytes: bytes, data: data)
    }

    /// Builds the FCM data message and mints its action token in one call, bound to `user`,
    /// `notificationID` and the payload (`pld`) as for APNs: the Android app posts the same body
    /// as the iOS client, so the server checks it the same way. Needs a builder made with `ActionTokens`.
    public func androidMessage(
        category: CategoryID, fields: [(String, JSONValue)] = [], user: String, notificationID: String, options: FCMOptions = FCMOptions(),
        tokenLifetime: TimeInterval = 7 * 24 * 3600, now: Date = Date()
    ) async throws -> FCMMessage {
        guard let tokens else {
            throw PayloadError(.noTokens, ["minting an action token needs a PayloadBuilder made with ActionTokens"])
        }
        _ = try androidMessage(category: category, fields: fields, actionToken: nil, options: options)  // checked before minting
        let token = try await tokens.mint(
            user: user, notificationID: notificationID, category: category, actions: nil,
            payload: try payloadDigest(category: category, fields: fields), lifetime: tokenLifetime, now: now)
        return try androidMessage(category: category, fields: fields, actionToken: token, options: options)
    }
}
