import ActionableCore
import Testing

/// A response carries its payload as pairs or as the text the store kept, and derives the other
/// form only when asked.
struct ActionResponsePayloadTests {
    func response(payloadJSON: String) -> ActionResponse {
        ActionResponse(category: "invite", action: "accept", notificationID: "n1", user: "alice", payloadJSON: payloadJSON)
    }

    @Test func storedTextIsCarriedAsItIs() {
        let text = #"{"inviteId":"42","seats":2,"tags":["a","b"]}"#
        let stored = response(payloadJSON: text)
        #expect(stored.payloadJSON == text)
        #expect(stored[payload: "seats"] == .int(2))
        #expect(stored.payload.map(\.0) == ["inviteId", "seats", "tags"])
    }

    @Test func pairsAreWrittenOnceAsCompactJSON() {
        let made = ActionResponse(
            category: "invite", action: "accept", notificationID: "n1", user: "alice",
            payload: [("inviteId", .string("4\"2")), ("seats", .int(2))])
        #expect(made.payloadJSON == #"{"inviteId":"4\"2","seats":2}"#)
    }

    @Test func bothFormsOfOnePayloadAreEqualAndHashAlike() {
        let made = ActionResponse(
            category: "invite", action: "accept", notificationID: "n1", user: "alice", payload: [("inviteId", .string("42"))])
        let stored = response(payloadJSON: #"{"inviteId":"42"}"#)
        #expect(made == stored)
        #expect(Set([made, stored]).count == 1)
        #expect(made != response(payloadJSON: #"{"inviteId":"43"}"#))
    }

    @Test func settingThePayloadReplacesTheText() {
        var changed = response(payloadJSON: #"{"inviteId":"42"}"#)
        let original = changed
        changed.payload = [("inviteId", .string("7"))]
        #expect(changed.payloadJSON == #"{"inviteId":"7"}"#)
        #expect(original.payloadJSON == #"{"inviteId":"42"}"#)  // a copy keeps its own
    }

    @Test(arguments: ["", "[1]", "not json", "\"text\""])
    func textThatIsNotAnObjectReadsAsAnEmptyPayload(text: String) {
        #expect(response(payloadJSON: text).payload.isEmpty)
    }
}
