import ActionableCore
import Foundation
import GRDB
import Logging
import PostgresNIO
import Testing

@testable import ActionablePostgres
@testable import ActionableSQLite
@testable import ActionableStore

/// What the outbox writes, counted by triggers the database itself runs on every row written:
/// a finished attempt writes its delivery's row and nothing else (the response's state is read
/// from its deliveries), an endpoint moved by a batch is written once, and an accept handed to
/// endpoints writes its response and its deliveries and no second update of the response.
struct OutboxWriteCountTests {
    typealias Driver = StoreConformanceTests.Driver
    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }
    static let breaker = BreakerSettings(failures: 2, probeEvery: 60)
    static let tables = ["action_responses", "endpoint_deliveries", "endpoints"]

    /// A store whose every row write lands in `write_log` (`op`, `tbl`), and a way to read and
    /// empty that log.
    struct Counted {
        var store: any ActionStore
        var log: @Sendable () async throws -> [String]
        var clear: @Sendable () async throws -> Void
        var cleanup: @Sendable () -> Void
    }

    static func counted(_ driver: Driver) async throws -> Counted {
        switch driver {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-writes-\(UUID())")
            let path = directory.appendingPathComponent("store.sqlite").path
            let store = try await SQLiteActionStore(path: path)
            try await store.pool.write { db in
                try db.execute(sql: "CREATE TABLE write_log (n INTEGER PRIMARY KEY, entry TEXT NOT NULL)")
                for table in tables {
                    for op in ["INSERT", "UPDATE", "DELETE"] {
                        try db.execute(
                            sql: """
                                CREATE TRIGGER log_\(op.lowercased())_\(table) AFTER \(op) ON \(table)
                                BEGIN INSERT INTO write_log (entry) VALUES ('\(op) \(table)'); END
                                """)
                    }
                }
            }
            return Counted(
                store: store,
                log: { try await store.pool.read { db in try String.fetchAll(db, sql: "SELECT entry FROM write_log ORDER BY n") } },
                clear: { try await store.pool.write { db in try db.execute(sql: "DELETE FROM write_log") } },
                cleanup: { try? FileManager.default.removeItem(at: directory) })
        case .postgres:
            let store = try await StoreConformanceTests.makePostgres()
            let client = store.client
            let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            try await client.query("CREATE TABLE write_log (n BIGSERIAL PRIMARY KEY, entry TEXT NOT NULL)", logger: logger)
            try await client.query(
                """
                CREATE FUNCTION log_write() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN INSERT INTO write_log (entry) VALUES (TG_OP || ' ' || TG_TABLE_NAME); RETURN NULL; END $$
                """, logger: logger)
            for table in tables {
                try await client.query(
                    PostgresQuery(
                        unsafeSQL: "CREATE TRIGGER log_writes AFTER INSERT OR UPDATE OR DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION log_write()"),
                    logger: logger)
            }
            return Counted(
                store: store,
                log: {
                    var entries: [String] = []
                    for try await entry in try await client.query("SELECT entry FROM write_log ORDER BY n", logger: logger).decode(String.self) {
                        entries.append(entry)
                    }
                    return entries
                },
                clear: { try await client.query("DELETE FROM write_log", logger: logger) },
                cleanup: { store.shutdown() })
        case .memory:
            throw StoreError("the in-memory store writes no rows")
        }
    }

    static var drivers: [Driver] { Driver.available.filter { $0 != .memory } }

    @Test(arguments: drivers)
    func aFinishedAttemptWritesItsDeliveryAndNothingElse(driver: Driver) async throws {
        let counted = try await Self.counted(driver)
        defer { counted.cleanup() }
        let store = counted.store
        for id in ["a", "b"] {
            _ = try await store.createEndpoint(
                Endpoint(id: id, url: "https://\(id).example/", filter: ["invite.*"], secret: "whsec_one", createdAt: Self.at(1)))
        }
        await store.fanOutAtAccept(AcceptFanOut())

        // An accept handed to two endpoints: its response and its two deliveries, inserted once each.
        try await counted.clear()
        for index in 0..<4 {
            _ = try await store.accept(StoreConformanceTests.action("n-\(index)", id: "r-\(index)", at: 1_000))
        }
        let accepted = try await counted.log()
        #expect(accepted.filter { $0.hasSuffix("action_responses") } == Array(repeating: "INSERT action_responses", count: 4))
        #expect(accepted.filter { $0.hasSuffix("endpoint_deliveries") } == Array(repeating: "INSERT endpoint_deliveries", count: 8))

        // Four successes on a healthy endpoint, in one batch: four delivery rows, nothing more.
        let onA = try await store.claimDeliveries(endpointID: "a", now: Self.at(1_001), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(onA.count == 4)
        try await counted.clear()
        let fates = try await store.finishDeliveries(
            onA.map { FinishedAttempt(responseID: $0.action.id, endpointID: "a", outcome: .delivered, at: Self.at(1_002)) }, owner: "w",
            breaker: Self.breaker)
        #expect(fates == Array(repeating: .delivered, count: 4))
        #expect(try await counted.log() == Array(repeating: "UPDATE endpoint_deliveries", count: 4))

        // Failures that move b's breaker (a retry, then held): one row per attempt, and b once.
        let onB = try await store.claimDeliveries(endpointID: "b", now: Self.at(1_001), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(onB.count == 4)
        try await counted.clear()
        let failed = try await store.finishDeliveries(
            onB.map { claimed in
                FinishedAttempt(
                    responseID: claimed.action.id, endpointID: "b", outcome: .failed("HTTP 503", retryAt: Self.at(1_010)), at: Self.at(1_003))
            }, owner: "w", breaker: Self.breaker)
        #expect(failed == [.retry(Self.at(1_010)), .held, .held, .held])
        let log = try await counted.log()
        #expect(log.filter { $0 == "UPDATE endpoint_deliveries" }.count == 4)
        #expect(log.filter { $0 == "UPDATE endpoints" }.count == 1)
        #expect(!log.contains { $0.hasSuffix("action_responses") }, "\(log)")

        // What operators read is still each response's state, from its deliveries.
        let response = try #require(try await store.response(id: "r-0"))
        #expect(response.status == .pending && response.lastError == "b: HTTP 503")
        #expect(try await store.responseCounts() == [.pending: 4])
        let done = try await store.finishDeliveries(
            try await store.claimDeliveries(endpointID: "b", now: Self.at(1_100), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
                .map { FinishedAttempt(responseID: $0.action.id, endpointID: "b", outcome: .delivered, at: Self.at(1_101)) },
            owner: "w", breaker: Self.breaker)
        #expect(done.count == 1)  // the breaker lets one probe through
        #expect(try await store.responseCounts() == [.pending: 3, .delivered: 1])
    }
}

/// Schema version 14 on a database written before it: responses whose rows carried a summary of
/// their deliveries read the same once routed, and nothing is lost.
struct RoutedResponsesUpgradeTests {
    typealias Driver = StoreConformanceTests.Driver

    @Test(arguments: OutboxWriteCountTests.drivers)
    func responsesSummarizedBeforeReadTheSameAfterTheUpgrade(driver: Driver) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-upgrade-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let schema = "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        func open() async throws -> any ActionStore {
            driver == .sqlite ? try await SQLiteActionStore(path: path) : try await StoreConformanceTests.makePostgres(schema: schema)
        }
        // Before: r-done delivered to a and b, r-dead dead on b, r-local delivered in process.
        let store = try await open()
        for id in ["a", "b"] {
            _ = try await store.createEndpoint(
                Endpoint(id: id, url: "https://\(id).example/", filter: ["invite.*"], secret: "whsec_one", createdAt: OutboxWriteCountTests.at(1)))
        }
        await store.fanOutAtAccept(AcceptFanOut(handledInProcess: { _, action in action == "local" }))
        _ = try await store.accept(StoreConformanceTests.action("n-1", id: "r-done", at: 1_000))
        _ = try await store.accept(StoreConformanceTests.action("n-2", id: "r-dead", at: 1_000))
        _ = try await store.accept(StoreConformanceTests.action("n-3", "local", id: "r-local", at: 1_000))
        for endpoint in ["a", "b"] {
            let claimed = try await store.claimDeliveries(
                endpointID: endpoint, now: OutboxWriteCountTests.at(1_001), limit: 10, lease: 60, owner: "w", breaker: OutboxWriteCountTests.breaker)
            _ = try await store.finishDeliveries(
                claimed.map { work in
                    let dead = work.action.id == "r-dead" && endpoint == "b"
                    return FinishedAttempt(
                        responseID: work.action.id, endpointID: endpoint, outcome: dead ? .rejected("HTTP 410") : .delivered,
                        at: OutboxWriteCountTests.at(1_002))
                }, owner: "w", breaker: OutboxWriteCountTests.breaker)
        }
        let local = try #require(try await store.claimDue(now: OutboxWriteCountTests.at(1_001), limit: 10, lease: 60, owner: "h").first)
        try await store.markDelivered(id: local.id, owner: "h", at: OutboxWriteCountTests.at(1_003))
        let expected = try await store.responses(matching: ResponseFilter(), after: nil, limit: 10)
        #expect(expected.items.map(\.status) == [.delivered, .delivered, .dead])  // newest first, then by id descending
        // Back to what version 13 stored: the summary in the routed rows, no view, version 13.
        let summaries = [("r-done", "delivered", "NULL"), ("r-dead", "dead", "'b: HTTP 410'")]
        if let sqlite = store as? SQLiteActionStore {
            try await sqlite.pool.write { db in
                for (id, status, error) in summaries {
                    try db.execute(sql: "UPDATE action_responses SET status = '\(status)', attempts = 1, last_error = \(error) WHERE id = '\(id)'")
                }
                try db.execute(sql: "DROP VIEW response_states")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v14:%'")
            }
        } else if let postgres = store as? PostgresActionStore {
            for (id, status, error) in summaries {
                try await postgres.client.query(
                    PostgresQuery(
                        unsafeSQL: "UPDATE action_responses SET status = '\(status)', attempts = 1, last_error = \(error) WHERE id = '\(id)'"),
                    logger: logger)
            }
            try await postgres.client.query("DROP VIEW response_states", logger: logger)
            try await postgres.client.query("DELETE FROM actionable_migrations WHERE version = 14", logger: logger)
            postgres.shutdown()
        }
        let upgraded = try await open()
        defer { (upgraded as? PostgresActionStore)?.shutdown() }
        #expect(try await upgraded.responses(matching: ResponseFilter(), after: nil, limit: 10) == expected)
        #expect(try await upgraded.response(id: "r-dead")?.lastError == "b: HTTP 410")
        #expect(try await upgraded.responseCounts() == [.delivered: 2, .dead: 1])
        // The routed ones are no longer the in-process queue's, and a re-queue still reaches their deliveries.
        #expect(try await upgraded.claimDue(now: OutboxWriteCountTests.at(5_000), limit: 10, lease: 60, owner: "h").isEmpty)
        #expect(try await upgraded.requeue(id: "r-dead", at: OutboxWriteCountTests.at(5_000)) == .queued)
        #expect(try await upgraded.endpointDeliveries(responseID: "r-dead").map(\.status) == [.delivered, .pending])
        #expect(try await upgraded.response(id: "r-dead")?.status == .pending)
        let again = try await upgraded.claimDeliveries(
            endpointID: "b", now: OutboxWriteCountTests.at(5_000), limit: 10, lease: 60, owner: "w", breaker: OutboxWriteCountTests.breaker)
        #expect(again.map(\.action.id) == ["r-dead"])
        _ = try await upgraded.finishDeliveries(
            again.map { FinishedAttempt(responseID: $0.action.id, endpointID: "b", outcome: .delivered, at: OutboxWriteCountTests.at(5_001)) },
            owner: "w", breaker: OutboxWriteCountTests.breaker)
        #expect(try await upgraded.response(id: "r-dead")?.status == .delivered)  // read from its deliveries: the row was routed

        // An instance of the older version, still running during a rolling upgrade, writes a
        // status into a routed row (its summary, or pending at accept): it still reads right, and
        // the next purge sets it back to routed.
        let raw = "UPDATE action_responses SET status = 'pending', attempts = 9, last_error = 'stale' WHERE id = 'r-done'"
        if let sqlite = upgraded as? SQLiteActionStore {
            try await sqlite.pool.write { db in try db.execute(sql: raw) }
        } else if let postgres = upgraded as? PostgresActionStore {
            try await postgres.client.query(PostgresQuery(unsafeSQL: raw), logger: logger)
        }
        let stale = try #require(try await upgraded.response(id: "r-done"))
        #expect(stale.status == .delivered && stale.attempts == 1 && stale.lastError == nil)
        #expect(try await upgraded.pendingCount() == 1)  // the old row's "pending" counts until it is set back
        _ = try await upgraded.purge(
            PurgeCutoff(
                responsesBefore: OutboxWriteCountTests.at(0), badgeEntriesBefore: OutboxWriteCountTests.at(0), now: OutboxWriteCountTests.at(0)),
            limit: 10)
        #expect(try await upgraded.pendingCount() == 0)
        #expect(try await upgraded.responseCounts() == [.delivered: 3])
    }
}

