import Foundation

// Not Apple API: what the system does when the user answers a notification, for tests.

extension UNNotificationResponse {
    /// The response the system would make for a tap on `action` of a notification of `category`
    /// carrying `userInfo`; a `UNTextInputNotificationResponse` when `userText` is given.
    public static func standIn(
        action: String, category: String, userInfo: [AnyHashable: Any], identifier: String = "n-1", userText: String? = nil
    ) -> UNNotificationResponse {
        let content = UNNotificationContent(standInTitle: category, categoryIdentifier: category, userInfo: userInfo)
        let notification = UNNotification(standInRequest: UNNotificationRequest(standInIdentifier: identifier, content: content))
        guard let userText else { return UNNotificationResponse(standInNotification: notification, actionIdentifier: action) }
        return UNTextInputNotificationResponse(standInNotification: notification, actionIdentifier: action, userText: userText)
    }
}

extension UNUserNotificationCenterDelegate {
    /// Hands `response` to the delegate as the system does, and returns once the delegate calls
    /// the completion handler.
    public func standInReceive(_ response: UNNotificationResponse, center: UNUserNotificationCenter = .current()) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            userNotificationCenter(center, didReceive: response) { done.resume() }
        }
    }
}
