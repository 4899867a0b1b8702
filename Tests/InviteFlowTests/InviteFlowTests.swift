import ActionableCore
import ActionableRouter
import ActionableTokens
import Foundation
import InviteFlowExample
import Testing

@testable import ActionablePayload

/// The worked example: an invite built for a user, taps on Accept and Decline, each RSVP
/// reported to the invitations service exactly once.
struct InviteFlowTests {
    static let categories = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Categories").path
    static let key = try! ActionTokenKey(parsing: "test=0123456789abcdef0123456789abcdef")

    @Test func acceptAndDeclineAreRecordedOnceEach() async throws {
        let service = InvitationsService()
        let flow = try await InviteFlow.make(categoriesPath: Self.categories, key: Self.key, service: service)
        let invite = InviteFlow.InvitePayload(inviteId: "inv-1", eventName: "Dinner")
        let alice = try await flow.notification(user: "alice", invite: invite, notificationID: "n-a")
        #expect(alice.json.contains(#""category":"invite""#))
        #expect(alice.json.contains(#""actionToken":""#))

        // The phone retries the same answer: same response id, one RSVP.
        for _ in 0..<3 {
            #expect(try await flow.receiveTap(action: "accept", payload: alice, responseID: "r-alice") == .done)
        }
        let bob = try await flow.notification(user: "bob", invite: invite, notificationID: "n-b")
        #expect(try await flow.receiveTap(action: "decline", payload: bob, responseID: "r-bob") == .done)
        #expect(try await flow.receiveTap(action: .default, payload: bob, responseID: "r-bob-open") == .done)

        let rsvps = await service.rsvps
        #expect(
            rsvps == [
                .init(inviteID: "inv-1", user: "alice", answer: .accepted, note: nil),
                .init(inviteID: "inv-1", user: "bob", answer: .declined, note: nil),
            ])
    }

    @Test func aCommentCarriesTheTypedText() async throws {
        let service = InvitationsService()
        let flow = try await InviteFlow.make(categoriesPath: Self.categories, key: Self.key, service: service)
        let payload = try await flow.notification(user: "cy", invite: .init(inviteId: "inv-2"), notificationID: "n-c")
        _ = try await flow.receiveTap(action: "comment", payload: payload, text: "Running late", responseID: "r-c")
        #expect(await service.rsvps.first?.note == "Running late")
        await #expect(throws: ActionResponseError.self) {
            try await flow.receiveTap(
                action: "comment", payload: payload, text: String(repeating: "x", count: 501),
                responseID: "r-c2")
        }
    }

    @Test func aNotificationSignedWithAnotherKeyIsRefused() async throws {
        let service = InvitationsService()
        let flow = try await InviteFlow.make(categoriesPath: Self.categories, key: Self.key, service: service)
        let other = try await InviteFlow.make(
            categoriesPath: Self.categories,
            key: try ActionTokenKey(parsing: "test=another-secret-another-secret-1234"), service: service)
        let forged = try await other.notification(user: "mallory", invite: .init(inviteId: "inv-3"), notificationID: "n-m")
        await #expect(throws: ActionTokenError.self) {
            try await flow.receiveTap(action: "accept", payload: forged, responseID: "r-m")
        }
        #expect(await service.rsvps.isEmpty)
    }

    /// alice got invite inv-42; her phone answers for inv-99 under the same genuine token: the
    /// token's pld does not match, and no RSVP is recorded for an invite she never got.
    @Test func anEditedPayloadIsRefusedAndNoRSVPIsRecorded() async throws {
        let service = InvitationsService()
        let flow = try await InviteFlow.make(categoriesPath: Self.categories, key: Self.key, service: service)
        let sent = try await flow.notification(user: "alice", invite: .init(inviteId: "inv-42"), notificationID: "n-42")
        let edited = NotificationPayload(
            category: sent.category, pushType: sent.pushType, bytes: Array(sent.json.replacingOccurrences(of: "inv-42", with: "inv-99").utf8))
        let error = await #expect(throws: ActionTokenError.self) {
            try await flow.receiveTap(action: "accept", payload: edited, responseID: "r-forged")
        }
        #expect(error?.code == .payloadMismatch)
        #expect(await service.rsvps.isEmpty)
        #expect(try await flow.receiveTap(action: "accept", payload: sent, responseID: "r-genuine") == .done)
        #expect(await service.rsvps.map(\.inviteID) == ["inv-42"])
    }
}
