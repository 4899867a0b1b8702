import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTesting
import ActionableTokens
import ActionableWire
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Every status row of POST /v1/actions (docs/http-api.md), through the router; none but 202 stores anything.
struct ActionsEndpointTests {
    static let key = try! ActionTokenKey(parsing: "k1=0123456789abcdef0123456789abcdef")
    static let catalog = try! Catalog(
        yaml: """
            category: invite
            options: [customDismissAction]
            payload: { inviteId: { type: string, required: true } }
            actions:
              - { id: accept, title: Accept }
              - { id: decline, title: Decline }
              - { id: comment, title: Comment, input: { maxLength: 10 } }
            """, "category: message\nactions: [{ id: read, title: Read }]\n")

    struct RequestSpec: Sendable {
        var body: String
        var headers: HTTPFields
    }

    struct Reply: Sendable {
        var status: HTTPResponse.Status
        var body: String
        var headers: HTTPFields
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:] }
    }

    /// Runs `requests` against a fresh server over `store`; returns the replies.
    static func run(
        store: any ActionStore = InMemoryActionStore(), settings: ServerSettings = ServerSettings(), deliverySignal: OutboxSignal? = nil,
        _ requests: [(body: String, headers: HTTPFields)]
    ) async throws -> [Reply] {
        let tokens = try await ActionTokens(keys: [key])
        let app = Application(
            router: ActionableRoutes.router(catalog: catalog, store: store, tokens: tokens, settings: settings, deliverySignal: deliverySignal))
        let requests = requests.map { RequestSpec(body: $0.body, headers: $0.headers) }
        return try await app.test(.router) { client in
            var replies: [Reply] = []
            for request in requests {
                let reply = try await client.execute(
                    uri: "/v1/actions", method: .post, headers: request.headers,
                    body: ByteBuffer(string: request.body)
                ) { response in
                    Reply(status: response.status, body: String(buffer: response.body), headers: response.headers)
                }
                replies.append(reply)
            }
            return replies
        }
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    /// A token bound to `payload` (the default body's), or to none when `payload` is nil.
    static func token(
        category: CategoryID = "invite", notification: String = "n-1", user: String = "alice",
        actions: [ActionID]? = nil, now: Date = Date(), lifetime: TimeInterval = 3600, key: ActionTokenKey = key,
        payload: [(String, JSONValue)]? = [("inviteId", .string("42"))]
    ) async throws -> String {
        try await ActionTokens(keys: [key]).mint(
            user: user, notificationID: notification, category: category, actions: actions,
            payload: payload.map { PayloadDigest(payload: $0, schema: catalog[category]?.payload ?? PayloadSchema()) },
            lifetime: lifetime, now: now)
    }

    /// The digest of an invite payload `{"inviteId": id}` (what the example catalog's invite
    /// category declares it as, a string), for tests that mint their own tokens.
    static func inviteDigest(_ id: String) -> PayloadDigest {
        PayloadDigest(payload: [("inviteId", .string(id))], schema: PayloadSchema(fields: [PayloadField(key: "inviteId", type: .string)]))
    }

    static func body(
        _ token: String?, category: String = "invite", action: String = "accept", text: String? = nil,
        notificationID: String? = nil, payload: String = #"{"inviteId": "42"}"#
    ) -> String {
        var fields = [#""category": "\#(category)""#, #""action": "\#(action)""#, #""payload": \#(payload)"#]
        if let token { fields.append(#""actionToken": "\#(token)""#) }
        if let text { fields.append(#""userText": "\#(text)""#) }
        if let notificationID { fields.append(#""notificationId": "\#(notificationID)""#) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    @Test func acceptedThenDuplicateThenConflict() async throws {
        let store = InMemoryActionStore()
        let token = try await Self.token()
        let replies = try await Self.run(
            store: store,
            [
                (Self.body(token), Self.json), (Self.body(token), Self.json), (Self.body(token, action: "decline"), Self.json),
            ])
        #expect(replies[0].status == .accepted)
        #expect(replies[0].json["status"] as? String == "accepted")
        let id = try #require(replies[0].json["id"] as? String)
        #expect(replies[1].status == .ok)
        #expect(replies[1].json["status"] as? String == "duplicate")
        #expect(replies[1].json["id"] as? String == id)
        #expect(replies[2].status == .conflict)
        #expect(replies[2].headers[.contentType] == "application/problem+json")
        let stored = try #require(try await store.response(id: id))
        #expect(stored.response.user == "alice")
        #expect(stored.response.notificationID == "n-1")
        #expect(try await store.pendingCount() == 1)
    }

    /// An accepted response wakes the outbox's workers (they claim it at once, not at their next
    /// poll); a duplicate, a conflict or a refused request wakes nobody.
    @Test func anAcceptedResponseWakesTheOutbox() async throws {
        let store = InMemoryActionStore()
        let token = try await Self.token()
        let accepted = OutboxSignal()
        _ = try await Self.run(store: store, deliverySignal: accepted, [(Self.body(token), Self.json)])
        #expect(accepted.isPending)
        let other = OutboxSignal()
        let replies = try await Self.run(
            store: store, deliverySignal: other,
            [(Self.body(token), Self.json), (Self.body(token, action: "decline"), Self.json), ("not json", Self.json)])
        #expect(replies.map(\.status) == [.ok, .conflict, .badRequest])
        #expect(!other.isPending)
    }

    @Test(arguments: [
        ("not json at all", "invalid-json", ""),
        (#"{"category": 1, "action": "accept"}"#, "invalid-request", "/category"),
        (#"{"action": "accept"}"#, "invalid-request", "/category"),
        (#"{"category": "invite", "action": "accept", "payload": [1]}"#, "invalid-request", "/payload"),
        (
            #"{"category": "invite", "action": "accept", "payload": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": {"j": {"k": {"l": {"m": {"n": {"o": {"p": {"q": {"r": {"s": {"t": {"u": {"v": {"w": {"x": {"y": {"z": {"A": {"B": {"C": {"D": {"E": {"F": {"G": 1}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}"#,
            "invalid-request", ""
        ),
        ("[]", "invalid-request", ""),
    ])
    func malformedBodiesAre400(body: String, type: String, pointer: String) async throws {
        let store = InMemoryActionStore()
        let reply = try #require(try await Self.run(store: store, [(body, Self.json)]).first)
        #expect(reply.status == .badRequest, "\(reply.body)")
        #expect((reply.json["type"] as? String)?.hasSuffix(type) == true, "\(reply.body)")
        #expect(reply.json["status"] as? Int == 400)
        if !pointer.isEmpty {
            let errors = reply.json["errors"] as? [[String: String]]
            #expect(errors?.first?["pointer"] == pointer, "\(reply.body)")
        }
        #expect(try await store.pendingCount() == 0)
    }

    @Test func tokenFailuresAre401() async throws {
        let store = InMemoryActionStore()
        let good = try await Self.token()
        let otherKey = try ActionTokenKey(parsing: "k1=another-secret-another-secret-1234")
        let forged = try await Self.token(key: otherKey)
        let unknownKey = try await Self.token(key: try ActionTokenKey(parsing: "k9=0123456789abcdef0123456789abcdef"))
        let expired = try await Self.token(now: Date().addingTimeInterval(-7200), lifetime: 60)
        let parts = good.split(separator: ".")
        let tampered = [parts[0], parts[1].dropLast() + (parts[1].last == "A" ? "B" : "A"), parts[2]].joined(separator: ".")
        let replies = try await Self.run(
            store: store,
            [
                (Self.body(nil), Self.json), (Self.body("garbage"), Self.json), (Self.body(forged), Self.json),
                (Self.body(unknownKey), Self.json), (Self.body(expired), Self.json), (Self.body(tampered), Self.json),
            ])
        #expect(replies.map(\.status) == Array(repeating: .unauthorized, count: 6), "\(replies.map(\.body))")
        #expect((replies[0].json["type"] as? String)?.hasSuffix("token-missing") == true)
        #expect((replies[4].json["type"] as? String)?.hasSuffix("token-expired") == true)
        #expect(try await store.pendingCount() == 0)
    }

    @Test func tokensThatDoNotCoverTheResponseAre403() async throws {
        let store = InMemoryActionStore()
        let replies = try await Self.run(
            store: store,
            [
                (Self.body(try await Self.token(category: "message")), Self.json),
                (Self.body(try await Self.token(actions: ["decline"])), Self.json),
                (Self.body(try await Self.token(notification: "n-1"), notificationID: "n-2"), Self.json),
            ])
        #expect(replies.map(\.status) == [.forbidden, .forbidden, .forbidden], "\(replies.map(\.body))")
        let errors = replies[2].json["errors"] as? [[String: String]]
        #expect(errors?.first?["pointer"] == "/notificationId")
        #expect(try await store.pendingCount() == 0)
    }

    @Test func catalogMismatchesAre422() async throws {
        let store = InMemoryActionStore()
        let message = try await Self.token(category: "message")
        let replies = try await Self.run(
            store: store,
            [
                (Self.body(try await Self.token(category: "invte"), category: "invte"), Self.json),
                (Self.body(try await Self.token(), action: "acept"), Self.json),
                (Self.body(message, category: "message", action: "com.apple.UNNotificationDismissActionIdentifier", payload: "{}"), Self.json),
                (Self.body(try await Self.token(), text: "hi"), Self.json),
                (Self.body(try await Self.token(), action: "comment", text: "far too long text"), Self.json),
                (Self.body(try await Self.token(), payload: #"{"inviteId": 42}"#), Self.json),
            ])
        #expect(replies.map(\.status) == Array(repeating: .unprocessableContent, count: 6), "\(replies.map(\.body))")
        let pointers = replies.map { ($0.json["errors"] as? [[String: String]])?.first?["pointer"] }
        #expect(pointers == ["/category", "/action", "/action", "/userText", "/userText", "/payload/inviteId"])
        #expect((replies[1].json["detail"] as? String)?.contains("did you mean \"accept\"") == true)
        #expect(try await store.pendingCount() == 0)
    }

    @Test func oversizedBodiesAre413AndWrongTypesAre415() async throws {
        let store = InMemoryActionStore()
        let token = try await Self.token()
        let big = Self.body(token, payload: #"{"inviteId": "\#(String(repeating: "x", count: 20_000))"}"#)
        let replies = try await Self.run(
            store: store, settings: ServerSettings(maximumBodySize: 16 * 1024),
            [
                (big, Self.json),
                (Self.body(token), [.contentType: "text/plain"]),
                (Self.body(token), [:]),
                (Self.body(token), [.contentType: "application/json; charset=utf-8"]),
            ])
        #expect(replies.map(\.status) == [.contentTooLarge, .unsupportedMediaType, .unsupportedMediaType, .accepted])
        #expect(try await store.pendingCount() == 1)
    }

    struct FailingStore: ActionStore {
        struct Down: Error {}
        func accept(_ action: NewResponse) async throws -> AcceptResult { throw Down() }
        func response(id: String) async throws -> AcceptedResponse? { throw Down() }
        func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [AcceptedResponse] { throw Down() }
        func markDelivered(id: String, owner: String, at: Date) async throws { throw Down() }
        func reschedule(id: String, owner: String, at: Date, error: String) async throws { throw Down() }
        func markDead(id: String, owner: String, reason: String) async throws { throw Down() }
        func pendingCount() async throws -> Int { throw Down() }
        func oldestDue(now: Date) async throws -> Date? { throw Down() }
        func recordActivity(_ counts: [ActivityCount], forgetBefore: ActivityMinute?) async throws { throw Down() }
        func activity(_ series: [ActivitySeries], from: ActivityMinute, to: ActivityMinute, byMinute: Bool) async throws -> [ActivityCount] {
            throw Down()
        }
        func checkReachable() async throws { throw Down() }
        func recordSent(_ notification: SentNotification, countingSince: Date) async throws -> BadgeRecordResult { throw Down() }
        func markRead(user: String, notificationIDs: [String], at: Date, countingSince: Date) async throws -> Int { throw Down() }
        func markAllRead(user: String, at: Date, countingSince: Date) async throws -> Int { throw Down() }
        func badge(user: String, countingSince: Date) async throws -> Int { throw Down() }
        func unreadTotal(countingSince: Date) async throws -> Int { throw Down() }
        func responses(matching filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int) async throws -> ActionableStore.ResponsePage {
            throw Down()
        }
        func requeue(id: String, at: Date) async throws -> RequeueResult { throw Down() }
        func requeue(matching filter: ResponseFilter, at: Date) async throws -> Int { throw Down() }
        func responseCounts() async throws -> [ResponseStatus: Int] { throw Down() }
        func purge(_ cutoff: PurgeCutoff, limit: Int) async throws -> PurgeCount { throw Down() }
        func register(
            token: String, user: String, platform: DevicePlatform, environment: APNsEnvironment, at: Date, limits: DeviceLimits
        ) async throws -> DeviceRegistration {
            throw Down()
        }
        func removeDevice(token: String, user: String?) async throws -> Bool { throw Down() }
        func devices(of user: String) async throws -> [Device] { throw Down() }
        func markUnregistered(token: String, since: Date?, at: Date) async throws -> Bool { throw Down() }
        func recordNotification(_ notification: NewNotification, devices: [Device]) async throws -> NotificationRecordResult {
            throw Down()
        }
        func claimDueSends(now: Date, limit: Int, lease: TimeInterval, owner: String, platform: DevicePlatform) async throws -> [ClaimedSend] {
            throw Down()
        }
        func finishSend(notificationID: String, token: String, owner: String, outcome: SendOutcome, at: Date) async throws {
            throw Down()
        }
        func finishSends(_ finished: [FinishedSend], owner: String) async throws { throw Down() }
        func notification(id: String) async throws -> StoredNotification? { throw Down() }
        func endpoints() async throws -> [Endpoint] { throw Down() }
        func endpoint(id: String) async throws -> Endpoint? { throw Down() }
        func createEndpoint(_ endpoint: Endpoint) async throws -> Bool { throw Down() }
        func updateEndpoint(id: String, _ change: EndpointChange, at: Date) async throws -> Endpoint? { throw Down() }
        func fanOut(_ routes: [FanOut], owner: String, at: Date) async throws { throw Down() }
        func hold(_ responses: [HeldResponse], owner: String) async throws { throw Down() }
        func fanOutAtAccept(_ fanOut: AcceptFanOut) async {}
        func resumeIfPausedByMissingFlag(id: String, at: Date) async throws -> Bool { throw Down() }
        func recordSignOut(session: String, until: Date, now: Date) async throws { throw Down() }
        func isSignedOut(session: String) async throws -> Bool { throw Down() }
        func claimDeliveries(
            endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings,
            if claimable: @escaping @Sendable (Endpoint) -> Bool
        ) async throws -> EndpointClaim { throw Down() }
        func finishDeliveries(_ attempts: [FinishedAttempt], owner: String, breaker: BreakerSettings) async throws -> [EndpointGate.Fate?] {
            throw Down()
        }
        func endpointDeliveries(responseID: String) async throws -> [EndpointDelivery] { throw Down() }
        func shareProviderToken(
            keyID: String, candidate: String, issuedAt: Date, reuseIfIssuedAfter: Date
        ) async throws
            -> SharedProviderToken
        { throw Down() }
    }

    @Test func storageFailuresAre503WithRetryAfter() async throws {
        let replies = try await Self.run(store: FailingStore(), [(Self.body(try await Self.token()), Self.json)])
        #expect(replies.first?.status == .serviceUnavailable)
        #expect(replies.first?.headers[.retryAfter] == "5")
    }

    @Test func withTokensOffTheBodyNamesTheNotification() async throws {
        let store = InMemoryActionStore()
        let replies = try await Self.run(
            store: store, settings: ServerSettings(requireActionTokens: false),
            [
                (Self.body(nil, notificationID: "n-7"), Self.json), (Self.body(nil), Self.json),
            ])
        #expect(replies.map(\.status) == [.accepted, .badRequest])
    }
}

struct CatalogAndHealthTests {
    @Test func theCatalogHasAnETagAndAnswers304() async throws {
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog,
                store: InMemoryActionStore(), tokens: nil))
        try await app.test(.router) { client in
            let etag = try await client.execute(uri: "/v1/categories", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == ActionsEndpointTests.catalog.jsonValue.serialized())
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/v1/categories", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/v1/categories", method: .get, headers: [.ifNoneMatch: "\"other\""]) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func healthAndReadiness() async throws {
        let up = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog,
                store: InMemoryActionStore(), tokens: nil))
        try await up.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
        }
        let down = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog,
                store: ActionsEndpointTests.FailingStore(), tokens: nil))
        try await down.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .serviceUnavailable) }
        }
    }
}

/// The optional app bearer JWT: 401 without a valid one, 403 when it names another user.
struct AppTokenTests {
    @Test func theAppsOwnTokenMustNameTheActionTokensUser() async throws {
        let appKey = try ActionTokenKey(parsing: "app=fedcba9876543210fedcba9876543210")
        let appTokens = await AppTokens(keys: [appKey])
        let store = InMemoryActionStore()
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog, store: store,
                tokens: try await ActionTokens(keys: [ActionsEndpointTests.key]), appTokens: appTokens))
        let body = ActionsEndpointTests.body(try await ActionsEndpointTests.token(user: "alice"))
        let alice = try await appTokens.mint(user: "alice", keyID: "app")
        let bob = try await appTokens.mint(user: "bob", keyID: "app")
        let statuses = try await app.test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for bearer in [nil, "garbage", bob, alice] {
                var headers = ActionsEndpointTests.json
                if let bearer { headers[.authorization] = "Bearer \(bearer)" }
                statuses.append(
                    try await client.execute(
                        uri: "/v1/actions", method: .post, headers: headers,
                        body: ByteBuffer(string: body)
                    ) { $0.status })
            }
            return statuses
        }
        #expect(statuses == [.unauthorized, .unauthorized, .forbidden, .accepted])
        #expect(try await store.pendingCount() == 1)
    }
}
