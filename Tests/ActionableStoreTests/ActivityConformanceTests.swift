import ActionablePostgres
import Foundation
import Testing

@testable import ActionableStore

/// The counts per minute the admin page draws, on every driver: counts add up (within a flush,
/// across flushes, across instances), minutes before the retention are forgotten, and a read
/// gives them by minute or summed.
struct ActivityConformanceTests {
    typealias Driver = StoreConformanceTests.Driver
    static let m = ActivityMinute(29_000_000)

    @Test(arguments: Driver.available)
    func countsAddUpAndAreReadByMinuteOrSummed(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        try await store.recordActivity(
            [
                ActivityCount(minute: Self.m, series: .accepted, count: 3),
                ActivityCount(minute: Self.m, series: .tap, subject: "invite.accept", count: 2),
                ActivityCount(minute: Self.m, series: .tap, subject: "invite.com.apple.UNNotificationDismissActionIdentifier", count: 1),
                ActivityCount(minute: Self.m.advanced(by: 1), series: .accepted, count: 4),
            ], forgetBefore: nil)
        // A second flush (another instance's, or this one's later) adds to the same rows.
        try await store.recordActivity(
            [ActivityCount(minute: Self.m, series: .accepted, count: 5), ActivityCount(minute: Self.m, series: .dead, subject: "webhook", count: 1)],
            forgetBefore: nil)
        let byMinute = try await store.activity([.accepted], from: Self.m, to: Self.m.advanced(by: 5), byMinute: true)
        #expect(
            Set(byMinute) == [
                ActivityCount(minute: Self.m, series: .accepted, count: 8),
                ActivityCount(minute: Self.m.advanced(by: 1), series: .accepted, count: 4),
            ])
        let summed = try await store.activity([.tap, .accepted], from: Self.m, to: Self.m.advanced(by: 5), byMinute: false)
        #expect(
            Set(summed) == [
                ActivityCount(minute: Self.m, series: .accepted, count: 12),
                ActivityCount(minute: Self.m, series: .tap, subject: "invite.accept", count: 2),
                ActivityCount(minute: Self.m, series: .tap, subject: "invite.com.apple.UNNotificationDismissActionIdentifier", count: 1),
            ])
        #expect(try await store.activity([.accepted], from: Self.m.advanced(by: 2), to: Self.m.advanced(by: 5), byMinute: true).isEmpty)
        #expect(try await store.activity([], from: Self.m, to: Self.m, byMinute: true).isEmpty)

        // The retention: minutes before the cut are forgotten, the rest stay.
        try await store.recordActivity([], forgetBefore: Self.m.advanced(by: 1))
        let kept = try await store.activity(ActivitySeries.allCases, from: Self.m, to: Self.m.advanced(by: 5), byMinute: true)
        #expect(kept == [ActivityCount(minute: Self.m.advanced(by: 1), series: .accepted, count: 4)])
    }

    /// Two instances on one PostgreSQL database flushing the same rows at once: every count lands.
    @Test(.enabled(if: StoreConformanceTests.postgresURL != nil))
    func twoInstancesFlushingAtOnceAddEveryCount() async throws {
        let schema = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let first = try await StoreConformanceTests.makePostgres(schema: schema)
        let second = try await StoreConformanceTests.makePostgres(schema: schema)
        defer {
            first.shutdown()
            second.shutdown()
        }
        let counts = (0..<20).map { ActivityCount(minute: Self.m.advanced(by: Int64($0 % 4)), series: .tap, subject: "invite.accept", count: 1) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [first, second] {
                for batch in 0..<5 {
                    group.addTask {
                        try await store.recordActivity(Array(counts[(batch * 4)..<(batch * 4 + 4)]), forgetBefore: nil)
                    }
                }
            }
            try await group.waitForAll()
        }
        let summed = try await first.activity([.tap], from: Self.m, to: Self.m.advanced(by: 4), byMinute: false)
        #expect(summed.map(\.count) == [40], "20 counts from each of two instances")
    }

    /// What an instance counts reaches storage by its flushes; a flush that fails keeps its counts.
    @Test func theLogKeepsWhatAFailedFlushCouldNotWrite() async throws {
        let log = ActivityLog()
        let at = Self.m.start
        log.count(.accepted, at: at)
        log.count(.accepted, at: at.addingTimeInterval(30))
        log.latency(endpoint: "e1", seconds: 0.03, at: at)
        log.latency(endpoint: "e1", seconds: 99, at: at)
        let store = InMemoryActionStore()
        let failing = FailingActivity()
        await #expect(throws: FailingActivity.Down.self) { try await log.flush(into: failing, forgetBefore: nil) }
        try await log.flush(into: store, forgetBefore: nil)
        let written = try await store.activity(ActivitySeries.allCases, from: Self.m, to: Self.m, byMinute: true)
        #expect(
            Set(written) == [
                ActivityCount(minute: Self.m, series: .accepted, count: 2),
                ActivityCount(minute: Self.m, series: .endpointLatency, subject: "e1|3", count: 1),
                ActivityCount(minute: Self.m, series: .endpointLatency, subject: "e1|11", count: 1),
            ])
        #expect(log.drain().isEmpty, "a flush that wrote leaves nothing to write again")
        #expect(ActivityLog.quantile(0.5, of: [3: 1, 11: 1]) == 0.05)
        #expect(ActivityLog.quantile(0.99, of: [3: 1, 11: 1]) == .infinity, "past the last bound: more than 10 s")
        #expect(ActivityLog.quantile(0.99, of: [10: 4]) == 10)
        #expect(ActivityLog.quantile(0.5, of: [:]) == nil)
    }

    struct FailingActivity: ActivityStore {
        struct Down: Error {}
        func recordActivity(_ counts: [ActivityCount], forgetBefore: ActivityMinute?) async throws { throw Down() }
        func activity(_ series: [ActivitySeries], from: ActivityMinute, to: ActivityMinute, byMinute: Bool) async throws -> [ActivityCount] {
            throw Down()
        }
    }
}
