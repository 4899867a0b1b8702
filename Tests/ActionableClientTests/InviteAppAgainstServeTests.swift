import ActionableClient
import ActionableTestSupport
import Foundation
import InviteApp
import Testing
import UserNotifications

/// The example app's delegate, as iOS calls it, reporting through ActionableClient's
/// UserNotifications adapter (compiled against the stand-in) to a real `actionable serve`.
@Suite(.timeLimit(.minutes(2)))
struct InviteAppAgainstServeTests {
    @Test func buttonsTextOpenAndDismissReachTheUpstreamAsTheUserGaveThem() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            let delegate = InviteAppDelegate(
                server: URL(string: "http://127.0.0.1:\(port)/")!, reportQueue: fixture.reportQueue, options: .init(log: { _ in }))

            let taps: [(action: String, text: String?)] = [
                ("accept", nil), ("comment", "Running late, save me a seat"), ("com.apple.UNNotificationDefaultActionIdentifier", nil),
                ("com.apple.UNNotificationDismissActionIdentifier", nil),
            ]
            for (index, tap) in taps.enumerated() {
                var userInfo = try await fixture.userInfo(set: ["inviteId=inv-\(index)"], notificationID: "n-app-\(index)")
                userInfo["gcm.message_id"] = "0:17000\(index)"  // another SDK's key: not the category's, not sent
                await delegate.standInReceive(
                    .standIn(action: tap.action, category: "invite", userInfo: userInfo, identifier: "ios-\(index)", userText: tap.text))
            }
            #expect(await delegate.reporter.pendingReports().isEmpty)
            #expect(delegate.answers.map(\.action) == taps.map(\.action))

            let forwarded = try await upstream.deliveries(count: taps.count)
            let byNotification = Dictionary(grouping: forwarded) { $0["notificationId"] as? String ?? "" }
            #expect(byNotification.keys.sorted() == taps.indices.map { "n-app-\($0)" })
            for (index, tap) in taps.enumerated() {
                let delivery = try #require(byNotification["n-app-\(index)"]?.first)
                #expect(delivery["action"] as? String == tap.action)
                #expect(delivery["userText"] as? String == tap.text)
                #expect((delivery["payload"] as? [String: Any])?.keys.sorted() == ["inviteId"])
                #expect((delivery["payload"] as? [String: Any])?["inviteId"] as? String == "inv-\(index)")
            }
        }
    }

    @Test func theCompletionHandlerRunsOnlyOnceTheReportIsInTheReportQueue() async throws {
        let fixture = try ClientFixture()
        // Nothing listens on this port: the report can only be in the report queue.
        let port = try ServerProcess.freePort()
        let delegate = InviteAppDelegate(
            server: URL(string: "http://127.0.0.1:\(port)/")!, reportQueue: fixture.reportQueue, options: .init(log: { _ in }))
        let userInfo = try await fixture.userInfo(notificationID: "n-offline-app")
        await delegate.standInReceive(.standIn(action: "decline", category: "invite", userInfo: userInfo, identifier: "ios-9"))
        let pending = await delegate.reporter.pendingReports()
        #expect(pending.map(\.report.action) == ["decline"])
        #expect(pending.first?.report.notificationIdentifier == "ios-9")
        #expect(delegate.answers == [.init(inviteId: "42", action: "decline", text: nil)])
    }
}
