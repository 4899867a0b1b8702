import ActionableHTTP
import ActionableStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Every status of the device endpoints, through the router.
struct DevicesEndpointTests {
    typealias Call = BadgeEndpointTests.Call
    static let backend = BadgeEndpointTests.backend
    static let phone = String(repeating: "ab", count: 32)
    static let tablet = String(repeating: "CD", count: 32)

    static func register(_ token: String, _ environment: String = "production", bearer: String?) -> Call {
        Call(uri: "/v1/devices", body: #"{"token":"\#(token)","environment":"\#(environment)"}"#, bearer: bearer)
    }

    @Test func anAppRegistersItsDevicesAndTheBackendListsThem() async throws {
        let alice = try await BadgeEndpointTests.appJWT("alice")
        let store = InMemoryActionStore()
        let replies = try await BadgeEndpointTests.run(
            store: store,
            [
                Self.register(Self.phone, bearer: alice), Self.register(Self.tablet, "sandbox", bearer: alice),
                Self.register(Self.phone, bearer: alice), Call(method: .get, uri: "/v1/devices/alice", bearer: Self.backend),
            ])
        #expect(replies.map(\.status) == [.created, .created, .ok, .ok])
        #expect(replies[1].json["token"] as? String == Self.tablet.lowercased())  // stored lowercase
        #expect(replies[1].json["environment"] as? String == "sandbox")
        let items = try #require(replies[3].json["items"] as? [[String: Any]])
        #expect(items.map { $0["token"] as? String } == [Self.tablet.lowercased(), Self.phone])
        #expect(items.allSatisfy { $0["state"] as? String == "active" && $0["lastSentAt"] is NSNull })
    }

    @Test func aDeviceUnregisteredByAPNsIsRevivedByRegisteringAgain() async throws {
        let alice = try await BadgeEndpointTests.appJWT("alice")
        let store = InMemoryActionStore()
        _ = try await BadgeEndpointTests.run(store: store, [Self.register(Self.phone, bearer: alice)])
        #expect(try await store.markUnregistered(token: Self.phone, since: nil, at: Date()))
        let replies = try await BadgeEndpointTests.run(store: store, [Self.register(Self.phone, bearer: alice)])
        #expect(replies.map(\.status) == [.created])
        #expect(try await store.devices(of: "alice").first?.state == .active)
    }

    @Test func onlyTheAppRegistersOnlyTheBackendListsAndEachRemovesWhatItMay() async throws {
        let alice = try await BadgeEndpointTests.appJWT("alice")
        let bob = try await BadgeEndpointTests.appJWT("bob")
        let replies = try await BadgeEndpointTests.run([
            Self.register(Self.phone, bearer: Self.backend),  // 403: the backend cannot register for a user
            Self.register(Self.phone, bearer: nil),  // 401
            Self.register(Self.phone, bearer: alice),  // 201
            Call(method: .get, uri: "/v1/devices/alice", bearer: alice),  // 403: the backend lists
            Call(method: .delete, uri: "/v1/devices/\(Self.phone)", bearer: bob),  // 404: not bob's
            Call(method: .delete, uri: "/v1/devices/\(Self.phone)", bearer: alice),  // 204
            Call(method: .delete, uri: "/v1/devices/\(Self.phone)", bearer: alice),  // 404: gone
            Self.register(Self.phone, bearer: alice),  // 201 again
            Call(method: .delete, uri: "/v1/devices/\(Self.phone)", bearer: Self.backend),  // 204: the backend removes any
            Call(method: .get, uri: "/v1/devices/alice", bearer: Self.backend),  // 200, empty
        ])
        #expect(
            replies.map(\.status) == [
                .forbidden, .unauthorized, .created, .forbidden, .notFound, .noContent, .notFound, .created, .noContent, .ok,
            ])
        #expect(BadgeEndpointTests.problem(replies[0]) == "app-only")
        #expect(BadgeEndpointTests.problem(replies[3]) == "backend-only")
        #expect((replies[9].json["items"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: [
        #"{"token":"xyz","environment":"production"}"#, #"{"token":"abc","environment":"production"}"#,
        #"{"token":"\#(String(repeating: "ab", count: 32))","environment":"development"}"#,
        #"{"token":"\#(String(repeating: "ab", count: 32))"}"#, #"{"environment":"production"}"#, "[]",
    ])
    func badRegistrationsAre400NamingTheField(body: String) async throws {
        let alice = try await BadgeEndpointTests.appJWT("alice")
        let store = InMemoryActionStore()
        let replies = try await BadgeEndpointTests.run(store: store, [Call(uri: "/v1/devices", body: body, bearer: alice)])
        #expect(replies.map(\.status) == [.badRequest], "\(replies.first?.body ?? "")")
        #expect(try await store.devices(of: "alice").isEmpty)
    }
}

extension DevicesEndpointTests {
    @Test func removingWhatIsNoDeviceTokenIs404() async throws {
        let alice = try await BadgeEndpointTests.appJWT("alice")
        let replies = try await BadgeEndpointTests.run([
            Call(method: .delete, uri: "/v1/devices/0", bearer: alice), Call(method: .delete, uri: "/v1/devices/not-hex", bearer: Self.backend),
        ])
        #expect(replies.map(\.status) == [.notFound, .notFound])
        #expect(BadgeEndpointTests.problem(replies[0]) == "not-found")
    }

    /// One user registering 400 devices: the first 60 of the hour are 201, the rest 429 with
    /// Retry-After and nothing stored; with the rate off, at most 100 stay active (the oldest
    /// unregistered), however many are registered. Another user is not affected.
    @Test func aDeviceFloodIsRateLimitedAndCapped() async throws {
        let alice = try await BadgeEndpointTests.appJWT("alice")
        let bob = try await BadgeEndpointTests.appJWT("bob")
        let flood = (0..<400).map { Self.register(String(format: "%064x", $0 + 1), bearer: alice) }
        let store = InMemoryActionStore()
        let replies = try await BadgeEndpointTests.run(store: store, flood + [Self.register(Self.phone, bearer: bob)])
        #expect(replies.prefix(60).allSatisfy { $0.status == .created })
        let refused = replies[60..<400]
        #expect(refused.allSatisfy { $0.status == .tooManyRequests })
        #expect(refused.allSatisfy { (Int($0.headers[.retryAfter] ?? "") ?? 0) >= 1 })
        #expect(BadgeEndpointTests.problem(replies[60]) == "too-many-registrations")
        #expect(replies[400].status == .created)
        #expect(try await store.devices(of: "alice").count == 60)

        var settings = ServerSettings(backendToken: Self.backend)
        settings.deviceLimits = DeviceLimits(maximumActive: 100, registrationsPerHour: 0)
        let capped = InMemoryActionStore()
        let uncapped = try await BadgeEndpointTests.run(store: capped, settings: settings, flood)
        #expect(uncapped.allSatisfy { $0.status == .created })
        let devices = try await capped.devices(of: "alice")
        #expect(devices.filter { $0.state == .active }.count == 100)
        #expect(Set(devices.filter { $0.state == .active }.map(\.token)) == Set((300..<400).map { String(format: "%064x", $0 + 1) }))
    }
}
