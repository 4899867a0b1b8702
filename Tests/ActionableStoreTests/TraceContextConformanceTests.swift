import ActionableCore
import Foundation
import Testing

@testable import ActionableStore

/// The trace context stored with a response and with a notification, on every driver: what an
/// attempt or a send, on any instance and after any restart, continues.
struct TraceContextConformanceTests {
    typealias Driver = StoreConformanceTests.Driver
    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }
    static func traceParent(_ index: Int) -> String { "00-\(String(format: "%032x", index + 1))-00f067aa0ba902b7-01" }

    @Test(arguments: Driver.available)
    func aResponsesTraceParentComesBackWithItsClaimsAndItsDeliveries(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        // Accepted at once (one batch on PostgreSQL): with a trace context, and without one.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                var action = StoreConformanceTests.action("n-\(index)", id: "r-\(index)", at: 1_000)
                action.traceParent = index.isMultiple(of: 2) ? Self.traceParent(index) : nil
                group.addTask { _ = try await store.accept(action) }
            }
            try await group.waitForAll()
        }
        func expected(_ id: String) -> String? {
            let index = Int(id.dropFirst(2)) ?? -1
            return index.isMultiple(of: 2) ? Self.traceParent(index) : nil
        }
        #expect(try await store.response(id: "r-0")?.traceParent == Self.traceParent(0))
        #expect(try await store.response(id: "r-1")?.traceParent == nil)
        // The same notification again keeps the first trace context.
        var again = StoreConformanceTests.action("n-0", id: "r-again", at: 1_001)
        again.traceParent = Self.traceParent(99)
        #expect(try await store.accept(again) == .duplicate(id: "r-0"))
        #expect(try await store.response(id: "r-0")?.traceParent == Self.traceParent(0))

        let claimed = try await store.claimDue(now: Self.at(1_000), limit: 10, lease: 60, owner: "router")
        #expect(claimed.count == 6)
        for action in claimed { #expect(action.traceParent == expected(action.id), "\(action.id)") }
        _ = try await store.createEndpoint(EndpointStoreConformanceTests.endpoint("a"))
        try await store.fanOut(claimed.map { FanOut(responseID: $0.id, endpointIDs: ["a"]) }, owner: "router", at: Self.at(1_000))
        let deliveries = try await store.claimDeliveries(
            endpointID: "a", now: Self.at(1_001), limit: 10, lease: 60, owner: "w", breaker: EndpointStoreConformanceTests.breaker)
        #expect(deliveries.count == 6)
        for delivery in deliveries { #expect(delivery.action.traceParent == expected(delivery.action.id), "\(delivery.action.id)") }
    }

    @Test(arguments: Driver.available)
    func aNotificationsTraceParentComesBackWithItsSends(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let devices = try await SendQueueConformanceTests.devices(store)
        var traced = SendQueueConformanceTests.notification("n-1")
        traced.traceParent = Self.traceParent(1)
        _ = try await store.recordNotification(traced, devices: devices)
        _ = try await store.recordNotification(SendQueueConformanceTests.notification("n-2"), devices: devices)
        #expect(try await store.notification(id: "n-1")?.notification == traced)
        let sends = try await store.claimDueSends(now: Self.at(150), limit: 10, lease: 60, owner: "w")
        #expect(sends.count == 4)
        for send in sends {
            #expect(send.notification.traceParent == (send.notification.notificationID == "n-1" ? Self.traceParent(1) : nil))
        }
    }
}
