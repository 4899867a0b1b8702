import ActionableClient
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app's side of the badge: a tap lowers it, `markRead` and `markAllRead` lower it further,
/// against a real `actionable serve`.
@Suite(.timeLimit(.minutes(2)))
struct BadgeReadsAgainstServeTests {
    static let backendToken = "client-test-backend-token-0123456789"

    static func record(_ id: String, port: Int) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/notifications")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(backendToken)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"user":"alice","notificationId":"\#(id)","category":"invite"}"#.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["badge"] as? Int)
    }

    @Test func aTapMarkReadAndMarkAllReadLowerTheBadge() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { _, upstreamPort in
            let port = try ServerProcess.freePort()
            let key = "app=app-secret-of-at-least-thirty-two-bytes!"
            let server = try await fixture.serve(
                port: port, upstream: upstreamPort, extra: ["--app-jwt-key", key, "--backend-token", Self.backendToken])
            defer { server.signal() }
            let jwt = try await AppTokens(keys: [ActionTokenKey(parsing: key)]).mint(user: "alice", keyID: "app")
            let reporter = fixture.reporter(port: port, options: .init(bearerToken: { jwt }, log: { _ in }))

            var notifications: [[AnyHashable: Any]] = []
            for index in 1...4 {
                notifications.append(try await fixture.userInfo(set: ["inviteId=inv-\(index)"], notificationID: "n-badge-\(index)"))
            }
            for index in 1...4 { #expect(try await Self.record("n-badge-\(index)", port: port) == index) }

            let tap = try ActionReport(
                userInfo: notifications[0], categoryIdentifier: "invite", actionIdentifier: "accept", notificationIdentifier: nil,
                userText: nil)
            #expect(tap.notificationID == "n-badge-1")
            guard case .delivered = try await reporter.report(tap) else {
                Issue.record("the tap must be delivered")
                return
            }
            // What the user read in the app, by the ids in the notifications' tokens.
            let read = try notifications[1...2].map { try #require(ActionReport.notificationID(inActionToken: $0["actionToken"] as? String ?? "")) }
            #expect(read == ["n-badge-2", "n-badge-3"])
            #expect(try await reporter.markRead(notificationIDs: read) == 1)
            #expect(try await reporter.markRead(notificationIDs: read) == 1)
            #expect(try await reporter.markAllRead() == 0)

            // Without the app's token the server refuses, and says so.
            let anonymous = fixture.reporter(port: port)
            let refused = await #expect(throws: ServerProblem.self) { try await anonymous.markAllRead() }
            #expect(refused?.status == 401)
            #expect(refused?.name == "credentials-missing")
        }
    }

    @Test(arguments: ["", "a.b", "a.!!!.c", "a.e30.c", "a.eyJqdGkiOjd9.c"])
    func aTokenWithoutAReadableJTIHasNoNotificationID(token: String) {
        #expect(ActionReport.notificationID(inActionToken: token) == nil)
    }
}
