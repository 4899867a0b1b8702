import Foundation
import InviteApp
import Testing
import UserNotifications

/// `Examples/InviteApp`: an app delegate written as an iOS app would, whose categories the build
/// plugin generates, type-checked and run against the UserNotifications stand-in. Part of the
/// serialized AppGeneratorTests suite: they share `UNUserNotificationCenter.current()`.
extension AppGeneratorTests {
    static func response(
        _ action: String, userInfo: [AnyHashable: Any], category: String = "invite", text: String? = nil
    )
        -> UNNotificationResponse
    {
        let content = UNNotificationContent(standInTitle: "Invite", categoryIdentifier: category, userInfo: userInfo)
        let notification = UNNotification(standInRequest: UNNotificationRequest(standInIdentifier: "n-1", content: content))
        guard let text else { return UNNotificationResponse(standInNotification: notification, actionIdentifier: action) }
        return UNTextInputNotificationResponse(standInNotification: notification, actionIdentifier: action, userText: text)
    }

    @Test func theInviteAppRegistersTheCatalogAtLaunchAndReadsATapWithTheGeneratedPayload() async throws {
        let delegate = InviteAppDelegate()
        let center = UNUserNotificationCenter.current()
        center.setNotificationCategories([])
        delegate.applicationDidFinishLaunching(center: center)
        let registered = await center.notificationCategories()
        #expect(Set(registered.map(\.identifier)) == ["invite", "login-approval", "message", "order-shipped"])
        #expect(center.delegate === delegate)

        let userInfo: [AnyHashable: Any] = ["aps": ["category": "invite"], "actionToken": "t", "inviteId": "inv-42"]
        var completed = 0
        delegate.userNotificationCenter(center, didReceive: Self.response("accept", userInfo: userInfo)) { completed += 1 }
        delegate.userNotificationCenter(center, didReceive: Self.response("comment", userInfo: userInfo, text: "vegan")) {
            completed += 1
        }
        // Another category, and an invite without its required key: read by nobody, still completed.
        delegate.userNotificationCenter(center, didReceive: Self.response("approve", userInfo: userInfo, category: "login-approval")) {
            completed += 1
        }
        delegate.userNotificationCenter(center, didReceive: Self.response("accept", userInfo: ["aps": [:]])) { completed += 1 }
        #expect(completed == 4)
        #expect(
            delegate.answers == [
                .init(inviteId: "inv-42", action: "accept", text: nil), .init(inviteId: "inv-42", action: "comment", text: "vegan"),
            ])
    }
}
