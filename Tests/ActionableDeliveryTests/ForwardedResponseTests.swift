import ActionableCore
import ActionableDelivery
import Foundation
import Testing

/// The forwarded call is written by hand for speed, with the stored payload text embedded as it
/// is; it must say exactly what `ForwardedResponse`'s `Codable` form says.
struct ForwardedResponseTests {
    static let received = Date(timeIntervalSince1970: 1_800_000_000.125)

    static let responses: [ActionResponse] = [
        ActionResponse(category: "invite", action: "accept", notificationID: "n1", user: "alice"),
        ActionResponse(
            category: "invite", action: "comment", notificationID: "n\"2\\", user: "bob\n", userText: "late — 10′ \u{1}",
            payload: [("inviteId", .string("42")), ("ratio", .double(0.5)), ("seats", .int(2)), ("tags", .array([.null, .bool(true)]))]),
        ActionResponse(
            category: "message", action: "com.apple.UNNotificationDismissActionIdentifier", notificationID: "n3", user: "c",
            payloadJSON: #"{"b":{"nested":[1,2]},"a":"first"}"#),
    ]

    @Test(arguments: responses.indices)
    func theWrittenBodyDecodesAsTheCodableShape(index: Int) throws {
        let response = Self.responses[index]
        let bytes = ForwardedResponse.bytes(of: response, id: "0193-x", receivedAt: Self.received)
        let decoded = try JSONDecoder().decode(ForwardedResponse.self, from: Data(bytes))
        #expect(decoded == ForwardedResponse(response, id: "0193-x", receivedAt: Self.received))
        // And the encoder's form of the same shape reads back equal (same members, same values).
        let encoded = try JSONEncoder().encode(decoded)
        #expect(try JSONDecoder().decode(ForwardedResponse.self, from: encoded) == decoded)
    }

    @Test func theStoredPayloadTextIsEmbeddedByteForByte() {
        let stored = Self.responses[2]
        let body = String(decoding: ForwardedResponse.bytes(of: stored, id: "i", receivedAt: Self.received), as: UTF8.self)
        #expect(body.contains(#","payload":{"b":{"nested":[1,2]},"a":"first"},"#))
        #expect(body.hasSuffix(#""receivedAt":1800000000.125}"#))
    }

    @Test func userTextIsNullWhenThereIsNone() {
        let body = String(decoding: ForwardedResponse.bytes(of: Self.responses[0], id: "i", receivedAt: Self.received), as: UTF8.self)
        #expect(body.contains(#""userText":null,"#))
    }
}
