import ActionableStore
import Foundation
import Testing

/// The admin page's signed-out sessions, on every driver: recorded once, seen by every reader,
/// forgotten once their cookie would have expired anyway.
struct AdminSignOutConformanceTests {
    typealias Driver = StoreConformanceTests.Driver
    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test(arguments: Driver.available)
    func aSignedOutSessionIsRefusedUntilItsCookieWouldHaveExpired(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        #expect(try await store.isSignedOut(session: "s-1") == false)
        try await store.recordSignOut(session: "s-1", until: Self.at(1_000), now: Self.at(100))
        try await store.recordSignOut(session: "s-1", until: Self.at(5_000), now: Self.at(200))  // twice: one sign-out
        #expect(try await store.isSignedOut(session: "s-1"))
        #expect(try await store.isSignedOut(session: "s-2") == false)
        // A later sign-out forgets those whose cookie has expired since (s-1's, at 1,000).
        try await store.recordSignOut(session: "s-2", until: Self.at(9_000), now: Self.at(1_001))
        #expect(try await store.isSignedOut(session: "s-1") == false)
        #expect(try await store.isSignedOut(session: "s-2"))
    }
}
