public import Foundation

/// The user's answer to a notification, as the server's `POST /v1/actions` takes it: built from
/// what `UNNotificationResponse` holds, so that the app forwards it without reading it.
///
/// ```swift
/// let content = response.notification.request.content
/// let report = try ActionReport(
///     userInfo: content.userInfo,
///     categoryIdentifier: content.categoryIdentifier,
///     actionIdentifier: response.actionIdentifier,
///     notificationIdentifier: response.notification.request.identifier,
///     userText: (response as? UNTextInputNotificationResponse)?.userText)
/// ```
///
/// The server takes the notification's id and user from the action token, so the report sends
/// the token and leaves ``notificationIdentifier`` (the identifier iOS gave the delivered
/// request, which need not be the backend's) to the app's own handlers and logs.
public struct ActionReport: Hashable, Sendable, Codable {
    /// The category identifier (`aps.category`).
    public var category: String
    /// The action identifier: one of the category's actions, or Apple's
    /// `com.apple.UNNotificationDefaultActionIdentifier` (opened) or
    /// `com.apple.UNNotificationDismissActionIdentifier` (dismissed), forwarded as they are.
    public var action: String
    /// The action token the backend put in the notification's payload.
    public var actionToken: String
    /// The identifier of the delivered notification request, kept for the app; not sent.
    public var notificationIdentifier: String?
    /// The text the user typed, for text-input actions.
    public var userText: String?
    /// The notification's custom keys (outside `aps` and `actionToken`), sent as `payload`.
    public var payload: [String: ReportValue]

    /// Apple's action identifier for "the user opened the notification".
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// Apple's action identifier for "the user dismissed the notification".
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

    /// A report from its parts, as the server takes them.
    public init(
        category: String, action: String, actionToken: String, notificationIdentifier: String? = nil, userText: String? = nil,
        payload: [String: ReportValue] = [:]
    ) {
        self.category = category
        self.action = action
        self.actionToken = actionToken
        self.notificationIdentifier = notificationIdentifier
        self.userText = userText
        self.payload = payload
    }

    /// A report from what a notification response holds.
    ///
    /// - Parameters:
    ///   - userInfo: the notification content's `userInfo`: `aps`, the `actionToken`, and the
    ///     category's custom keys. `aps.alert` may be a string or a dictionary.
    ///   - categoryIdentifier: the content's `categoryIdentifier`; when it is empty, `aps.category`
    ///     of `userInfo` is used.
    ///   - actionIdentifier: the response's `actionIdentifier`, as it is.
    ///   - notificationIdentifier: the request's `identifier`, kept for the app.
    ///   - userText: `UNTextInputNotificationResponse.userText`, for text-input actions.
    ///   - payloadKeys: the category's payload keys, when other SDKs add keys of their own to
    ///     `userInfo` (the server refuses keys its category does not declare); every custom key
    ///     when `nil`. A listed key absent from `userInfo` is left out.
    /// - Throws: ``ActionReportError`` naming what is missing or not JSON.
    public init(
        userInfo: [AnyHashable: Any], categoryIdentifier: String, actionIdentifier: String, notificationIdentifier: String?,
        userText: String?, payloadKeys: Set<String>? = nil
    ) throws {
        let aps = userInfo["aps"] as? [String: Any]
        var category = categoryIdentifier
        if category.isEmpty, let fromPayload = aps?["category"] as? String { category = fromPayload }
        guard !category.isEmpty else { throw ActionReportError.missingCategory }
        guard !actionIdentifier.isEmpty else { throw ActionReportError.missingAction }
        guard let rawToken = userInfo["actionToken"] else { throw ActionReportError.missingActionToken(category: category) }
        guard let token = rawToken as? String, !token.isEmpty else {
            throw ActionReportError.actionTokenNotAString(found: ReportValue.typeName(of: rawToken))
        }
        var custom: [String: Any] = [:]
        for (key, value) in userInfo {
            guard let key = key as? String, key != "aps", key != "actionToken" else { continue }
            if let payloadKeys, !payloadKeys.contains(key) { continue }
            custom[key] = value
        }
        self.init(
            category: category, action: actionIdentifier, actionToken: token, notificationIdentifier: notificationIdentifier,
            userText: userText, payload: try ReportValue.object(from: custom))
    }

    /// Whether the user opened the notification (Apple's default action).
    public var isOpened: Bool { action == Self.defaultActionIdentifier }
    /// Whether the user dismissed the notification (Apple's dismiss action).
    public var isDismissed: Bool { action == Self.dismissActionIdentifier }

    /// The `POST /v1/actions` body: `category`, `action`, `actionToken`, `userText` when there
    /// is one, and `payload`.
    public func requestBody() throws -> Data {
        var body: [String: Any] = ["category": category, "action": action, "actionToken": actionToken]
        if let userText { body["userText"] = userText }
        body["payload"] = payload.mapValues(\.foundationValue)
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    }
}
