import ActionableStore
import ActionableWire
import Foundation
import Testing

/// The device registry's rules, on every driver.
struct DeviceRegistryConformanceTests {
    typealias Driver = StoreConformanceTests.Driver
    static let alice1 = String(repeating: "a1", count: 32)
    static let alice2 = String(repeating: "a2", count: 32)
    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test(arguments: Driver.available)
    func aDeviceIsRegisteredOnceAndRenewed(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        #expect(try await store.register(token: Self.alice1, user: "alice", environment: .production, at: Self.at(100)) == .created)
        #expect(try await store.register(token: Self.alice2, user: "alice", environment: .sandbox, at: Self.at(200)) == .created)
        #expect(try await store.register(token: Self.alice1, user: "alice", environment: .production, at: Self.at(300)) == .known)
        let devices = try await store.devices(of: "alice")
        #expect(devices.map(\.token) == [Self.alice2, Self.alice1])  // oldest registration first: alice1 was renewed
        #expect(devices.map(\.environment) == [.sandbox, .production])
        #expect(devices.allSatisfy { $0.state == .active && $0.lastSentAt == nil })
        #expect(devices.last?.registeredAt == Self.at(300))
        #expect(try await store.devices(of: "bob").isEmpty)
    }

    @Test(arguments: Driver.available)
    func aTokenRegisteredByAnotherUserOrEnvironmentMoves(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.register(token: Self.alice1, user: "alice", environment: .production, at: Self.at(100))
        #expect(try await store.register(token: Self.alice1, user: "bob", environment: .production, at: Self.at(200)) == .created)
        #expect(try await store.devices(of: "alice").isEmpty)
        #expect(try await store.devices(of: "bob").map(\.token) == [Self.alice1])
        #expect(try await store.register(token: Self.alice1, user: "bob", environment: .sandbox, at: Self.at(300)) == .created)
        #expect(try await store.devices(of: "bob").map(\.environment) == [.sandbox])
    }

    @Test(arguments: Driver.available)
    func unregisteringRespectsALaterRegistration(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.register(token: Self.alice1, user: "alice", environment: .production, at: Self.at(100))
        // Apple's 410 timestamp is before the (re-)registration: the device stays active.
        #expect(try await store.markUnregistered(token: Self.alice1, since: Self.at(50), at: Self.at(400)) == false)
        #expect(try await store.devices(of: "alice").first?.state == .active)
        // After it: unregistered, and a second 410 changes nothing.
        #expect(try await store.markUnregistered(token: Self.alice1, since: Self.at(150), at: Self.at(400)))
        #expect(try await store.markUnregistered(token: Self.alice1, since: Self.at(150), at: Self.at(401)) == false)
        #expect(try await store.devices(of: "alice").first?.state == .unregistered)
        // Registering again revives it; a 410 without a timestamp unregisters whatever the time.
        #expect(try await store.register(token: Self.alice1, user: "alice", environment: .production, at: Self.at(500)) == .revived)
        #expect(try await store.devices(of: "alice").first?.state == .active)
        #expect(try await store.markUnregistered(token: Self.alice1, since: nil, at: Self.at(600)))
        #expect(try await store.markUnregistered(token: "ffff", since: nil, at: Self.at(600)) == false)  // unknown
    }

    @Test(arguments: Driver.available)
    func aDeviceIsRemovedOnlyByItsUserOrTheBackend(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.register(token: Self.alice1, user: "alice", environment: .production, at: Self.at(100))
        _ = try await store.register(token: Self.alice2, user: "alice", environment: .production, at: Self.at(100))
        #expect(try await store.removeDevice(token: Self.alice1, user: "bob") == false)
        #expect(try await store.removeDevice(token: Self.alice1, user: "alice"))
        #expect(try await store.removeDevice(token: Self.alice1, user: "alice") == false)
        #expect(try await store.removeDevice(token: Self.alice2, user: nil))
        #expect(try await store.devices(of: "alice").isEmpty)
    }

    @Test(arguments: Driver.available)
    func concurrentRegistrationsOfOneTokenCreateItOnce(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let results = try await withThrowingTaskGroup(of: DeviceRegistration.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try await store.register(token: Self.alice1, user: "alice", environment: .production, at: Self.at(100 + Double(index)))
                }
            }
            return try await group.reduce(into: [DeviceRegistration]()) { $0.append($1) }
        }
        #expect(results.filter { $0 == .created }.count == 1)
        #expect(results.filter { $0 == .known }.count == 15)
        #expect(try await store.devices(of: "alice").count == 1)
    }

    static func token(_ index: Int) -> String { String(format: "%064x", index + 1) }

    /// At most `maximumActive` active devices per user: the oldest registration is unregistered
    /// when a new one would pass it (another user's devices are not touched).
    @Test(arguments: Driver.available)
    func aUserKeepsAtMostTheMaximumOfActiveDevices(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let limits = DeviceLimits(maximumActive: 3, registrationsPerHour: 0)
        _ = try await store.register(token: Self.alice1, user: "bob", environment: .production, at: Self.at(1), limits: limits)
        for index in 0..<5 {
            let result = try await store.register(
                token: Self.token(index), user: "alice", environment: .production, at: Self.at(TimeInterval(10 + index)), limits: limits)
            #expect(result == .created)
        }
        let devices = try await store.devices(of: "alice")
        #expect(devices.count == 5)
        #expect(devices.filter { $0.state == .active }.map(\.token) == (2..<5).map(Self.token))
        #expect(devices.filter { $0.state == .unregistered }.map(\.token) == (0..<2).map(Self.token))
        #expect(try await store.devices(of: "bob").first?.state == .active)
        // Registering an old one again revives it, and the oldest active one goes instead.
        #expect(
            try await store.register(token: Self.token(0), user: "alice", environment: .production, at: Self.at(100), limits: limits)
                == .revived)
        #expect(try await store.devices(of: "alice").filter { $0.state == .active }.map(\.token) == [3, 4, 0].map(Self.token))
    }

    /// New devices count against an hourly rate per user: past it, `throttled` with the seconds
    /// until the oldest registration of the hour leaves it, and nothing stored; a device already
    /// active registers again freely; another user is not affected.
    @Test(arguments: Driver.available)
    func newDevicesAreRateLimitedPerUser(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let limits = DeviceLimits(maximumActive: 100, registrationsPerHour: 3)
        for index in 0..<3 {
            #expect(
                try await store.register(
                    token: Self.token(index), user: "alice", environment: .production, at: Self.at(1000 + TimeInterval(index)),
                    limits: limits) == .created)
        }
        #expect(
            try await store.register(token: Self.token(9), user: "alice", environment: .production, at: Self.at(1600), limits: limits)
                == .throttled(retryAfter: 3000))
        #expect(try await store.devices(of: "alice").count == 3)
        #expect(
            try await store.register(token: Self.token(1), user: "alice", environment: .production, at: Self.at(1601), limits: limits)
                == .known)
        #expect(
            try await store.register(token: Self.alice1, user: "bob", environment: .production, at: Self.at(1602), limits: limits)
                == .created)
        // An hour after the first, there is room again.
        #expect(
            try await store.register(token: Self.token(9), user: "alice", environment: .production, at: Self.at(4601), limits: limits)
                == .created)
    }
}
