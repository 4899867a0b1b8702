import ActionableClient
import Foundation
import InviteApp
import Testing
import UserNotifications

/// `Examples/InviteApp`: an app delegate written as an iOS app would, whose categories the build
/// plugin generates, type-checked and run against the UserNotifications stand-in. Part of the
/// serialized AppGeneratorTests suite: they share `UNUserNotificationCenter.current()`.
extension AppGeneratorTests {
    @Test func theInviteAppRegistersTheCatalogAtLaunchAndReadsATapWithTheGeneratedPayload() async throws {
        let reportQueue = FileManager.default.temporaryDirectory.appendingPathComponent("invite-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: reportQueue) }
        // No server listens on port 9 of loopback: every answer stays in the report queue.
        let delegate = InviteAppDelegate(
            server: URL(string: "http://127.0.0.1:9/")!, reportQueue: reportQueue, options: .init(log: { _ in }))
        let center = UNUserNotificationCenter.current()
        center.setNotificationCategories([])
        await delegate.applicationDidFinishLaunching(center: center).value
        let registered = await center.notificationCategories()
        #expect(Set(registered.map(\.identifier)) == ["invite", "login-approval", "message", "order-shipped"])
        #expect(center.delegate === delegate)

        let userInfo: [AnyHashable: Any] = [
            "aps": ["category": "invite"], "actionToken": "t", "inviteId": "inv-42", "gcm.message_id": "from another SDK",
        ]
        await delegate.standInReceive(.standIn(action: "accept", category: "invite", userInfo: userInfo))
        await delegate.standInReceive(.standIn(action: "comment", category: "invite", userInfo: userInfo, userText: "vegan"))
        // A foreground action of another category opens its screen.
        let approval: [AnyHashable: Any] = ["aps": ["category": "login-approval"], "actionToken": "t", "attemptId": "a-7", "expiresAt": 1]
        await delegate.standInReceive(.standIn(action: "review", category: "login-approval", userInfo: approval))
        // A notification without an action token is not the server's: completed, not reported.
        await delegate.standInReceive(.standIn(action: "accept", category: "invite", userInfo: ["aps": [:]]))
        #expect(
            delegate.answers == [
                .init(inviteId: "inv-42", action: "accept", text: nil), .init(inviteId: "inv-42", action: "comment", text: "vegan"),
            ])
        #expect(delegate.screens == ["review-sign-in/a-7"])
        // Three reports wait in the report queue, with the category's payload keys only.
        let pending = await delegate.reporter.pendingReports()
        #expect(pending.map(\.report.action) == ["accept", "comment", "review"])
        #expect(pending.first?.report.payload == ["inviteId": .string("inv-42")])
        #expect(pending.allSatisfy { $0.attempts == 1 && $0.lastError?.contains("network error") == true })
    }
}
