import ActionableHTTP
import ActionableStore
import ActionableWire
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Every status of `POST /v1/send` and `GET /v1/notifications/{id}`, through the router.
struct SendEndpointTests {
    typealias Call = BadgeEndpointTests.Call
    static let backend = BadgeEndpointTests.backend
    static let phone = String(repeating: "ab", count: 32)
    static let tablet = String(repeating: "cd", count: 32)

    static func send(_ body: String, bearer: String? = backend) -> Call { Call(uri: "/v1/send", body: body, bearer: bearer) }
    static func problem(_ reply: BadgeEndpointTests.Reply) -> String? { BadgeEndpointTests.problem(reply) }
    static func pointer(_ reply: BadgeEndpointTests.Reply) -> String? {
        (reply.json["errors"] as? [[String: Any]])?.first?["pointer"] as? String
    }

    /// A store with alice's phone and tablet active, and her old phone unregistered.
    static func store() async throws -> InMemoryActionStore {
        let store = InMemoryActionStore()
        _ = try await store.register(token: phone, user: "alice", environment: .production, at: Date())
        _ = try await store.register(token: tablet, user: "alice", environment: .sandbox, at: Date())
        let old = String(repeating: "ef", count: 32)
        _ = try await store.register(token: old, user: "alice", environment: .production, at: Date())
        _ = try await store.markUnregistered(token: old, since: nil, at: Date())
        return store
    }

