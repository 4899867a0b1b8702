import ActionableCore
import ActionablePostgres
import ActionableTesting
import Foundation
import GRDB
import Logging
import Testing

@testable import ActionableSQLite
@testable import ActionableStore

/// One suite, every driver: the rules of accepting and delivering that storage carries.
struct StoreConformanceTests {
    enum Driver: String, CaseIterable, CustomStringConvertible {
        case memory, sqlite, postgres
        var description: String { rawValue }

        /// PostgreSQL runs where a server is given: `scripts/test` (the README's test command, and
        /// CI) always starts a throwaway cluster and gives it.
        static var available: [Driver] {
            postgresURL == nil ? [.memory, .sqlite] : allCases
        }
    }

    static let postgresURL = ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]

    static func makePostgres(
        schema: String = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    )
        async throws -> PostgresActionStore
    {
        try await PostgresActionStore(
            url: try #require(postgresURL), schema: schema,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    static func makeStore(_ driver: Driver) async throws -> (store: any ActionStore, cleanup: @Sendable () -> Void) {
        switch driver {
        case .memory:
            return (InMemoryActionStore(), {})
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-store-\(UUID())")
            let store = try await SQLiteActionStore(path: directory.appendingPathComponent("store.sqlite").path)
            return (store, { try? FileManager.default.removeItem(at: directory) })
        case .postgres:
            let store = try await makePostgres()
            return (store, { store.shutdown() })
        }
    }

    static func action(
        _ notification: String, _ action: ActionID = "accept", text: String? = nil, id: String = UUID().uuidString,
        at time: TimeInterval = 1_000
    ) -> NewResponse {
        NewResponse(
            id: id,
            response: ActionResponse(
                category: "invite", action: action, notificationID: notification,
                user: "alice", userText: text, payload: [("inviteId", .string("42")), ("seats", .int(2))]),
            receivedAt: Date(timeIntervalSince1970: time))
    }

    @Test(arguments: Driver.available)
    func anAcceptedResponseIsStoredWholeAndPending(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        let new = Self.action("n-1", "comment", text: "Late 🎉", id: "r-1")
        #expect(try await store.accept(new) == .accepted(id: "r-1"))
        let stored = try #require(try await store.response(id: "r-1"))
        #expect(stored.response == new.response)
        #expect(stored.receivedAt == new.receivedAt)
        #expect(stored.status == .pending)
        #expect(stored.attempts == 0)
        #expect(try await store.pendingCount() == 1)
        #expect(try await store.response(id: "missing") == nil)
    }

    @Test(arguments: Driver.available)
    func theSameAnswerAgainIsADuplicateAndAnotherIsAConflict(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        #expect(try await store.accept(Self.action("n-1", "comment", text: "hi", id: "first")) == .accepted(id: "first"))
        #expect(try await store.accept(Self.action("n-1", "comment", text: "hi", id: "second")) == .duplicate(id: "first"))
        #expect(
            try await store.accept(Self.action("n-1", "comment", text: "other", id: "third"))
                == .conflict(existingID: "first", existingAction: "comment"))
        #expect(
            try await store.accept(Self.action("n-1", "decline", id: "fourth"))
                == .conflict(existingID: "first", existingAction: "comment"))
        #expect(try await store.response(id: "second") == nil)
        #expect(try await store.pendingCount() == 1)
    }

    @Test(arguments: Driver.available)
    func concurrentAcceptsOfOneNotificationSettleOnOneRow(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        let results = try await withThrowingTaskGroup(of: AcceptResult.self) { group in
            for index in 0..<64 {
                group.addTask { try await store.accept(Self.action("n-race", index.isMultiple(of: 4) ? "decline" : "accept", id: "r\(index)")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let accepted = results.compactMap { if case .accepted(let id) = $0 { id } else { nil } }
        #expect(accepted.count == 1)
        let winner = try #require(accepted.first)
        let winnerAction = try #require(try await store.response(id: winner)).response.action
        for result in results {
            switch result {
            case .accepted: break
            case .duplicate(let id): #expect(id == winner)
            case .conflict(let id, let action):
                #expect(id == winner)
                #expect(action == winnerAction)
            }
        }
        #expect(try await store.pendingCount() == 1)
    }

    /// An empty text is a text: stored as such, and a different answer from no text at all —
    /// also when both arrive together (the PostgreSQL driver writes them in one statement).
    @Test(arguments: Driver.available)
    func anEmptyTextIsStoredAndDiffersFromNoText(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        async let first = store.accept(Self.action("n-empty", "comment", text: "", id: "r-empty"))
        async let second = store.accept(Self.action("n-none", "comment", text: nil, id: "r-none"))
        #expect(try await [first, second] == [.accepted(id: "r-empty"), .accepted(id: "r-none")])
        #expect(try await store.response(id: "r-empty")?.response.userText == "")
        #expect(try await store.response(id: "r-none")?.response.userText == nil)
        #expect(
            try await store.accept(Self.action("n-empty", "comment", text: nil, id: "r-2"))
                == .conflict(existingID: "r-empty", existingAction: "comment"))
        #expect(try await store.accept(Self.action("n-empty", "comment", text: "", id: "r-3")) == .duplicate(id: "r-empty"))
    }

    @Test(arguments: Driver.available)
    func manyNotificationsAtOnceAreAllStored(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        try await withThrowingTaskGroup(of: AcceptResult.self) { group in
            for index in 0..<300 { group.addTask { try await store.accept(Self.action("n-\(index)", id: "r-\(index)")) } }
            for try await result in group { if case .accepted = result {} else { Issue.record("\(result)") } }
        }
        #expect(try await store.pendingCount() == 300)
        #expect(try await store.response(id: "r-299")?.response.notificationID == "n-299")
    }

    @Test(arguments: Driver.available)
    func claimsLeaseDueResponsesAndExpiredLeasesAreTakenOver(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        _ = try await store.accept(Self.action("n-1", id: "early", at: 100))
        _ = try await store.accept(Self.action("n-2", id: "late", at: 200))
        let now = Date(timeIntervalSince1970: 150)
        let first = try await store.claimDue(now: now, limit: 10, lease: 30, owner: "a")
        #expect(first.map(\.id) == ["early"])
        #expect(first.first?.attempts == 1)
        // Leased: nobody else gets it until the lease runs out.
        #expect(try await store.claimDue(now: now.addingTimeInterval(29), limit: 10, lease: 30, owner: "b").isEmpty)
        let takeover = try await store.claimDue(now: now.addingTimeInterval(31), limit: 10, lease: 30, owner: "b")
        #expect(takeover.map(\.id) == ["early"])
        #expect(takeover.first?.attempts == 2)
        // The first owner lost its lease: its late report changes nothing.
        try await store.markDelivered(id: "early", owner: "a", at: now)
        #expect(try await store.response(id: "early")?.status == .pending)
        try await store.markDelivered(id: "early", owner: "b", at: now)
        #expect(try await store.response(id: "early")?.status == .delivered)
        #expect(try await store.pendingCount() == 1)
    }

    @Test(arguments: Driver.available)
    func rescheduledResponsesComeBackWhenDueAndDeadOnesNever(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        _ = try await store.accept(Self.action("n-1", id: "r", at: 100))
        _ = try await store.claimDue(now: Date(timeIntervalSince1970: 100), limit: 1, lease: 30, owner: "w")
        try await store.reschedule(id: "r", owner: "w", at: Date(timeIntervalSince1970: 500), error: "HTTP 503")
        #expect(try await store.response(id: "r")?.lastError == "HTTP 503")
        #expect(try await store.claimDue(now: Date(timeIntervalSince1970: 499), limit: 1, lease: 30, owner: "w").isEmpty)
        let again = try await store.claimDue(now: Date(timeIntervalSince1970: 500), limit: 1, lease: 30, owner: "w")
        #expect(again.first?.attempts == 2)
        try await store.markDead(id: "r", owner: "w", reason: "HTTP 410 Gone")
        let dead = try #require(try await store.response(id: "r"))
        #expect(dead.status == .dead)
        #expect(dead.lastError == "HTTP 410 Gone")
        #expect(try await store.claimDue(now: Date(timeIntervalSince1970: 10_000), limit: 1, lease: 30, owner: "w").isEmpty)
        #expect(try await store.pendingCount() == 0)
    }

    /// Outcomes recorded together land as each would alone; one whose lease another owner took
    /// over changes nothing.
    @Test(arguments: Driver.available)
    func outcomesRecordedTogetherLandAsEachAlone(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        for (index, id) in ["a", "b", "c", "d"].enumerated() { _ = try await store.accept(Self.action("n-\(index)", id: id, at: 100)) }
        _ = try await store.claimDue(now: Date(timeIntervalSince1970: 100), limit: 3, lease: 30, owner: "w")
        _ = try await store.claimDue(now: Date(timeIntervalSince1970: 100), limit: 1, lease: 30, owner: "other")
        try await store.finishResponses(
            [
                FinishedResponse(id: "a", fate: .delivered(at: Date(timeIntervalSince1970: 101))),
                FinishedResponse(id: "b", fate: .retry(at: Date(timeIntervalSince1970: 500), error: "HTTP 503")),
                FinishedResponse(id: "c", fate: .dead(reason: "HTTP 410 Gone")),
                FinishedResponse(id: "d", fate: .delivered(at: Date(timeIntervalSince1970: 101))),  // not w's
            ], owner: "w")
        #expect(try await store.response(id: "a")?.status == .delivered)
        let retried = try #require(try await store.response(id: "b"))
        #expect(retried.status == .pending)
        #expect(retried.lastError == "HTTP 503")
        #expect(retried.nextAttemptAt == Date(timeIntervalSince1970: 500))
        let dead = try #require(try await store.response(id: "c"))
        #expect(dead.status == .dead)
        #expect(dead.lastError == "HTTP 410 Gone")
        #expect(try await store.response(id: "d")?.status == .pending)
        // Nothing is due before b's retry but d, once other's lease runs out.
        #expect(try await store.claimDue(now: Date(timeIntervalSince1970: 499), limit: 10, lease: 30, owner: "x").map(\.id) == ["d"])
    }

    @Test(arguments: Driver.available)
    func aReachableStoreSaysSo(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        try await store.checkReachable()
    }
}

struct SQLiteStoreTests {
    /// An endpoint that a start without its `--forward` flag paused (versions before 11 did; the
    /// migration marks such endpoints) is resumed by the next start with the flag, its held
    /// deliveries let go; an endpoint an operator paused is not, and an operator's pause or resume
    /// forgets the mark.
    @Test func anEndpointPausedByAMissingFlagIsResumedAndAnOperatorsPauseStays() async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(.sqlite)
        defer { cleanup() }
        let sqlite = try #require(store as? SQLiteActionStore)
        let at = Date(timeIntervalSince1970: 1_000)
        for id in ["forward-flag", "forward-operator", "forward-changed"] {
            _ = try await store.createEndpoint(
                Endpoint(id: id, url: "https://\(id).example/", filter: ["*"], paused: true, seeded: true, createdAt: at))
        }
        // As the v11 migration marks what an older version paused.
        try await sqlite.pool.write { db in
            try db.execute(sql: "UPDATE endpoints SET paused_by_missing_flag = 1 WHERE id IN ('forward-flag', 'forward-changed')")
        }
        _ = try await store.updateEndpoint(id: "forward-changed", EndpointChange(paused: true), at: at)  // an operator's decision now
        #expect(try await store.resumeIfPausedByMissingFlag(id: "forward-flag", at: at))
        #expect(try await store.resumeIfPausedByMissingFlag(id: "forward-flag", at: at) == false)
        #expect(try await store.resumeIfPausedByMissingFlag(id: "forward-operator", at: at) == false)
        #expect(try await store.resumeIfPausedByMissingFlag(id: "forward-changed", at: at) == false)
        let paused = try await store.endpoints().filter(\.paused).map(\.id)
        #expect(paused == ["forward-changed", "forward-operator"])
    }

    @Test func theWriterRunsWithSynchronousFullAndTheDatabaseIsSound() async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(.sqlite)
        defer { cleanup() }
        let sqlite = try #require(store as? SQLiteActionStore)
        #expect(try await sqlite.synchronousMode() == 2)  // FULL
        _ = try await sqlite.accept(StoreConformanceTests.action("n"))
        #expect(try await sqlite.integrityCheck() == "ok")
        // A purge commits without an fsync of its own, then the writer is FULL again.
        let everything = PurgeCutoff(responsesBefore: .distantFuture, badgeEntriesBefore: .distantFuture, now: .distantFuture)
        #expect(try await sqlite.purge(everything, limit: 10) == PurgeCount(responses: 0, badgeEntries: 1))
        #expect(try await sqlite.synchronousMode() == 2)
    }

    /// The writer never checkpoints inside a commit; the checkpointer's own connection copies
    /// the whole log into the database while the store keeps accepting.
    @Test func theLogIsCheckpointedBesideTheWriter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-checkpoint-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        // The store's own timer is set far off, so that the checkpoint below is the only one
        // (two at once: the second finds the log busy and reports -1).
        let store = try await SQLiteActionStore(path: path, checkpointInterval: .seconds(3600))
        #expect(try await store.pragma("wal_autocheckpoint") == 0)
        for index in 0..<20 { _ = try await store.accept(StoreConformanceTests.action("n-\(index)")) }
        let checkpointer = try Checkpointer(path: path)
        let result = try #require(await checkpointer.checkpoint())
        #expect(result.log > 0)
        #expect(result.checkpointed == result.log)
        _ = try await store.accept(StoreConformanceTests.action("n-after"))
        #expect(try await store.pendingCount() == 21)
        #expect(try await store.integrityCheck() == "ok")
    }

    /// The log is checkpointed on a timer whatever is written: while an upstream is down and
    /// only delivery outcomes are written (no accepts), it is started over after each
    /// checkpoint instead of growing by every retry.
    @Test(.timeLimit(.minutes(2)))
    func theLogStaysBoundedWhileOnlyDeliveriesAreWritten() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-wal-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let store = try await SQLiteActionStore(path: path, checkpointInterval: .milliseconds(20))
        for index in 0..<100 { _ = try await store.accept(StoreConformanceTests.action("n-\(index)", at: 1_000)) }
        var logSizes: [Int] = []
        for round in 1...20 {
            // A round of failed attempts: every response claimed and rescheduled, one commit each.
            let now = Date(timeIntervalSince1970: 1_000 + Double(round) * 10)
            let claimed = try await store.claimDue(now: now, limit: 100, lease: 60, owner: "w")
            #expect(claimed.count == 100)
            for action in claimed {
                try await store.reschedule(id: action.id, owner: "w", at: now, error: "HTTP 503 from https://upstream:443")
            }
            await store.nextCheckpoint()
            let size = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
            logSizes.append(size)
        }
        // Without the timer the log grows by some 840 KB a round (from 4.4 MB to 20 MB over the
        // 20 rounds, measured); restarted after every round, it never outgrows what was there
        // after the first by more than a round or two.
        let largest = try #require(logSizes.max())
        #expect(largest < logSizes[0] + 2 * 1024 * 1024, "log sizes after each round: \(logSizes)")
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test func responsesSurviveReopeningTheDatabase() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-reopen-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        do {
            let store = try await SQLiteActionStore(path: path)
            #expect(try await store.accept(StoreConformanceTests.action("n-1", id: "kept")) == .accepted(id: "kept"))
        }
        let reopened = try await SQLiteActionStore(path: path)
        #expect(try await reopened.response(id: "kept")?.response.notificationID == "n-1")
        #expect(try await reopened.accept(StoreConformanceTests.action("n-1", id: "again")) == .duplicate(id: "kept"))
    }
}

