import ActionableCore
import ActionableService
import ActionableStore
import Foundation
import HTTPTypes
import Logging
import Testing

/// The retention worker over a store, and what the accept route gives it to keep a replay out.
struct RetentionWorkerTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    static let day: TimeInterval = 86400

    /// `count` responses received and delivered at `at`.
    static func delivered(_ count: Int, at: Date, in store: InMemoryActionStore) async throws {
        for index in 0..<count {
            _ = try await store.accept(
                NewResponse(
                    id: "r-\(index)",
                    response: ActionResponse(category: "invite", action: "accept", notificationID: "n-\(index)", user: "u", payload: []),
                    receivedAt: at))
        }
        for action in await store.claimDue(now: at, limit: 100, lease: 60, owner: "w") {
            await store.markDelivered(id: action.id, owner: "w", at: at)
        }
    }

    @Test func aPurgeRunsBatchAfterBatchUntilNothingOldIsLeft() async throws {
        let store = InMemoryActionStore()
        let now = Date(timeIntervalSince1970: 100 * Self.day)
        try await Self.delivered(7, at: now.addingTimeInterval(-40 * Self.day), in: store)
        let worker = RetentionWorker(
            store: store, retention: .seconds(30 * Self.day), badgeLifetime: .seconds(30 * Self.day), batchSize: 2, logger: Self.quiet)
        #expect(try await worker.purgeAll(now: now) == PurgeCount(responses: 7, badgeEntries: 7))
        #expect(await store.responseCounts() == [:])
        #expect(try await worker.purgeAll(now: now) == PurgeCount())
    }

    @Test func rowsYoungerThanTheRetentionStay() async throws {
        let store = InMemoryActionStore()
        let now = Date(timeIntervalSince1970: 100 * Self.day)
        try await Self.delivered(3, at: now.addingTimeInterval(-29 * Self.day), in: store)
        let worker = RetentionWorker(store: store, retention: .seconds(30 * Self.day), badgeLifetime: .seconds(Self.day), logger: Self.quiet)
        #expect(try await worker.purgeAll(now: now) == PurgeCount())
        #expect(await store.responseCounts() == [.delivered: 3])
    }

    @Test func aZeroRetentionKeepsEverythingAndTheLoopEndsAtOnce() async throws {
        let store = InMemoryActionStore()
        try await Self.delivered(3, at: Date(timeIntervalSince1970: 0), in: store)
        let worker = RetentionWorker(store: store, retention: .zero, badgeLifetime: .seconds(Self.day), logger: Self.quiet)
        await worker.run()  // returns: nothing to do, ever
        #expect(await store.responseCounts() == [.delivered: 3])
    }

    @Test(arguments: [
        (Duration.seconds(30 * 86400), Duration.seconds(60)), (.seconds(120), .seconds(30)), (.seconds(2), .seconds(1)),
    ])
    func theIntervalIsAMinuteOrAQuarterOfAShortRetention(retention: Duration, interval: Duration) {
        #expect(RetentionWorker(store: InMemoryActionStore(), retention: retention, badgeLifetime: .zero, logger: Self.quiet).interval == interval)
    }

    /// The accept route records until when the token could pass again: retention keeps the
    /// row so long, so that a replay of the token meets the stored answer (a duplicate), never
    /// an empty table that would take it a second time.
    @Test func anAcceptedResponseIsKeptWhileItsTokenCouldStillPass() async throws {
        let store = InMemoryActionStore()
        let issued = Date()
        let token = try await ActionsEndpointTests.token(now: issued, lifetime: 10 * Self.day)
        let body = ActionsEndpointTests.body(token)
        #expect(try await ActionsEndpointTests.run(store: store, [(body, ActionsEndpointTests.json)]).map(\.status) == [.accepted])
        for action in await store.claimDue(now: Date().addingTimeInterval(1), limit: 10, lease: 60, owner: "w") {
            await store.markDelivered(id: action.id, owner: "w", at: issued)
        }
        // Past the retention, but the token is valid for days yet: the row stays.
        let everythingOld = issued.addingTimeInterval(5 * Self.day)  // later than any change of the row, however slow the machine
        let whileValid = PurgeCutoff(responsesBefore: everythingOld, badgeEntriesBefore: .distantPast, now: issued.addingTimeInterval(9 * Self.day))
        #expect(await store.purge(whileValid, limit: 10) == PurgeCount())
        #expect(try await ActionsEndpointTests.run(store: store, [(body, ActionsEndpointTests.json)]).map(\.status) == [.ok])
        // Once the token has expired (and its clock skew passed), it goes.
        let expired = PurgeCutoff(
            responsesBefore: everythingOld, badgeEntriesBefore: .distantPast, now: issued.addingTimeInterval(10 * Self.day + 31))
        #expect(await store.purge(expired, limit: 10) == PurgeCount(responses: 1, badgeEntries: 0))
    }
}