/// Responses routed to endpoints, on every driver: their state as operators see it — re-queued,
/// counted and purged — is their deliveries', and one rule holds everywhere.
struct RoutedResponseStateTests {
    typealias Driver = StoreConformanceTests.Driver
    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }
    static let breaker = OutboxWriteCountTests.breaker

    /// Accepts `count` responses handed at accept to endpoints `a` and `b`.
    static func routed(_ store: any ActionStore, count: Int, at time: TimeInterval = 1_000) async throws {
        for id in ["a", "b"] {
            _ = try await store.createEndpoint(
                Endpoint(id: id, url: "https://\(id).example/", filter: ["invite.*"], secret: "whsec_one", createdAt: at(1)))
        }
        await store.fanOutAtAccept(AcceptFanOut())
        for index in 0..<count {
            _ = try await store.accept(StoreConformanceTests.action("n-\(index)", id: String(format: "r-%03d", index), at: time))
        }
    }

    /// Claims every due delivery of `endpoint` at `time` and records `outcome` for each.
    static func finishAll(_ store: any ActionStore, _ endpoint: String, _ outcome: DeliveryOutcome, at time: TimeInterval) async throws {
        let claimed = try await store.claimDeliveries(endpointID: endpoint, now: at(time), limit: 1_000, lease: 60, owner: "w", breaker: breaker)
        _ = try await store.finishDeliveries(
            claimed.map { FinishedAttempt(responseID: $0.action.id, endpointID: endpoint, outcome: outcome, at: at(time)) }, owner: "w",
            breaker: breaker)
    }

    @Test(arguments: Driver.available)
    func requeueingADeadResponseReplaysOnlyItsDeadDeliveries(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        try await Self.routed(store, count: 2)
        // Dead on a (the endpoint sorted first), delivered on b.
        try await Self.finishAll(store, "a", .rejected("HTTP 410"), at: 1_001)
        try await Self.finishAll(store, "b", .delivered, at: 1_001)
        #expect(try await store.responseCounts() == [.dead: 2])
        #expect(try await store.requeue(id: "r-000", at: Self.at(2_000)) == .queued)
        #expect(try await store.endpointDeliveries(responseID: "r-000").map(\.status) == [.pending, .delivered])
        #expect(try await store.requeue(matching: ResponseFilter(status: .dead), at: Self.at(2_000)) == 1)
        #expect(try await store.endpointDeliveries(responseID: "r-001").map(\.status) == [.pending, .delivered])
        #expect(try await store.responseCounts() == [.pending: 2])
        #expect(try await store.responses(matching: ResponseFilter(status: .pending), after: nil, limit: 10).items.map(\.id) == ["r-001", "r-000"])
        #expect(try await store.responses(matching: ResponseFilter(status: .dead), after: nil, limit: 10).items.isEmpty)
        // Delivered on a too: the response is delivered, and a re-queue replays it to both.
        try await Self.finishAll(store, "a", .delivered, at: 2_001)
        #expect(try await store.responseCounts() == [.delivered: 2])
        #expect(try await store.responses(matching: ResponseFilter(status: .delivered), after: nil, limit: 10).items.count == 2)
        #expect(try await store.requeue(matching: ResponseFilter(status: .delivered), at: Self.at(3_000)) == 2)
        #expect(try await store.endpointDeliveries(responseID: "r-000").map(\.status) == [.pending, .pending])
        #expect(try await store.pendingCount() == 4)  // four deliveries wait
    }

    @Test(arguments: Driver.available)
    func aRoutedResponseStaysUntilItsLastAttemptIsOld(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        try await Self.routed(store, count: 1)
        try await Self.finishAll(store, "b", .delivered, at: 1_001)
        // a fails until 90 000 (its retries due later and later), then is rejected for good.
        try await Self.finishAll(store, "a", .failed("HTTP 503", retryAt: Self.at(90_000)), at: 1_001)
        try await Self.finishAll(store, "a", .rejected("HTTP 410"), at: 90_000)
        let dead = try #require(try await store.response(id: "r-000"))
        #expect(dead.status == .dead && dead.nextAttemptAt == Self.at(90_000) && dead.attempts == 2)
        let early = PurgeCutoff(responsesBefore: Self.at(50_000), badgeEntriesBefore: Self.at(0), now: Self.at(100_000))
        #expect(try await store.purge(early, limit: 100).responses == 0)  // received long before, but its last attempt is not old
        let late = PurgeCutoff(responsesBefore: Self.at(95_000), badgeEntriesBefore: Self.at(0), now: Self.at(200_000))
        #expect(try await store.purge(late, limit: 100).responses == 1)
        #expect(try await store.response(id: "r-000") == nil)
    }

    @Test(arguments: Driver.available)
    func routedResponsesQueuedByManyAtOnceAreQueuedOnce(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        try await Self.routed(store, count: 30)
        try await Self.finishAll(store, "a", .rejected("HTTP 410"), at: 1_001)
        try await Self.finishAll(store, "b", .delivered, at: 1_001)
        // Four bulk re-queues and ten of one response, at once: each response queued once.
        let (bulk, single) = try await withThrowingTaskGroup(of: (Int, RequeueResult?).self) { group in
            for _ in 0..<4 {
                group.addTask { (try await store.requeue(matching: ResponseFilter(status: .dead), at: Self.at(2_000)), nil) }
            }
            for _ in 0..<10 { group.addTask { (0, try await store.requeue(id: "r-007", at: Self.at(2_000))) } }
            return try await group.reduce(into: (0, [RequeueResult]())) { total, result in
                total.0 += result.0
                if let single = result.1 { total.1.append(single) }
            }
        }
        #expect(bulk + single.filter { $0 == .queued }.count == 30)
        #expect(single.filter { $0 == .queued }.count <= 1)
        #expect(try await store.responseCounts() == [.pending: 30])
        for index in [0, 7, 29] {
            #expect(try await store.endpointDeliveries(responseID: String(format: "r-%03d", index)).map(\.status) == [.pending, .delivered])
        }
    }
}
