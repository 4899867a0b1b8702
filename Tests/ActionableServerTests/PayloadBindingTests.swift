import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTesting
import ActionableTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The payload a tap carries must be the one its token was minted for (`pld`): an edited
/// payload is 422 `payload-mismatch` and stores nothing, a token without `pld` is 401
/// `token-unbound` unless the server accepts unbound payloads, and an app's re-encoding of the
/// same payload is accepted.
struct PayloadBindingTests {
    static let catalog = try! Catalog(
        yaml: """
            category: invite
            payload:
              inviteId: { type: string, required: true }
              seats: integer
              price: number
              meta: object
            actions: [{ id: accept, title: Accept }]
            """)

    static func token(_ payload: [(String, JSONValue)]?, notification: String = "n-1") async throws -> String {
        try await ActionTokens(keys: [ActionsEndpointTests.key]).mint(
            user: "alice", notificationID: notification, category: "invite",
            payload: payload.map { PayloadDigest(payload: $0, schema: catalog["invite"]!.payload) })
    }

    static func tap(_ token: String, payload: String) -> String {
        #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":\#(payload)}"#
    }

    static func post(
        _ bodies: [String], settings: ServerSettings = ServerSettings(), store: InMemoryActionStore = InMemoryActionStore()
    ) async throws -> [ActionsEndpointTests.Reply] {
        let tokens = try await ActionTokens(keys: [ActionsEndpointTests.key])
        let app = Application(router: ActionableRoutes.router(catalog: catalog, store: store, tokens: tokens, settings: settings))
        return try await app.test(.router) { client in
            var replies: [ActionsEndpointTests.Reply] = []
            for body in bodies {
                replies.append(
                    try await client.execute(
                        uri: "/v1/actions", method: .post, headers: ActionsEndpointTests.json, body: ByteBuffer(string: body)
                    ) { ActionsEndpointTests.Reply(status: $0.status, body: String(buffer: $0.body), headers: $0.headers) })
            }
            return replies
        }
    }

    /// alice's notification was for inv-42; her phone answers for inv-99 under the same genuine
    /// token, adds a key, drops one, or changes a type: each is refused and nothing is stored.
    @Test func anEditedPayloadIsRefusedAndNothingIsStored() async throws {
        let token = try await Self.token([("inviteId", .string("inv-42")), ("seats", .int(2))])
        let store = InMemoryActionStore()
        let forged = [
            #"{"inviteId":"inv-99","seats":2}"#, #"{"inviteId":"inv-42","seats":3}"#, #"{"inviteId":"inv-42"}"#,
            #"{"inviteId":"inv-42","seats":2,"price":1}"#, #"{"inviteId":"inv-42 ","seats":2}"#,
        ]
        let replies = try await Self.post(forged.map { Self.tap(token, payload: $0) }, store: store)
        for (reply, payload) in zip(replies, forged) {
            #expect(reply.status == .unprocessableContent, "\(payload): \(reply.body)")
            #expect(reply.json["type"] as? String == "https://actionable.dev/problems/payload-mismatch", "\(payload)")
            #expect((reply.json["errors"] as? [[String: String]])?.first?["pointer"] == "/payload")
        }
        #expect(try await store.responseCounts().values.reduce(0, +) == 0)
        // The genuine payload still goes through afterwards.
        let genuine = try await Self.post([Self.tap(token, payload: #"{"inviteId":"inv-42","seats":2}"#)], store: store)
        #expect(genuine.map(\.status) == [.accepted])
    }

    /// The same data in another spelling — key order, 2.0 for an integer, a number in exponent
    /// form, escapes, a nested object's order — is the same payload.
    @Test func anAppsReencodingIsAccepted() async throws {
        let sent: [(String, JSONValue)] = [
            ("inviteId", .string("inv-42 é 😀")), ("seats", .int(2)), ("price", .double(12.5)),
            ("meta", .object([("a", .int(1)), ("b", .string("x"))])),
        ]
        let respellings = [
            #"{"inviteId":"inv-42 é 😀","seats":2,"price":12.5,"meta":{"a":1,"b":"x"}}"#,
            #"{"meta":{"b":"x","a":1.0},"price":1.25e1,"seats":2.0,"inviteId":"inv-42 \u00e9 \ud83d\ude00"}"#,
        ]
        for (index, payload) in respellings.enumerated() {
            let token = try await Self.token(sent, notification: "n-\(index)")
            let replies = try await Self.post([Self.tap(token, payload: payload)])
            #expect(replies.map(\.status) == [.accepted], "\(payload): \(replies.first?.body ?? "")")
        }
    }

    /// A token of an older version has no pld: refused by default (nothing stored), accepted
    /// with acceptUnboundPayloads for a migration window.
    @Test func aTokenWithoutPayloadBindingNeedsTheMigrationSwitch() async throws {
        let token = try await Self.token(nil)
        let body = Self.tap(token, payload: #"{"inviteId":"inv-99"}"#)
        let store = InMemoryActionStore()
        let refused = try await Self.post([body], store: store)
        #expect(refused.first?.status == .unauthorized)
        #expect(refused.first?.json["type"] as? String == "https://actionable.dev/problems/token-unbound")
        #expect(try await store.responseCounts().values.reduce(0, +) == 0)
        var migrating = ServerSettings()
        migrating.acceptUnboundPayloads = true
        #expect(try await Self.post([body], settings: migrating).map(\.status) == [.accepted])
        // A bound token is checked even then.
        let bound = try await Self.token([("inviteId", .string("inv-42"))], notification: "n-2")
        let forged = try await Self.post([Self.tap(bound, payload: #"{"inviteId":"inv-99"}"#)], settings: migrating)
        #expect(forged.map(\.status) == [.unprocessableContent])
    }
}
