public import Foundation

/// The identifier of the action when the user opened the notification (Apple's value).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The identifier of the action when the user dismissed the notification (Apple's value).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// What a notification shows and carries (`UNNotificationContent`, the properties apps read).
open class UNNotificationContent: NSObject, @unchecked Sendable {
    open private(set) var title: String
    open private(set) var body: String
    open private(set) var categoryIdentifier: String
    open private(set) var userInfo: [AnyHashable: Any]

    /// Not Apple API (the system makes these): for tests.
    public init(standInTitle title: String = "", body: String = "", categoryIdentifier: String, userInfo: [AnyHashable: Any]) {
        self.title = title
        self.body = body
        self.categoryIdentifier = categoryIdentifier
        self.userInfo = userInfo
    }
}

/// A scheduled or delivered notification's request (`UNNotificationRequest`).
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var content: UNNotificationContent

    /// Not Apple API (Apple's takes a trigger): for tests.
    public init(standInIdentifier identifier: String, content: UNNotificationContent) {
        self.identifier = identifier
        self.content = content
    }
}

/// A delivered notification (`UNNotification`).
open class UNNotification: NSObject, @unchecked Sendable {
    open private(set) var date: Date
    open private(set) var request: UNNotificationRequest

    /// Not Apple API (the system makes these): for tests.
    public init(standInRequest request: UNNotificationRequest, date: Date = Date()) {
        self.request = request
        self.date = date
    }
}

/// The user's answer to a notification (`UNNotificationResponse`).
open class UNNotificationResponse: NSObject, @unchecked Sendable {
    open private(set) var notification: UNNotification
    open private(set) var actionIdentifier: String

    /// Not Apple API (the system makes these): for tests.
    public init(standInNotification notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
    }
}

/// The answer to a text-input action (`UNTextInputNotificationResponse`).
open class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
    open private(set) var userText: String

    /// Not Apple API (the system makes these): for tests.
    public init(standInNotification notification: UNNotification, actionIdentifier: String, userText: String) {
        self.userText = userText
        super.init(standInNotification: notification, actionIdentifier: actionIdentifier)
    }
}

/// The app's handler of notification events (`UNUserNotificationCenterDelegate`). Apple's
/// methods are optional Objective-C requirements; without the Objective-C runtime they are
/// requirements with default implementations that call the completion handler. The completion
/// handler is `@Sendable`, as in Apple's current SDK.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void)
}

extension UNUserNotificationCenterDelegate {
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        completionHandler()
    }
}
