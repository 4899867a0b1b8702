import ActionableCore
import ActionablePayload
import ActionableService
import ActionableStore
import ActionableTesting
import Foundation
import Testing

/// The embedder's one call: check, record as unread, and build with the user's badge.
struct PayloadBadgeTests {
    static let catalog = try! Catalog(
        yaml: """
            category: invite
            payload:
              inviteId: { type: string, required: true }
            actions: [{ id: accept, title: Accept }]
            """)

    struct Invite: Encodable { var inviteId: String? }

    func badge(_ payload: NotificationPayload) throws -> Int? {
        let object = try JSONSerialization.jsonObject(with: Data(payload.bytes)) as? [String: Any]
        return (object?["aps"] as? [String: Any])?["badge"] as? Int
    }

    @Test func eachNotificationCountsOnceOnItsUsersBadge() async throws {
        let store = InMemoryActionStore()
        let builder = PayloadBuilder(catalog: Self.catalog)
        func send(_ id: String, to user: String) async throws -> Int? {
            try badge(
                try await builder.build(
                    category: "invite", aps: APS(alert: .body("Dinner?")), custom: Invite(inviteId: "42"), notificationID: id,
                    user: user, actionToken: "token", recordingIn: store))
        }
        #expect(try await send("n1", to: "alice") == 1)
        #expect(try await send("n2", to: "alice") == 2)
        #expect(try await send("n2", to: "alice") == 2)  // built again: not counted twice
        #expect(try await send("n3", to: "bob") == 1)
        await #expect(throws: PayloadError.self) { try await send("n1", to: "bob") }  // alice's notification id
        #expect(try await store.badge(user: "bob", countingSince: .distantPast) == 1)
    }

    @Test func aRefusedPayloadRecordsNothing() async throws {
        let store = InMemoryActionStore()
        await #expect(throws: PayloadError.self) {
            _ = try await PayloadBuilder(catalog: Self.catalog).build(
                category: "invite", custom: Invite(inviteId: nil), notificationID: "n1", user: "alice", actionToken: "t",
                recordingIn: store)
        }
        #expect(try await store.badge(user: "alice", countingSince: .distantPast) == 0)
    }

    @Test func entriesOlderThanTheLifetimeNoLongerCount() async throws {
        let store = InMemoryActionStore()
        let builder = PayloadBuilder(catalog: Self.catalog)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try await builder.build(
            category: "invite", custom: Invite(inviteId: "1"), notificationID: "old", user: "alice", actionToken: "t",
            recordingIn: store, now: start)
        let later = try await builder.build(
            category: "invite", custom: Invite(inviteId: "2"), notificationID: "new", user: "alice", actionToken: "t",
            recordingIn: store, now: start.addingTimeInterval(31 * 86400))
        #expect(try badge(later) == 1)  // the default lifetime is the server's: 30 days
    }
}
