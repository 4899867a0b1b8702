import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTesting
import ActionableTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Every status of the badge endpoints, through the router.
struct BadgeEndpointTests {
    static let backend = "backend-token-0123456789abcdefghijklm"
    static let appKey = try! ActionTokenKey(parsing: "app=app-secret-0123456789abcdef0123456789")

    struct Call: Sendable {
        var method: HTTPRequest.Method = .post
        var uri: String
        var body: String = ""
        var bearer: String?
        var contentType: String? = "application/json"
    }

    typealias Reply = ActionsEndpointTests.Reply

    /// Runs `calls` in order against one server over `store`.
    static func run(
        store: any ActionStore = InMemoryActionStore(), settings: ServerSettings = ServerSettings(backendToken: backend),
        appTokens: Bool = true, sendSignal: OutboxSignal? = nil, _ calls: [Call]
    ) async throws -> [Reply] {
        let tokens = try await ActionTokens(keys: [ActionsEndpointTests.key])
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog, store: store, tokens: tokens, settings: settings,
                appTokens: appTokens ? await AppTokens(keys: [appKey]) : nil, sendSignal: sendSignal))
        return try await app.test(.router) { client in
            var replies: [Reply] = []
            for call in calls {
                var headers: HTTPFields = [:]
                if let contentType = call.contentType { headers[.contentType] = contentType }
                if let bearer = call.bearer { headers[.authorization] = "Bearer \(bearer)" }
                replies.append(
                    try await client.execute(uri: call.uri, method: call.method, headers: headers, body: ByteBuffer(string: call.body)) {
                        Reply(status: $0.status, body: String(buffer: $0.body), headers: $0.headers)
                    })
            }
            return replies
        }
    }

    static func record(_ id: String, user: String = "alice", category: String = "invite", bearer: String? = backend) -> Call {
        Call(uri: "/v1/notifications", body: #"{"user":"\#(user)","notificationId":"\#(id)","category":"\#(category)"}"#, bearer: bearer)
    }

    static func appJWT(_ user: String) async throws -> String {
        try await AppTokens(keys: [appKey]).mint(user: user, keyID: "app")
    }

    static func badge(_ reply: Reply) -> Int? { reply.json["badge"] as? Int }
    static func problem(_ reply: Reply) -> String? { (reply.json["type"] as? String)?.split(separator: "/").last.map(String.init) }

    @Test func recordingAnswers201ThenThe200OfTheSameCountAnd409ForAnotherUser() async throws {
        let replies = try await Self.run([
            Self.record("n-1"), Self.record("n-2"), Self.record("n-1"), Self.record("n-1", user: "bob"),
            Call(method: .get, uri: "/v1/badge/alice", bearer: Self.backend),
        ])
        #expect(replies.map(\.status) == [.created, .created, .ok, .conflict, .ok])
        #expect(replies.map(Self.badge) == [1, 2, 2, nil, 2])
        #expect(Self.problem(replies[3]) == "notification-of-another-user")
        #expect(replies[0].headers[.contentType] == "application/json")
    }

    @Test func credentialsAreCheckedFirst() async throws {
        let alice = try await Self.appJWT("alice")
        let replies = try await Self.run([
            Self.record("n-1", bearer: nil),  // 401: none
            Self.record("n-1", bearer: "not-the-backend-token"),  // 401: wrong
            Self.record("n-1", bearer: alice),  // 403: an app cannot record
            Call(method: .get, uri: "/v1/badge/bob", bearer: alice),  // 403: another user's badge
            Call(method: .get, uri: "/v1/badge/alice", bearer: alice),  // 200: its own
            Call(method: .get, uri: "/v1/badge/alice"),  // 401
            Call(uri: "/v1/badge/read", body: #"{"all":true,"user":"bob"}"#, bearer: alice),  // 403
        ])
        #expect(replies.map(\.status) == [.unauthorized, .unauthorized, .forbidden, .forbidden, .ok, .unauthorized, .forbidden])
        #expect(
            replies.map(Self.problem) == [
                "credentials-missing", "credentials-invalid", "backend-only", "other-user", nil, "credentials-missing", "other-user",
            ])
        #expect((replies[1].json["detail"] as? String)?.contains("neither the backend token nor a valid app JWT") == true)
    }

    @Test func withoutABackendTokenOrAppKeysTheProblemSaysHowToTurnThemOn() async throws {
        let replies = try await Self.run(settings: ServerSettings(), appTokens: false, [Self.record("n-1", bearer: "anything")])
        #expect(replies.first?.status == .unauthorized)
        #expect((replies.first?.json["detail"] as? String)?.contains("--backend-token") == true)
    }

    @Test func malformedRequestsAre400413415And422WithTheFieldAtFault() async throws {
        let long = String(repeating: "x", count: 257)
        let replies = try await Self.run(
            settings: ServerSettings(maximumBodySize: 400, backendToken: Self.backend),
            [
                Self.record("n-1", category: "invte"),  // 422
                Call(uri: "/v1/notifications", body: #"{"user":"alice","category":"invite"}"#, bearer: Self.backend),  // 400
                Call(uri: "/v1/notifications", body: #"{"user":7,"notificationId":"n","category":"invite"}"#, bearer: Self.backend),
                Call(uri: "/v1/notifications", body: "{", bearer: Self.backend),
                Self.record("", user: "alice"),
                Self.record("n-1", user: long),
                Call(
                    uri: "/v1/notifications", body: #"{"user":"a","notificationId":"n","category":"invite"}"#, bearer: Self.backend,
                    contentType: "text/plain"),
                Call(uri: "/v1/notifications", body: String(repeating: " ", count: 500), bearer: Self.backend),  // 413
                Call(uri: "/v1/badge/read", body: #"{"all":true}"#, bearer: Self.backend),  // backend without user
                Call(uri: "/v1/badge/read", body: #"{"user":"alice"}"#, bearer: Self.backend),  // neither ids nor all
                Call(uri: "/v1/badge/read", body: #"{"user":"alice","all":true,"notificationIds":["n"]}"#, bearer: Self.backend),
                Call(method: .get, uri: "/v1/badge/\(long)", bearer: Self.backend),
            ])
        #expect(
            replies.map(\.status) == [
                .unprocessableContent, .badRequest, .badRequest, .badRequest, .badRequest, .badRequest, .unsupportedMediaType, .contentTooLarge,
                .badRequest, .badRequest, .badRequest, .badRequest,
            ])
        #expect((replies[0].json["detail"] as? String)?.contains(#"did you mean "invite""#) == true)
        let pointers = replies.map { (($0.json["errors"] as? [[String: Any]])?.first?["pointer"] as? String) ?? "" }
        #expect(
            pointers == [
                "/category", "/notificationId", "/user", "", "/notificationId", "/user", "", "", "/user", "/notificationIds", "/notificationIds",
                "/user",
            ])
    }

    @Test func anUnknownUserHasABadgeOfZero() async throws {
        let replies = try await Self.run([Call(method: .get, uri: "/v1/badge/nobody", bearer: Self.backend)])
        #expect(replies.first?.status == .ok)
        #expect(replies.first.flatMap(Self.badge) == 0)
    }

    @Test func readsByTheAppOrTheBackendAndAnAcceptedTapLowerTheBadgeOnce() async throws {
        let store = InMemoryActionStore()
        let alice = try await Self.appJWT("alice")
        let tap = ActionsEndpointTests.body(try await ActionsEndpointTests.token(notification: "n-3"))
        var actions = Call(uri: "/v1/actions", body: tap, bearer: alice)
        actions.method = .post
        let replies = try await Self.run(
            store: store,
            [
                Self.record("n-1"), Self.record("n-2"), Self.record("n-3"), Self.record("n-4"), Self.record("n-5"),
                Call(uri: "/v1/badge/read", body: #"{"notificationIds":["n-1","n-1","n-unknown"]}"#, bearer: alice),  // 4
                Call(uri: "/v1/badge/read", body: #"{"notificationIds":["n-1"]}"#, bearer: alice),  // still 4
                Call(uri: "/v1/badge/read", body: #"{"notificationIds":["n-2"],"user":"alice"}"#, bearer: Self.backend),  // 3
                actions, actions,  // the tap on n-3, retried: 2
                Call(method: .get, uri: "/v1/badge/alice", bearer: Self.backend),
                Call(uri: "/v1/badge/read", body: #"{"all":true}"#, bearer: alice),  // 0: the app set its badge to 0
                Self.record("n-5"),  // recorded before, read: not counted again
            ])
        #expect(replies.map(\.status) == [.created, .created, .created, .created, .created, .ok, .ok, .ok, .accepted, .ok, .ok, .ok, .ok])
        #expect(replies.map(Self.badge) == [1, 2, 3, 4, 5, 4, 4, 3, nil, nil, 2, 0, 0])
    }

    @Test func tooManyIDsInOneReadAreRefused() async throws {
        let ids = (0...BadgeControllerLimits.maximumIDs).map { "\"n-\($0)\"" }.joined(separator: ",")
        let replies = try await Self.run(
            settings: ServerSettings(maximumBodySize: 64 * 1024, backendToken: Self.backend),
            [Call(uri: "/v1/badge/read", body: #"{"user":"alice","notificationIds":[\#(ids)]}"#, bearer: Self.backend)])
        #expect(replies.first?.status == .badRequest)
        #expect((replies.first?.json["detail"] as? String)?.contains("at most 1000") == true)
    }
}

enum BadgeControllerLimits {
    static let maximumIDs = 1000
}