    @Test func aSendIsRecordedForEachActiveDeviceOnceAndReported() async throws {
        let store = try await Self.store()
        let signal = OutboxSignal()
        let body = #"{"user":"alice","category":"invite","notificationId":"n-1","alert":"Dinner?","payload":{"inviteId":"42"},"badge":"auto"}"#
        let replies = try await BadgeEndpointTests.run(
            store: store, sendSignal: signal,
            [
                Self.send(body), Self.send(body),
                Call(method: .get, uri: "/v1/notifications/n-1", bearer: Self.backend),
                Call(method: .get, uri: "/v1/badge/alice", bearer: Self.backend),
                Self.send(#"{"user":"alice","category":"invite","alert":"Lunch?","payload":{"inviteId":"43"}}"#),
            ])
        #expect(replies.map(\.status) == [.accepted, .ok, .ok, .ok, .accepted])
        #expect(replies[0].json["notificationId"] as? String == "n-1" && replies[0].json["devices"] as? Int == 2)
        #expect(replies[1].json["devices"] as? Int == 2)
        let devices = try #require(replies[2].json["devices"] as? [[String: Any]])
        #expect(Set(devices.compactMap { $0["token"] as? String }) == [Self.phone, Self.tablet])
        #expect(devices.allSatisfy { $0["state"] as? String == "pending" && $0["status"] is NSNull && $0["attempts"] as? Int == 0 })
        #expect(replies[3].json["badge"] as? Int == 1)  // "auto" recorded it once
        // An id the server made.
        let made = try #require(replies[4].json["notificationId"] as? String)
        #expect(UUID(uuidString: made) != nil)

        let stored = try #require(try await store.notification(id: "n-1"))
        #expect(stored.notification.payloadJSON == #"{"inviteId":"42"}"#)
        let apns = try #require(try JSONSerialization.jsonObject(with: Data(stored.notification.apnsPayload.utf8)) as? [String: Any])
        let aps = try #require(apns["aps"] as? [String: Any])
        #expect(aps["badge"] as? Int == 1 && aps["alert"] as? String == "Dinner?" && aps["category"] as? String == "invite")
        #expect(apns["actionToken"] is String && stored.notification.pushType == "alert")
        // The worker was woken: a signal is pending.
        await signal.wait(upTo: .seconds(600))
    }

    @Test func nothingShownIsABackgroundPush() async throws {
        let store = try await Self.store()
        let replies = try await BadgeEndpointTests.run(
            store: store, sendSignal: OutboxSignal(),
            [Self.send(#"{"user":"alice","category":"invite","notificationId":"quiet","payload":{"inviteId":"1"}}"#)])
        #expect(replies.map(\.status) == [.accepted])
        let stored = try #require(try await store.notification(id: "quiet"))
        #expect(stored.notification.pushType == "background")
        #expect(stored.notification.apnsPayload.contains(#""content-available":1"#))
    }

    @Test func badSendsAreRefusedNamingTheMemberAndNothingIsRecorded() async throws {
        let store = try await Self.store()
        let alice = try await BadgeEndpointTests.appJWT("alice")
        let invite = #""category":"invite","alert":"Hi","payload":{"inviteId":"42"}"#
        let replies = try await BadgeEndpointTests.run(
            store: store, sendSignal: OutboxSignal(),
            [
                Self.send(#"{"user":"alice",\#(invite)}"#, bearer: alice),  // 403: the app does not send
                Self.send(#"{"user":"alice",\#(invite)}"#, bearer: nil),  // 401
                Self.send(#"{"user":"alice","category":"invitation","alert":"Hi","payload":{"inviteId":"42"}}"#),  // 422 /category
                Self.send(#"{"user":"alice","category":"invite","alert":"Hi","payload":{"eventName":"x","seats":"two"}}"#),  // 422 /payload/…
                Self.send(#"{"user":"alice",\#(invite),"priority":7}"#),  // 400
                Self.send(#"{"user":"alice",\#(invite),"badge":-1}"#),  // 400
                Self.send(#"{"user":"alice",\#(invite),"badge":"some"}"#),  // 400
                Self.send(#"{"user":"alice",\#(invite),"collapseId":"\#(String(repeating: "x", count: 65))"}"#),  // 400
                Self.send(#"{"user":"",\#(invite)}"#),  // 400
                Self.send(#"{"user":"alice","category":"invite","alert":{},"payload":{"inviteId":"42"}}"#),  // 400
                Self.send(#"{"user":"alice","category":"invite","badge":1,"mutableContent":true,"payload":{"inviteId":"42"}}"#),  // 400
                // 422: over 4096 bytes
                Self.send(#"{"user":"alice","category":"invite","alert":"\#(String(repeating: "long ", count: 900))","payload":{"inviteId":"42"}}"#),
                Self.send(#"{"user":"alice","notificationId":"n-9",\#(invite)}"#),  // 202
                Self.send(#"{"user":"bob","notificationId":"n-9",\#(invite)}"#),  // 409: alice's id
                Call(method: .get, uri: "/v1/notifications/n-404", bearer: Self.backend),  // 404
                Call(method: .get, uri: "/v1/notifications/n-9", bearer: alice),  // 403
            ])
        #expect(
            replies.map(\.status) == [
                .forbidden, .unauthorized, .unprocessableContent, .unprocessableContent, .badRequest, .badRequest, .badRequest,
                .badRequest, .badRequest, .badRequest, .badRequest, .unprocessableContent, .accepted, .conflict, .notFound, .forbidden,
            ])
        #expect(Self.problem(replies[0]) == "backend-only")
        #expect(Self.pointer(replies[2]) == "/category" && Self.problem(replies[2]) == "catalog-mismatch")
        // Each payload key's problem points at the key (it pointed at /payload for every one).
        let payloadPointers = (replies[3].json["errors"] as? [[String: String]])?.compactMap { $0["pointer"] }
        #expect(payloadPointers.map { Set($0) } == ["/payload/inviteId", "/payload/seats", "/payload/eventName"], "\(replies[3].json)")
        #expect(Self.pointer(replies[4]) == "/priority" && Self.pointer(replies[5]) == "/badge")
        #expect(Self.pointer(replies[7]) == "/collapseId" && Self.pointer(replies[8]) == "/user" && Self.pointer(replies[9]) == "/alert")
        #expect(Self.pointer(replies[10]) == "/mutableContent")  // a service extension runs only for an alert
        #expect(Self.problem(replies[11]) == "notification-refused")
        #expect(Self.problem(replies[13]) == "notification-of-another-user")
        // Only n-9 was recorded, and nothing counted on a badge.
        #expect(try await store.badge(user: "alice", countingSince: .distantPast) == 0)
        #expect(try await store.notification(id: "n-9")?.sends.count == 2)
    }

    @Test func aServerThatDoesNotSendAnswers501() async throws {
        let replies = try await BadgeEndpointTests.run(
            store: try await Self.store(),
            [Self.send(#"{"user":"alice","category":"invite","alert":"Hi","payload":{"inviteId":"42"}}"#)])
        #expect(replies.map(\.status) == [.notImplemented])
        #expect(Self.problem(replies[0]) == "sending-off")
        let detail = try #require(replies[0].json["detail"] as? String)
        #expect(detail.contains("--apns-key-file") && detail.contains("--fcm-service-account"))
        // The detail adds to the title; it does not say it again ("…: this server does not send notifications: …").
        let title = try #require(replies[0].json["title"] as? String)
        #expect(!detail.lowercased().contains(title.lowercased()), "\(detail)")
    }
}
