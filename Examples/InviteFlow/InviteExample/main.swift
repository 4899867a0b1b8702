import ActionableCore
import ActionablePayload
import ActionableTokens
import Foundation
import InviteFlowExample

// swift run invite-example [CATEGORIES_DIR]
// Builds an invite notification for alice, simulates her tap on Accept (twice: the phone
// retried) and bob's tap on Decline, and shows the RSVPs the invitations service recorded.
let categories = CommandLine.arguments.dropFirst().first ?? "Categories"
let key = try ActionTokenKey(parsing: "example=this-is-an-example-secret-of-32+-bytes")
let service = InvitationsService()
let flow = try await InviteFlow.make(categoriesPath: categories, key: key, service: service)

let invite = InviteFlow.InvitePayload(inviteId: "inv-42", eventName: "Team dinner, Friday 7pm")
let forAlice = try await flow.notification(user: "alice", invite: invite, notificationID: "n-alice-1")
print("1. Notification for alice (\(forAlice.bytes.count) of \(forAlice.pushType.maximumPayloadSize) bytes):")
print("   \(forAlice.json)\n")

print("2. alice taps Accept; the phone retries the same answer:")
for attempt in 1...2 {
    let outcome = try await flow.receiveTap(action: "accept", payload: forAlice, responseID: "response-alice-accept")
    print("   attempt \(attempt): handler says \(outcome)")
}

let forBob = try await flow.notification(user: "bob", invite: invite, notificationID: "n-bob-1")
print("\n3. bob taps Decline:")
print("   handler says \(try await flow.receiveTap(action: "decline", payload: forBob, responseID: "response-bob-decline"))")

print("\n4. The invitations service recorded:")
for rsvp in await service.rsvps {
    print("   \(rsvp.user) \(rsvp.answer.rawValue) \(rsvp.inviteID)")
}
