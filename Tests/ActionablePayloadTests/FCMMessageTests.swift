import ActionableCore
import ActionablePayload
import ActionableTesting
import ActionableTokens
import Foundation
import Testing

/// FCM HTTP v1 data messages, checked as APNs payloads are.
struct FCMMessageTests {
    let builder = PayloadBuilder(catalog: PayloadBuilderTests.catalog)

    func object(_ message: FCMMessage) throws -> [String: Any] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(message.bytes)) as? [String: Any])
        return try #require(root["message"] as? [String: Any])
    }

    @Test func dataIsAStringMapOfTheCategoryTheTokenTheTextAndThePayload() throws {
        let message = try builder.androidMessage(
            category: "invite", fields: [("inviteId", .string("42")), ("seats", .int(3)), ("when", .double(1.5))], actionToken: "tok",
            options: FCMOptions(deviceToken: "fcm-token", title: "Dinner?", body: "Sam invited you", timeToLive: 3600, collapseKey: "inv-42"))
        let body = try object(message)
        #expect(body["token"] as? String == "fcm-token")
        let data = try #require(body["data"] as? [String: String])  // every value a string, as FCM requires
        #expect(
            data == [
                "category": "invite", "actionToken": "tok", "title": "Dinner?", "body": "Sam invited you", "inviteId": "42", "seats": "3",
                "when": "1.5",
            ])
        #expect(message.data.map(\.0) == ["category", "actionToken", "title", "body", "inviteId", "seats", "when"])
        let android = try #require(body["android"] as? [String: String])
        #expect(android == ["priority": "high", "ttl": "3600s", "collapse_key": "inv-42"])
        // Without options: no token, no text, normal priority when asked.
        let bare = try object(builder.androidMessage(category: "blob", options: FCMOptions(priority: .normal)))
        #expect(bare["token"] == nil && (bare["data"] as? [String: String]) == ["category": "blob"])
        #expect((bare["android"] as? [String: String]) == ["priority": "normal"])
    }

    @Test func whatAPNsWouldBeCheckedForIsCheckedAndFCMsOwnRulesToo() throws {
        func refusal(_ build: () throws -> FCMMessage) -> PayloadError? {
            do {
                _ = try build()
                return nil
            } catch let error as PayloadError {
                return error
            } catch {
                return nil
            }
        }
        #expect(refusal { try builder.androidMessage(category: "invitation") }?.code == .unknownCategory)
        #expect(refusal { try builder.androidMessage(category: "invite") }?.code == .payloadMismatch)  // inviteId is required
        #expect(refusal { try builder.androidMessage(category: "invite", fields: [("inviteId", .int(4))]) }?.code == .payloadMismatch)
        let long = String(repeating: "x", count: 4100)
        let tooLarge = refusal { try builder.androidMessage(category: "blob", fields: [("text", .string(long))]) }
        #expect(tooLarge?.code == .tooLarge && tooLarge?.description.contains("4096") == true)
        let ttl = refusal { try builder.androidMessage(category: "blob", options: FCMOptions(timeToLive: 2_419_201)) }
        #expect(ttl?.code == .invalidFCM && ttl?.description.contains("four weeks") == true)

        // A category whose payload keys FCM or the message itself reserves cannot be sent to Android.
        let clashing = PayloadBuilder(
            catalog: try Catalog(yaml: "category: clash\npayload: { from: string, google.id: string, title: string }\nactions: []\n"))
        let reserved = refusal {
            try clashing.androidMessage(category: "clash", fields: [("from", .string("a")), ("google.id", .string("b")), ("title", .string("c"))])
        }
        #expect(reserved?.code == .invalidFCM && reserved?.messages.count == 3)
        #expect(reserved?.messages.first?.contains("\"from\" is reserved by FCM") == true)
        #expect(reserved?.messages.last?.contains("a key of the message itself") == true)
    }

    @Test func theMintedTokenBindsTheTypedPayloadAsForAPNs() async throws {
        let key = try ActionTokenKey(parsing: "k1=0123456789abcdef0123456789abcdef")
        let tokens = try await ActionTokens(keys: [key])
        let minting = PayloadBuilder(catalog: PayloadBuilderTests.catalog, tokens: tokens)
        let fields: [(String, JSONValue)] = [("inviteId", .string("42")), ("seats", .int(3))]
        let message = try await minting.androidMessage(category: "invite", fields: fields, user: "alice", notificationID: "n-1")
        let text = try #require(message.data.first { $0.0 == "actionToken" }?.1)
        let token = try await tokens.verify(text)
        #expect(token.user == "alice" && token.notificationID == "n-1")
        // The app sends the payload back typed (seats: 3, not "3"): that is what pld binds.
        #expect(try token.verifyPayload(minting.payloadDigest(category: "invite", fields: fields)))
        #expect(throws: ActionTokenError.self) {
            try token.verifyPayload(minting.payloadDigest(category: "invite", fields: [("inviteId", .string("43")), ("seats", .int(3))]))
        }
    }
}