/// Two instances on one PostgreSQL database (two stores, one schema).
@Suite(.enabled(if: StoreConformanceTests.postgresURL != nil, "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
struct PostgresSharedTests {
    @Test func twoInstancesAcceptOneNotificationOnce() async throws {
        let schema = "shared" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let first = try await StoreConformanceTests.makePostgres(schema: schema)
        let second = try await StoreConformanceTests.makePostgres(schema: schema)
        defer {
            first.shutdown()
            second.shutdown()
        }
        async let a = first.accept(StoreConformanceTests.action("n-shared", id: "from-first"))
        async let b = second.accept(StoreConformanceTests.action("n-shared", id: "from-second"))
        let results = try await [a, b]
        let accepted = results.compactMap { if case .accepted(let id) = $0 { id } else { nil } }
        #expect(accepted.count == 1)
        #expect(results.contains(.duplicate(id: try #require(accepted.first))))
    }

    @Test func aClaimIsHeldByOneInstanceAndTakenOverAfterItsLease() async throws {
        let schema = "claims" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let first = try await StoreConformanceTests.makePostgres(schema: schema)
        let second = try await StoreConformanceTests.makePostgres(schema: schema)
        defer {
            first.shutdown()
            second.shutdown()
        }
        for index in 0..<20 { _ = try await first.accept(StoreConformanceTests.action("n-\(index)", id: "r-\(index)", at: 100)) }
        let now = Date(timeIntervalSince1970: 200)
        async let claimedByFirst = first.claimDue(now: now, limit: 20, lease: 30, owner: "first")
        async let claimedBySecond = second.claimDue(now: now, limit: 20, lease: 30, owner: "second")
        let (a, b) = try await (claimedByFirst, claimedBySecond)
        // SKIP LOCKED: every response is claimed by exactly one instance.
        #expect(Set(a.map(\.id)).isDisjoint(with: b.map(\.id)))
        #expect(a.count + b.count == 20)
        // The first instance dies holding its claims: the second takes them over after the lease.
        #expect(try await second.claimDue(now: now.addingTimeInterval(10), limit: 20, lease: 30, owner: "second").isEmpty)
        let takenOver = try await second.claimDue(now: now.addingTimeInterval(31), limit: 20, lease: 30, owner: "second")
        #expect(Set(takenOver.map(\.id)) == Set((a + b).map(\.id)))
    }

    /// Two instances purge one database at once, while an operator queues old responses again:
    /// every old delivered or dead row goes exactly once, nothing pending goes, and a row queued
    /// again before its batch took it stays.
    @Test func twoInstancesPurgingAtOnceDeleteEachOldRowOnceAndNothingPending() async throws {
        let schema = "purge" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let first = try await StoreConformanceTests.makePostgres(schema: schema)
        let second = try await StoreConformanceTests.makePostgres(schema: schema)
        defer {
            first.shutdown()
            second.shutdown()
        }
        // 600 old responses (300 to be delivered, 300 dead), 50 old pending, 50 new delivered.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<700 {
                let at: TimeInterval = index < 650 ? 1_000 : 9_000
                group.addTask { _ = try await first.accept(StoreConformanceTests.action("n-\(index)", id: "r-\(index)", at: at)) }
            }
            try await group.waitForAll()
        }
        let claimed = try await first.claimDue(now: Date(timeIntervalSince1970: 9_000), limit: 1_000, lease: 60, owner: "w")
        #expect(claimed.count == 700)
        for action in claimed {
            let index = Int(action.id.dropFirst(2))!
            switch index {
            case 600..<650: try await first.reschedule(id: action.id, owner: "w", at: Date(timeIntervalSince1970: 1_000), error: "down")
            case ..<300, 650...:
                try await first.markDelivered(id: action.id, owner: "w", at: Date(timeIntervalSince1970: index < 650 ? 1_000 : 9_000))
            default: try await first.markDead(id: action.id, owner: "w", reason: "gone")
            }
        }
        #expect(try await first.responseCounts() == [.pending: 50, .delivered: 350, .dead: 300])

        let cutoff = PurgeCutoff(
            responsesBefore: Date(timeIntervalSince1970: 5_000), badgeEntriesBefore: Date(timeIntervalSince1970: 5_000),
            now: Date(timeIntervalSince1970: 10_000))
        @Sendable func purgeAll(_ store: PostgresActionStore) async throws -> PurgeCount {
            var total = PurgeCount()
            while true {
                let batch = try await store.purge(cutoff, limit: 25)
                total = total + batch
                if batch.responses < 25 && batch.badgeEntries < 25 { return total }
            }
        }
        async let byFirst = purgeAll(first)
        async let bySecond = purgeAll(second)
        // Meanwhile, response r-0 (old, delivered) is queued again: it either went before, or stays pending.
        async let requeued = second.requeue(id: "r-0", at: Date(timeIntervalSince1970: 9_500))
        let (a, b, requeue) = try await (byFirst, bySecond, requeued)
        let counts = try await first.responseCounts()
        let requeuedStays = requeue == .queued
        #expect(a.responses + b.responses == (requeuedStays ? 599 : 600))
        #expect(counts == [.pending: requeuedStays ? 51 : 50, .delivered: 50])
        // Badge entries: the 650 old ones (read by their accept at 1 000) went once; the new ones stay.
        #expect(a.badgeEntries + b.badgeEntries == 650)
        #expect(try await purgeAll(first) == PurgeCount())
        for index in 600..<650 { #expect(try await first.response(id: "r-\(index)")?.status == .pending) }
    }
}

extension StoreConformanceTests {
    /// A response whose lease ran out without an outcome is counted each time it is claimed
    /// again (the poison count, ``LeasePolicy``); an outcome's lease does not count, and a
    /// re-queue starts again at zero.
    @Test(arguments: Driver.available)
    func expiredLeasesAreCountedAndARequeueResetsThem(driver: Driver) async throws {
        let (store, cleanup) = try await Self.makeStore(driver)
        defer { cleanup() }
        _ = try await store.accept(Self.action("n-1", id: "poison", at: 100))
        var time: TimeInterval = 100
        for expected in 0..<3 {
            let claimed = try await store.claimDue(now: Date(timeIntervalSince1970: time), limit: 10, lease: 30, owner: "w\(expected)")
            #expect(claimed.map(\.expiredLeases) == [expected])
            time += 31
        }
        // An outcome recorded in time: the next claim finds no lease of its own to count.
        let fourth = try await store.claimDue(now: Date(timeIntervalSince1970: time), limit: 10, lease: 30, owner: "w3")
        #expect(fourth.first?.expiredLeases == 3)
        try await store.reschedule(id: "poison", owner: "w3", at: Date(timeIntervalSince1970: time + 1), error: "later")
        let fifth = try await store.claimDue(now: Date(timeIntervalSince1970: time + 1), limit: 10, lease: 30, owner: "w4")
        #expect(fifth.first?.expiredLeases == 3)
        try await store.markDead(id: "poison", owner: "w4", reason: LeasePolicy.poisonReason(3))
        #expect(try await store.requeue(id: "poison", at: Date(timeIntervalSince1970: time + 2)) == .queued)
        let fresh = try await store.claimDue(now: Date(timeIntervalSince1970: time + 2), limit: 10, lease: 30, owner: "w5")
        #expect(fresh.first?.expiredLeases == 0)
    }
}
