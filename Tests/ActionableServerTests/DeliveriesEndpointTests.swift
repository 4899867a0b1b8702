import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTesting
import ActionableTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The operators' deliveries API, through the router: every status and filter.
struct DeliveriesEndpointTests {
    static let admin = "operator-token-0123456789abcdefghijkl"
    typealias Call = BadgeEndpointTests.Call
    typealias Reply = ActionsEndpointTests.Reply

    /// A store with r-000…r-009 (invite, a second apart), r-000…r-002 dead and r-003 delivered.
    static func seeded() async throws -> InMemoryActionStore {
        let store = InMemoryActionStore()
        for index in 0..<10 {
            _ = try await store.accept(
                NewResponse(
                    id: String(format: "r-%03d", index),
                    response: ActionResponse(
                        category: index < 8 ? "invite" : "message", action: index < 8 ? "accept" : "read", notificationID: "n-\(index)",
                        user: "u"),
                    receivedAt: Date(timeIntervalSince1970: 1_000 + Double(index))))
        }
        let claimed = try await store.claimDue(now: Date(timeIntervalSince1970: 2_000), limit: 4, lease: 60, owner: "w")
        for action in claimed {
            if action.id == "r-003" {
                try await store.markDelivered(id: action.id, owner: "w", at: Date())
            } else {
                try await store.markDead(id: action.id, owner: "w", reason: "upstream answered 410 Gone")
            }
        }
        return store
    }

    static func run(_ store: InMemoryActionStore, _ calls: [Call]) async throws -> [Reply] {
        try await BadgeEndpointTests.run(store: store, settings: ServerSettings(adminToken: admin), appTokens: false, calls)
    }

    static func get(_ query: String) -> Call { Call(method: .get, uri: "/v1/deliveries\(query)", bearer: admin) }
    static func ids(_ reply: Reply) -> [String] { (reply.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [] }

    @Test func listsNewestFirstByStateCategoryAndTimeAPageAtATime() async throws {
        let store = try await Self.seeded()
        let replies = try await Self.run(
            store,
            [
                Self.get("?limit=4"), Self.get("?state=dead"), Self.get("?category=message"),
                Self.get("?since=1005&until=1007"), Self.get("?since=1970-01-01T00:16:45Z&until=1007&state=pending"),
            ])
        #expect(replies.map(\.status) == [.ok, .ok, .ok, .ok, .ok])
        #expect(Self.ids(replies[0]) == ["r-009", "r-008", "r-007", "r-006"])
        #expect(Self.ids(replies[1]) == ["r-002", "r-001", "r-000"])
        #expect(Self.ids(replies[2]) == ["r-009", "r-008"])
        #expect(Self.ids(replies[3]) == ["r-006", "r-005"])
        #expect(Self.ids(replies[4]) == ["r-006", "r-005"])
        let dead = try #require((replies[1].json["items"] as? [[String: Any]])?.first)
        #expect(dead["state"] as? String == "dead")
        #expect(dead["lastError"] as? String == "upstream answered 410 Gone")
        #expect(dead["attempts"] as? Int == 1)
        #expect(dead["nextAttemptAt"] is NSNull)
        #expect(
            Set(dead.keys) == ["id", "category", "action", "notificationId", "user", "state", "attempts", "lastError", "receivedAt", "nextAttemptAt"])
        #expect(replies[1].json["nextCursor"] == nil)

        // Following the cursor to the end, while a newer response arrives, visits each once.
        var seen: [String] = []
        var cursor: String?
        repeat {
            let reply = try #require(try await Self.run(store, [Self.get("?limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))]).first)
            seen += Self.ids(reply)
            cursor = reply.json["nextCursor"] as? String
            if seen.count == 3 {
                _ = try await store.accept(
                    NewResponse(id: "r-new", response: ActionResponse(category: "invite", action: "accept", notificationID: "n-new", user: "u")))
            }
        } while cursor != nil
        #expect(seen == (0..<10).reversed().map { String(format: "r-%03d", $0) })
    }

    @Test func badQueriesAre400NamingTheParameterAndNoTokenIs401() async throws {
        let store = try await Self.seeded()
        let replies = try await Self.run(
            store,
            [
                Self.get("?state=lost"), Self.get("?limit=0"), Self.get("?limit=501"), Self.get("?since=yesterday"),
                Self.get("?cursor=not-a-cursor"), Call(method: .get, uri: "/v1/deliveries"),
                Call(method: .get, uri: "/v1/deliveries", bearer: "wrong"),
            ])
        #expect(replies.map(\.status) == [.badRequest, .badRequest, .badRequest, .badRequest, .badRequest, .unauthorized, .unauthorized])
        let pointers = replies.prefix(5).map { (($0.json["errors"] as? [[String: Any]])?.first?["pointer"] as? String) ?? "" }
        #expect(pointers == ["/state", "/limit", "/limit", "/since", "/cursor"])
        #expect((replies[0].json["detail"] as? String)?.contains("pending, held, delivered or dead") == true)
    }

    @Test func retryingOneQueuesItOnceAndSaysWhyWhenItCannot() async throws {
        let store = try await Self.seeded()
        let replies = try await Self.run(
            store,
            [
                Call(uri: "/v1/deliveries/r-000/retry", bearer: Self.admin), Call(uri: "/v1/deliveries/r-000/retry", bearer: Self.admin),
                Call(uri: "/v1/deliveries/r-003/retry", bearer: Self.admin), Call(uri: "/v1/deliveries/r-009/retry", bearer: Self.admin),
                Call(uri: "/v1/deliveries/nope/retry", bearer: Self.admin), Call(uri: "/v1/deliveries/r-001/retry"),
            ])
        #expect(replies.map(\.status) == [.accepted, .conflict, .accepted, .conflict, .notFound, .unauthorized])
        #expect(replies[0].json["state"] as? String == "pending")
        #expect(replies[1].json["type"] as? String == "https://actionable.dev/problems/delivery-pending")
        let requeued = try #require(try await store.response(id: "r-000"))
        #expect(requeued.status == .pending)
        #expect(requeued.attempts == 0)
    }

    @Test func retryingByFilterAnswersHowManyWereQueued() async throws {
        let store = try await Self.seeded()
        let replies = try await Self.run(
            store,
            [
                Call(uri: "/v1/deliveries/retry", body: #"{"state":"dead","until":1001}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"state":"dead","category":"invite","since":"1970-01-01T00:16:40Z"}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"state":"pending"}"#, bearer: Self.admin),
                // No filter is not "everything" by accident: it must be said.
                Call(uri: "/v1/deliveries/retry", body: #"{}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"all":false}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"all":true,"state":"dead"}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"all":"yes"}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"all":true}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"state":"gone"}"#, bearer: Self.admin),
                Call(uri: "/v1/deliveries/retry", body: #"{"state":7}"#, bearer: Self.admin),
            ])
        #expect(replies.map(\.status) == [.ok, .ok, .ok, .badRequest, .badRequest, .badRequest, .badRequest, .ok, .badRequest, .badRequest])
        #expect(replies.prefix(3).map { $0.json["queued"] as? Int } == [1, 2, 0])
        #expect(replies[7].json["queued"] as? Int == 1)
        #expect((replies[3].json["errors"] as? [[String: String]])?.first?["pointer"] == "/all")
        #expect(try await store.responseCounts() == [.pending: 10])
    }
}
