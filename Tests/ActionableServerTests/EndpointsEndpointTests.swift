import ActionableHTTP
import ActionableStore
import Foundation
import Hummingbird
import Testing

/// `/v1/endpoints` through the router: who may call it, what is checked before anything is
/// stored (and named by its JSON pointer), and what each change does to the stored endpoint.
struct EndpointsEndpointTests {
    static let admin = DeliveriesEndpointTests.admin
    typealias Call = BadgeEndpointTests.Call
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let other = "whsec_QWN0aW9uYWJsZSBzZWNyZXQgdHdvIQ=="

    static func run(_ store: InMemoryActionStore, defaultSecret: Bool = true, _ calls: [Call]) async throws -> [ActionsEndpointTests.Reply] {
        var settings = ServerSettings(adminToken: admin)
        settings.hasDefaultWebhookSecret = defaultSecret
        return try await BadgeEndpointTests.run(store: store, settings: settings, appTokens: false, calls)
    }

    static func call(_ method: HTTPRequest.Method, _ uri: String, _ body: String = "", bearer: String? = admin) -> Call {
        Call(method: method, uri: uri, body: body, bearer: bearer)
    }

    static func pointers(_ reply: ActionsEndpointTests.Reply) -> [String] {
        (reply.json["errors"] as? [[String: String]])?.compactMap { $0["pointer"] } ?? []
    }

    @Test func onlyTheAdminTokenReachesEndpoints() async throws {
        let store = InMemoryActionStore()
        let body = #"{"id":"crm","url":"https://crm.example/hook","filter":["invite.*"]}"#
        let replies = try await Self.run(
            store,
            [
                Self.call(.get, "/v1/endpoints", bearer: nil), Self.call(.post, "/v1/endpoints", body, bearer: "not-the-token"),
                Self.call(.post, "/v1/endpoints/crm/pause", bearer: nil),
                Self.call(.patch, "/v1/endpoints/crm", #"{"paused":true}"#, bearer: BadgeEndpointTests.backend),
            ])
        #expect(replies.map(\.status) == [.unauthorized, .unauthorized, .unauthorized, .unauthorized])
        #expect(await store.endpoints().isEmpty)
    }

    @Test func anEndpointIsCreatedListedAndItsSecretNeverShown() async throws {
        let store = InMemoryActionStore()
        let replies = try await Self.run(
            store,
            [
                Self.call(
                    .post, "/v1/endpoints",
                    #"{"id":"crm","url":"https://crm.example/hook?key=s3cret","filter":["invite.*","invite.accept"],"secret":"\#(Self.secret)","rateLimit":2.5}"#
                ),
                Self.call(.post, "/v1/endpoints", #"{"url":"http://10.0.0.1:9000/rsvp","filter":["*"]}"#),
                Self.call(.post, "/v1/endpoints", #"{"id":"crm","url":"https://elsewhere.example/","filter":["*"]}"#),
                Self.call(.get, "/v1/endpoints"), Self.call(.get, "/v1/endpoints/crm"), Self.call(.get, "/v1/endpoints/nope"),
            ])
        #expect(replies.map(\.status) == [.created, .created, .conflict, .ok, .ok, .notFound])
        #expect(replies[0].headers[.location] == "/v1/endpoints/crm")
        #expect(replies[0].json["state"] as? String == "active" && replies[0].json["secrets"] as? Int == 1)
        #expect(replies[0].json["rateLimit"] as? Double == 2.5)
        let named = try #require(replies[1].json["id"] as? String)
        #expect(Endpoint.isValidID(named) && named.hasPrefix("ep-"))
        #expect(replies[2].json["type"] as? String == "https://actionable.dev/problems/endpoint-exists")
        let items = (replies[3].json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(items == [named, "crm"].sorted())
        #expect(!replies.contains { $0.body.contains("whsec_") })
        #expect(try await store.endpoint(id: "crm")?.secret == Self.secret)
    }

    @Test func whatIsWrongIsNamedByPointerAndNothingIsStored() async throws {
        let store = InMemoryActionStore()
        let replies = try await Self.run(
            store, defaultSecret: false,
            [
                Self.call(
                    .post, "/v1/endpoints",
                    #"{"id":"Bad Id","url":"ftp://x","filter":["invite.*","nope.accept","invite.nope"],"secret":"whsec_short","rateLimit":0}"#
                ),
                Self.call(.post, "/v1/endpoints", #"{"url":"https://a.example/","filter":[]}"#),
                Self.call(.post, "/v1/endpoints", #"{"url":"https://a.example/","filter":["*"],"secret":null}"#),
                Self.call(.post, "/v1/endpoints", #"{"filter":["*"]}"#),
                Self.call(.post, "/v1/endpoints", "not json"),
            ])
        #expect(replies.map(\.status) == [.badRequest, .badRequest, .badRequest, .badRequest, .badRequest])
        #expect(Self.pointers(replies[0]) == ["/id", "/url", "/filter/1", "/filter/2", "/secret", "/rateLimit"])
        // Without a secret of its own, and none on the server, nothing could sign its calls.
        #expect(Self.pointers(replies[1]) == ["/filter", "/secret"])
        #expect((replies[1].json["detail"] as? String)?.contains("no --forward-secret") == true)
        #expect(await store.endpoints().isEmpty)
    }

    @Test func changesRotateTheSecretPauseResumeAndLiftTheLimit() async throws {
        let store = InMemoryActionStore()
        let replies = try await Self.run(
            store,
            [
                Self.call(.post, "/v1/endpoints", #"{"id":"crm","url":"https://crm.example/hook","filter":["*"],"rateLimit":5}"#),
                Self.call(.patch, "/v1/endpoints/crm", #"{"secret":"\#(Self.other)"}"#),
                Self.call(.post, "/v1/endpoints/crm/pause"),
                Self.call(.patch, "/v1/endpoints/crm", #"{"rateLimit":null,"filter":["invite.accept"]}"#),
                Self.call(.patch, "/v1/endpoints/crm", #"{"previousSecret":"whsec_x"}"#),
                Self.call(.patch, "/v1/endpoints/crm", #"{"url":"gopher://x"}"#),
                Self.call(.patch, "/v1/endpoints/nope", #"{"paused":true}"#),
            ])
        #expect(replies.map(\.status) == [.created, .ok, .ok, .ok, .badRequest, .badRequest, .notFound])
        // Rotating away from the server's secret keeps it signing beside the new one.
        #expect(replies[1].json["secrets"] as? Int == 2)
        #expect(replies[2].json["state"] as? String == "paused")
        #expect(replies[3].json["rateLimit"] is NSNull && replies[3].json["paused"] as? Bool == true)
        let stored = try #require(try await store.endpoint(id: "crm"))
        #expect(stored.secret == Self.other && stored.previousSecret == Endpoint.serverSecret)
        #expect(stored.filter == ["invite.accept"] && stored.url == "https://crm.example/hook")

        let resumed = try await Self.run(
            store, [Self.call(.post, "/v1/endpoints/crm/resume"), Self.call(.patch, "/v1/endpoints/crm", #"{"previousSecret":null}"#)])
        #expect(resumed.map(\.status) == [.ok, .ok])
        #expect(resumed[0].json["state"] as? String == "active")
        #expect(resumed[1].json["secrets"] as? Int == 1)
    }
}
